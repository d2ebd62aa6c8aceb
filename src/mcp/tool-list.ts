// The answer to tools/list: each offered tool with its hints, and the status tool.
import { description } from './descriptions.js';
import { BRAKE_TOOLS, type Tool } from './tools.js';
import { STATUS_TOOL, type McpSession } from './session.js';

/** Every tool this server offers, as tools/list names them. */
export function listTools(session: McpSession) {
  return {
    tools: [
      ...[...session.tools.values()].map((tool) => ({
        name: tool.spec.name,
        title: `trader ${tool.command.name}`,
        description: description(tool, session.gate, session.opts),
        inputSchema: tool.inputSchema,
        annotations: annotationsOf(tool),
      })),
      {
        name: STATUS_TOOL,
        title: 'trading status',
        description:
          'whether this server offers buy, sell and cancel, why not when it does not, whether `trader lock` stops every signature now, and the profile limits every trade is held to',
        inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    ],
  };
}

/** A trade changes the world and may repeat only with its key; a brake changes only this machine. */
function annotationsOf(tool: Tool) {
  return tool.spec.trade
    ? {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: tool.spec.idempotent === true,
        openWorldHint: true,
      }
    : BRAKE_TOOLS.includes(tool.spec)
      ? { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }
      : { readOnlyHint: true, openWorldHint: true };
}

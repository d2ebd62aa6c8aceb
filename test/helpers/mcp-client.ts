// `trader mcp` through the official SDK's own client: spawns the built binary over stdio with
// a given environment, optionally answers elicitation (the person's yes or no), and keeps what
// the server wrote to stderr and any protocol error the client saw.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './cli.js';
import { tempEnv } from './temp.js';

export interface McpSession {
  client: Client;
  /** Calls a tool; never throws on a tool error (isError). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: any }>;
  /** The review texts the server asked the person about. */
  asked: string[];
  stderr(): string;
  /** The server's process id (its command line is checked for secrets). */
  pid(): number | null;
  /** Protocol errors the client saw (a stray line on stdout would be one). */
  protocolErrors: Error[];
  close(): Promise<void>;
}

export interface McpOptions {
  args?: string[];
  env: Record<string, string>;
  /** Declares elicitation and answers each request so; absent: the client cannot ask. */
  answer?: (message: string) => ElicitResult;
}

/** Starts `trader mcp …args` and connects. Remember to close(). */
export async function startMcp(opts: McpOptions): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...(opts.args ?? [])],
    env: { NO_COLOR: '1', ...tempEnv(), ...opts.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client(
    { name: 'trader-test', version: '0.0.0' },
    { capabilities: opts.answer ? { elicitation: {} } : {} },
  );
  const protocolErrors: Error[] = [];
  client.onerror = (err) => protocolErrors.push(err);
  const asked: string[] = [];
  if (opts.answer) {
    const answer = opts.answer;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const message = (request.params as { message: string }).message;
      asked.push(message);
      return answer(message);
    });
  }
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as any,
    asked,
    stderr: () => stderr,
    pid: () => transport.pid,
    protocolErrors,
    close: () => client.close(),
  };
}

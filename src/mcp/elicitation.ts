// Asking the person through the MCP client (elicitation) whether a trade's review may be signed.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { safeForTerminal } from '../io/terminal-text.js';

/** How long a person has to answer a trade's review in the client. */
const APPROVAL_TIMEOUT_MS = 5 * 60_000;

/** Shows the person a trade's review through the client; true only on their explicit yes. */
export async function askPerson(
  server: Server,
  log: (line: string) => void,
  review: string,
  question: string,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const answer = await server.elicitInput(
      {
        // The review quotes the service (token names): no escapes or bidi controls reach the person.
        message: safeForTerminal(`${review}\n\n${question}`),
        requestedSchema: {
          type: 'object',
          properties: {
            approve: {
              type: 'boolean',
              title: question,
              description: 'yes signs it; anything else signs nothing',
              default: false,
            },
          },
          required: ['approve'],
        },
      },
      { signal, timeout: APPROVAL_TIMEOUT_MS },
    );
    return answer.action === 'accept' && answer.content?.approve === true;
  } catch (err) {
    log(`no answer from the person: ${(err as Error).message}; nothing is signed`);
    return false;
  }
}

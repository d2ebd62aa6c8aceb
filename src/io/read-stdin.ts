// Standard input read to its end, once, for a secret piped in (--api-key-stdin, --keypair
// stdin:, `config set apiKey -`). Bounded: a secret is small, and a stream that never ends
// must not be read for ever into memory.
import { UsageError } from '../domain/errors.js';

const MAX_BYTES = 64 * 1024;

/** The whole of `stream` as text; throws a UsageError past 64 KiB. */
export async function readStdinText(stream: NodeJS.ReadableStream, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    length += bytes.length;
    chunks.push(bytes);
    if (length > MAX_BYTES) {
      for (const c of chunks) c.fill(0);
      throw new UsageError(`standard input holds more than ${MAX_BYTES} bytes; expected ${what} alone`);
    }
  }
  const all = Buffer.concat(chunks);
  for (const c of chunks) c.fill(0);
  const text = all.toString('utf8');
  all.fill(0);
  return text;
}

// Reading and parsing request bodies defensively: size cap, content type, JSON object only.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './sandbox-error.js';
import type { Body } from './validate.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Read the whole body; bytes past the cap are drained and dropped. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<{ raw: Buffer; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve({ raw: Buffer.concat(chunks), tooLarge }));
    // An aborted upload ends the request; whatever arrived is treated as the body.
    req.on('error', () => resolve({ raw: Buffer.concat(chunks), tooLarge }));
    req.on('aborted', () => resolve({ raw: Buffer.concat(chunks), tooLarge }));
  });
}

/** Best-effort parse for the request log: JSON if it parses, else the text (cut short). */
export function bodyForLog(raw: Buffer): unknown {
  if (raw.length === 0) return null;
  const text = raw.subarray(0, 64 * 1024).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
  }
}

/** The JSON object body of a request; an empty body counts as `{}`. */
export function parseJsonBody(contentType: string | undefined, raw: Buffer, tooLarge: boolean): Body {
  if (tooLarge) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `request bodies are limited to ${MAX_BODY_BYTES} bytes`);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return {};
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'request bodies must be JSON with Content-Type: application/json',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'the request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'INVALID_BODY', 'the request body must be a JSON object');
  }
  return parsed as Body;
}

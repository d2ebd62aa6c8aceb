// The one error type handlers throw; the server turns it into the JSON error body.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400 for a request field that is missing or malformed. */
export function invalidField(field: string, message: string): HttpError {
  return new HttpError(400, 'VALIDATION_ERROR', `${field}: ${message}`, { field });
}

/** 404 for an unknown id, or one that belongs to another account (never reveal which). */
export function notFound(what: string, id: string): HttpError {
  return new HttpError(404, 'NOT_FOUND', `${what} ${id} not found`);
}

/** `record` when it exists and belongs to the caller's account; else the 404 of an unknown id. */
export function ownedBy<R extends { accountId: string }>(
  accountId: string,
  record: R | undefined,
  what: string,
  id: string,
): R {
  if (!record || record.accountId !== accountId) throw notFound(what, id);
  return record;
}

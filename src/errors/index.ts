/**
 * One error family for everything a caller can get wrong or that can go wrong
 * while rendering. Each error carries the HTTP status from the spec's error
 * table so the library and the REST server answer alike, and serialises to the
 * hosted API's body: `{name, message, fields: [{message, property}]}`.
 */

export interface FieldError {
  message: string;
  /** Path of the offending property, e.g. `data[2].table.columnOptions[0].align`. */
  property: string;
}

export interface ErrorBody {
  name: string;
  message: string;
  fields: FieldError[];
}

export class CastpressError extends Error {
  readonly status: number;
  readonly fields: FieldError[];

  constructor(name: string, status: number, message: string, fields: FieldError[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = name;
    this.status = status;
    this.fields = fields;
  }

  toJSON(): ErrorBody {
    return { name: this.name, message: this.message, fields: this.fields };
  }
}

function summarise(fields: FieldError[]): string {
  if (fields.length === 0) return 'Validation failed';
  return fields.map((f) => `${f.property}: ${f.message}`).join('; ');
}

/** 400: the request (or the template) does not have the shape the spec asks for. */
export class ValidationError extends CastpressError {
  constructor(fields: FieldError[], message = summarise(fields)) {
    super('ValidationError', 400, message, fields);
  }

  static of(property: string, message: string): ValidationError {
    return new ValidationError([{ property, message }]);
  }
}

/** 401: missing or invalid credentials (used by the REST server). */
export class AuthorizationError extends CastpressError {
  constructor(message = 'Not logged in.') {
    super('AuthorizationError', 401, message, [{ message, property: 'authorization' }]);
  }
}

/** 404: no template with that EID and version. */
export class NotFoundError extends CastpressError {
  constructor(message: string, property = 'castEid') {
    super('NotFoundError', 404, message, [{ message, property }]);
  }
}

/** 413: a body or an embedded resource is over one of the spec's limits. */
export class PayloadTooLargeError extends CastpressError {
  constructor(message: string, property: string) {
    super('PayloadTooLargeError', 413, message, [{ message, property }]);
  }
}

/** 414: the request's URL (a path segment) is longer than the server accepts. */
export class UriTooLongError extends CastpressError {
  constructor(message: string) {
    super('UriTooLongError', 414, message, [{ message, property: 'url' }]);
  }
}

/** 415: the request's content type is neither JSON nor multipart. */
export class UnsupportedMediaTypeError extends CastpressError {
  constructor(message = 'Content-Type must be application/json or multipart/form-data') {
    super('UnsupportedMediaTypeError', 415, message, [{ message, property: 'Content-Type' }]);
  }
}

/** 429: too many simultaneous requests (development keys, engine queue limits). */
export class TooManyRequestsError extends CastpressError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds = 1, message = 'Too many simultaneous requests') {
    super('TooManyRequestsError', 429, message, [{ message, property: 'request' }]);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** 422: a template or input PDF that cannot be read (corrupt, needs a password...). */
export class InvalidPdfError extends CastpressError {
  constructor(message: string, property = 'pdf', options?: { cause?: unknown }) {
    super('InvalidPdfError', 422, message, [{ message, property }], options);
  }
}

/** 500/503: the engine itself failed (Chromium died twice, deadline passed, engine closed). */
export class RenderError extends CastpressError {
  constructor(message: string, status = 500, options?: { cause?: unknown }) {
    super('RenderError', status, message, [], options);
  }
}

/**
 * 422: a document or a certificate that cannot be signed as asked (an identity whose files are
 * damaged, a document that cannot take an incremental update). Bad inputs stay ValidationErrors.
 */
export class SigningError extends CastpressError {
  constructor(message: string, property = 'signing', status = 422, options?: { cause?: unknown }) {
    super('SigningError', status, message, [{ message, property }], options);
  }
}

/**
 * 507: the server's storage is full (or over quota), so what the request would store was not
 * stored; nothing of it was kept. 503 when the refusal is of a request that only reads.
 * `property` names what could not be stored (`packets.documents`, `packets.database`, `mail`).
 */
export class InsufficientStorageError extends CastpressError {
  constructor(message: string, property: string, status = 507, options?: { cause?: unknown }) {
    super('InsufficientStorageError', status, message, [{ message, property }], options);
  }
}

/** `ENOSPC` / `EDQUOT` from the file system, `SQLITE_FULL` from SQLite, `53100` (disk_full) from PostgreSQL. */
export function isStorageFull(e: unknown): boolean {
  if (e instanceof InsufficientStorageError) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100';
}

export function isCastpressError(e: unknown): e is CastpressError {
  return e instanceof CastpressError;
}

/** Turns any thrown value into a body fit to send; unknown errors never leak stack traces. */
export function toErrorBody(e: unknown): { status: number; body: ErrorBody } {
  if (e instanceof CastpressError) return { status: e.status, body: e.toJSON() };
  return { status: 500, body: { name: 'InternalError', message: 'Internal error', fields: [] } };
}

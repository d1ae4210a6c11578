import {
  CastpressError,
  InsufficientStorageError,
  isStorageFull,
  PayloadTooLargeError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
  UriTooLongError,
  ValidationError,
  isCastpressError,
  toErrorBody,
  type ErrorBody,
} from '../../errors/index.js';

export interface HttpError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Fastify's own errors carry a code and a status; these are the ones a client can cause. */
function fromFastify(
  code: string,
  statusCode: number | undefined,
  message: string,
  jsonBodyBytes: number,
): CastpressError | undefined {
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError(
        `JSON body is larger than ${jsonBodyBytes} bytes; send larger payloads as multipart/form-data`,
        'body',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ValidationError.of('body', 'The body does not match its Content-Length');
    // The router's own refusals (a path segment over maxParamLength, a malformed percent-escape): the
    // message names the path, which may be long, so it is not repeated.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new UriTooLongError('A segment of the URL path is longer than the server accepts');
    case 'FST_ERR_BAD_URL':
      return ValidationError.of('url', 'The URL path is not a valid URL component (malformed percent-escape)');
  }
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new CastpressError('BadRequestError', statusCode, message, [{ message, property: 'request' }]);
  }
  return undefined;
}

/**
 * The status, the spec's error body and any headers for a thrown value; anything unexpected is a bare 500.
 * A full disk is a 507 for a request that stores something and a 503 (the server cannot serve now) for a
 * read (`GET`, `HEAD`) that met it.
 */
export function toHttpError(e: unknown, jsonBodyBytes: number, method?: string): HttpError {
  let err: unknown = e;
  // A full disk met outside the stores (which name what was not stored themselves).
  if (!isCastpressError(e) && isStorageFull(e))
    err = new InsufficientStorageError("The server's disk is full: nothing was stored", 'storage', 507, { cause: e });
  else if (!isCastpressError(e) && e instanceof Error) {
    const { code, statusCode } = e as Error & { code?: unknown; statusCode?: unknown };
    if (typeof code === 'string')
      err = fromFastify(code, typeof statusCode === 'number' ? statusCode : undefined, e.message, jsonBodyBytes) ?? e;
  }
  if (err instanceof InsufficientStorageError && err.status === 507 && (method === 'GET' || method === 'HEAD')) {
    err = new InsufficientStorageError(err.message, err.fields[0]?.property ?? 'storage', 503, { cause: err });
  }
  const { status, body } = toErrorBody(err);
  const headers: Record<string, string> = {};
  if (err instanceof TooManyRequestsError)
    headers['retry-after'] = String(Math.max(1, Math.ceil(err.retryAfterSeconds)));
  if (err instanceof InsufficientStorageError) headers['retry-after'] = '60';
  if (status === 401) headers['www-authenticate'] = 'Basic realm="castpress", charset="UTF-8"';
  return { status, body, headers };
}

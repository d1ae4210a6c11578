import { CastpressError } from '../../../errors/index.js';

/** The spec's signing error types; only `tokenExpired` can be recovered from (a new link). */
export type SignerErrorType = 'tokenExpired' | 'tokenInvalid' | 'notFound' | 'unknown';

const STATUS: Record<SignerErrorType, number> = { tokenExpired: 401, tokenInvalid: 403, notFound: 404, unknown: 409 };

/**
 * A signer's link or step refused: the `errorType` goes into the `signerError`
 * redirect parameters and iframe message; `title` is their `error` parameter.
 */
export class SignerError extends CastpressError {
  readonly errorType: SignerErrorType;
  readonly title: string;
  readonly signerEid: string;

  /** `status` overrides the error type's (410 for a link whose signer has finished). */
  constructor(
    errorType: SignerErrorType,
    title: string,
    message: string,
    signerEid: string,
    status = STATUS[errorType],
  ) {
    super('SignerError', status, message, [{ property: errorType === 'notFound' ? 'signerEid' : 'token', message }]);
    this.errorType = errorType;
    this.title = title;
    this.signerEid = signerEid;
  }
}

/** 409: the operation does not apply to the packet's (or signer's) state; nothing was changed. */
export class PacketStateError extends CastpressError {
  constructor(message: string, property: string) {
    super('PacketStateError', 409, message, [{ property, message }]);
  }
}

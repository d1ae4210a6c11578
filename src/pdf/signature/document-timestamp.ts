/**
 * A document timestamp (PAdES B-LTA, ISO 32000-2 §12.8.5): a signature field whose value is a
 * /Type /DocTimeStamp dictionary, SubFilter ETSI.RFC3161, /Contents an RFC 3161 token over the
 * whole file so far, appended as the file's last incremental update (@libpdf/core's
 * `addTimestamp`, no validation data of its own: nothing is fetched). The input bytes are an
 * exact prefix of the output, and the timestamp covers the whole result; both checked here.
 */
import type { TimestampAuthority } from '@libpdf/core';
import { CastpressError, SigningError } from '../../errors/index.js';
import { isPrefix, lastSignatureCoversAll, open } from './write.js';

export interface AppendDocumentTimestampOptions {
  timestampAuthority: TimestampAuthority;
  /** Bytes reserved for the token in /Contents (default 12 KB). */
  reserve?: number;
  /** Name of the new signature field (default `Document timestamp`, numbered when taken). */
  fieldName?: string;
}

export async function appendDocumentTimestamp(
  bytes: Uint8Array,
  options: AppendDocumentTimestampOptions,
): Promise<Uint8Array> {
  const lib = await import('@libpdf/core');
  const pdf = await open(bytes);
  const blocker = pdf.canSaveIncrementally();
  if (blocker === 'linearized') {
    // As in appendSignature: append to a linearized file instead of rewriting it.
    const internals = pdf as unknown as { _isLinearized?: boolean };
    if (typeof internals._isLinearized === 'boolean') internals._isLinearized = false;
  } else if (blocker !== null) {
    throw new SigningError(`The document cannot take an incremental update (${blocker})`, 'pdf');
  }
  const taken = new Set(pdf.getForm()?.getFieldNames() ?? []);
  const base = options.fieldName ?? 'Document timestamp';
  let fieldName = base;
  for (let n = 2; taken.has(fieldName); n++) fieldName = `${base} ${n}`;
  let out: Uint8Array;
  try {
    const result = await pdf.addTimestamp({
      timestampAuthority: options.timestampAuthority,
      fieldName,
      digestAlgorithm: 'SHA-256',
      estimatedSize: options.reserve ?? 12288,
    });
    out = result.bytes;
  } catch (e) {
    if (e instanceof CastpressError) throw e;
    if (e instanceof lib.TimestampError)
      throw new SigningError(`Timestamp authority failed: ${e.message}`, 'timestamp', 502, { cause: e });
    throw new SigningError(`Cannot add the document timestamp: ${(e as Error).message}`, 'pdf', 500, { cause: e });
  }
  if (!isPrefix(bytes, out))
    throw new SigningError(
      'The document timestamp would have rewritten earlier bytes of the document; refused',
      'pdf',
      500,
    );
  if (!lastSignatureCoversAll(out, bytes.byteLength))
    throw new SigningError('The document timestamp would not be the last update of the document; refused', 'pdf', 500);
  return out;
}

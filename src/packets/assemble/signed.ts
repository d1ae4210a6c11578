/**
 * Uploads that already carry a signature. Assembly keeps one valid only when it appends to
 * its bytes (signature fields in an incremental update); merging it with other files, filling its
 * fields through the fill engine or removing active content makes a new file whose signature no
 * longer covers it. Such a packet is refused, naming the upload (`files[i]`), before anything is
 * stored: castpress does not drop or break a signature silently.
 */
import { ValidationError } from '../../errors/index.js';
import { readSignatureRecords } from '../../pdf/index.js';
import { formatPath } from '../../schema/index.js';

const BYTE_RANGE = Buffer.from('/ByteRange');

/** Whether a PDF carries a signature (a signature dictionary with a byte range). */
export async function carriesSignature(pdf: Uint8Array): Promise<boolean> {
  // Most uploads name no byte range at all: no parse for them.
  if (Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).indexOf(BYTE_RANGE) < 0) return false;
  return (await readSignatureRecords(pdf)).dictionaries.some((d) => d.byteRange.length === 4);
}

/** `out` keeps `signed` as its prefix: only incremental updates were appended, the signed bytes are intact. */
export function keepsSignedBytes(signed: Uint8Array, out: Uint8Array): boolean {
  return (
    out.length >= signed.length &&
    Buffer.from(out.buffer, out.byteOffset, signed.length).equals(
      Buffer.from(signed.buffer, signed.byteOffset, signed.byteLength),
    )
  );
}

/** The typed 400 for the `i`-th file of the request, a signed upload the packet would change by `what`. */
export function signedUploadChanged(i: number, what: string): ValidationError {
  return ValidationError.of(
    formatPath(['files', i]),
    `The upload carries a signature that assembling the packet would break (${what}); ` +
      `upload it unsigned, or send it as a file of its own with signature and signing fields only`,
  );
}

/**
 * The certificate each signature of a document was made with, for the certificate of completion
 * (per signer the SHA-256 of the certificate the local CA issued for them, per document). Read
 * from the signature values as `verifyPdf` finds them (raw /ByteRange scan); nothing is judged here.
 */
import { createHash } from 'node:crypto';
import { readSignatureRecords } from '../../pdf/index.js';
import { certificatesOf, findSignerCertificate, OID, parseSignedData } from '../cms/integrity.js';
import { findRawSignatures } from './find.js';

export interface SignatureCertificate {
  /** The signature dictionary's /Reason (castpress's per-signer signatures name the signer and packet eids there). */
  reason?: string;
  fieldName?: string;
  /** SHA-256 (hex) of the signer certificate's DER. */
  sha256: string;
  /** Its subject DN. */
  subject: string;
}

/** Every signature's signer certificate, in file order; document timestamps and unreadable values are left out. */
export async function signatureCertificatesOf(pdf: Uint8Array): Promise<SignatureCertificate[]> {
  const file = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const { dictionaries } = await readSignatureRecords(pdf);
  const out: SignatureCertificate[] = [];
  for (const raw of findRawSignatures(file)) {
    try {
      const sd = parseSignedData(raw.cms);
      if (sd.encapContentInfo.eContentType === OID.tstInfo) continue;
      const info = sd.signerInfos[0];
      const cert = info ? findSignerCertificate(info, certificatesOf(sd)) : undefined;
      if (!cert) continue;
      const dict = dictionaries.find((d) => d.byteRange.join(' ') === raw.byteRange.join(' '));
      out.push({
        ...(dict?.reason !== undefined ? { reason: dict.reason } : {}),
        ...(dict ? { fieldName: dict.fieldName } : {}),
        sha256: createHash('sha256').update(cert.raw).digest('hex'),
        subject: cert.subject.replace(/\n/g, ', '),
      });
    } catch {
      // A value that does not parse names no certificate.
    }
  }
  return out;
}

/**
 * The last two steps of a packet document: a certificate of completion appended
 * as pages (an incremental update that also removes the unsigned /Sig placeholders),
 * then the seal (src/signing), which is the
 * last update and covers the whole file.
 */
import { dropUnsignedSignatureFields } from '../acroform/index.js';
import type { PacketEngine } from './port.js';
import { appendPages, finishDocument } from '../pdf/index.js';
import { sealPdf, type SealOptions, type SigningIdentity } from '../signing/index.js';
import { certificateRequest, sha256Of, type CompletionCertificate } from './completion-certificate.js';

export interface CompleteOptions {
  identity: SigningIdentity;
  certificate: CompletionCertificate;
  /** Seal options; `signingTime` defaults to the certificate's `completedAt`. */
  seal?: SealOptions;
}

/**
 * Appends the certificate of completion and seals the document: two updates after the
 * signed bytes, the seal last, so validators report the whole document signed.
 */
export async function completeDocument(
  engine: Pick<PacketEngine, 'generate'>,
  signed: Uint8Array,
  options: CompleteOptions,
): Promise<Uint8Array> {
  // The certificate names the one that seals the document right after it.
  const certificate = await engine.generate(
    certificateRequest({
      ...options.certificate,
      sealingCertificate: options.certificate.sealingCertificate ?? {
        subject: options.identity.subject,
        sha256: sha256Of(options.identity.certificate),
      },
    }),
  );
  return finishDocument(signed, [
    // The empty /Sig placeholders go in the same update as the certificate: the signers' marks are page content now.
    {
      name: 'fields',
      run: (pdf) => appendPages(pdf, certificate, { property: 'certificate', edit: dropUnsignedSignatureFields }),
    },
    {
      name: 'sign',
      run: (pdf) =>
        sealPdf(pdf, options.identity, {
          reason: `Signature packet "${options.certificate.packetName}" completed`,
          name: options.certificate.packetName,
          signingTime: options.certificate.completedAt,
          ...options.seal,
        }),
    },
  ]);
}

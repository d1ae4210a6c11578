/**
 * The last steps of a packet document. One-seal mode: a certificate of completion appended
 * as pages (an incremental update that also removes the unsigned /Sig placeholders), then the
 * seal (src/signing), which is the last update and covers the whole file. Per-signer mode:
 * pages added after a signature are a change no signature allows, so the document gets
 * only the final seal and the certificate is a file of its own, sealed too.
 */
import { dropUnsignedSignatureFields } from '../../acroform/index.js';
import type { PacketEngine } from '../assemble/port.js';
import { appendPages, finishDocument } from '../../pdf/index.js';
import { AppearanceWriter, sealPdf, type SealOptions, type SigningIdentity } from '../../signing/index.js';
import { drawAdoptedMarks } from './certificate-marks.js';
import { adoptedKinds, certificateRequest, sha256Of, type CompletionCertificate } from './completion-certificate.js';

export interface CompleteOptions {
  identity: SigningIdentity;
  certificate: CompletionCertificate;
  /** Seal options; `signingTime` defaults to the certificate's `completedAt`. */
  seal?: SealOptions;
  /** Draws the signers' adopted marks on the certificate; default: one made for the call when a signer adopted any. */
  writer?: AppearanceWriter;
}

/** The certificate of completion as its own PDF: the engine's layout, then each signer's adopted marks in their section. */
async function certificatePdf(
  engine: Pick<PacketEngine, 'generateDocument'>,
  options: CompleteOptions,
): Promise<Uint8Array> {
  const certificate = namingSealer(options);
  const { pdf, blocks = [] } = await engine.generateDocument(certificateRequest(certificate));
  const adopted = certificate.signers.some((s) => adoptedKinds(s.adopted).length > 0);
  return adopted ? drawAdoptedMarks(pdf, blocks, certificate, options.writer ?? new AppearanceWriter()) : pdf;
}

/**
 * Appends the certificate of completion and seals the document: two updates after the
 * signed bytes, the seal last, so validators report the whole document signed.
 */
export async function completeDocument(
  engine: Pick<PacketEngine, 'generateDocument'>,
  signed: Uint8Array,
  options: CompleteOptions,
): Promise<Uint8Array> {
  const certificate = await certificatePdf(engine, options);
  return finishDocument(signed, [
    // The empty /Sig placeholders go in the same update as the certificate: the signers' marks are page content now.
    {
      name: 'fields',
      run: (pdf) => appendPages(pdf, certificate, { property: 'certificate', edit: dropUnsignedSignatureFields }),
    },
    { name: 'sign', run: (pdf) => sealPdf(pdf, options.identity, sealOptions(options)) },
  ]);
}

/** The certificate names the one that seals the document right after it. */
function namingSealer(options: CompleteOptions): CompletionCertificate {
  return {
    ...options.certificate,
    sealingCertificate: options.certificate.sealingCertificate ?? {
      subject: options.identity.subject,
      sha256: sha256Of(options.identity.certificate),
    },
  };
}

function sealOptions(options: CompleteOptions): SealOptions {
  return {
    reason: `Signature packet "${options.certificate.packetName}" completed`,
    name: options.certificate.packetName,
    signingTime: options.certificate.completedAt,
    ...options.seal,
  };
}

/**
 * Per-signer mode: the final seal only (a new signed signature field: form filling and signing
 * for every signer's signature before it), the last update, covering the whole file.
 */
export async function sealCompletedDocument(signed: Uint8Array, options: CompleteOptions): Promise<Uint8Array> {
  return sealPdf(signed, options.identity, sealOptions(options));
}

/** Per-signer mode: the certificate of completion as its own PDF, sealed by the operator's identity. */
export async function certificateDocument(
  engine: Pick<PacketEngine, 'generateDocument'>,
  options: CompleteOptions,
): Promise<Uint8Array> {
  const certificate = await certificatePdf(engine, options);
  return sealPdf(certificate, options.identity, sealOptions(options));
}

/** The certificate's file name in the packet's downloads (per-signer mode). */
export const CERTIFICATE_FILENAME = 'certificate-of-completion.pdf';

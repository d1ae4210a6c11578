/**
 * The last steps of a packet document. One-seal mode: a certificate of completion appended
 * as pages (an incremental update that also removes the unsigned /Sig placeholders), then the
 * seal (src/signing), which is the last update and covers the whole file. Per-signer mode
 * (#31): pages added after a signature are a change no signature allows, so the document gets
 * only the final seal and the certificate is a file of its own, sealed too.
 */
import { createHash } from 'node:crypto';
import { dropUnsignedSignatureFields } from '../acroform/index.js';
import type { PacketEngine } from './port.js';
import { appendPages, finishDocument } from '../pdf/index.js';
import { sealPdf, type SealOptions, type SigningIdentity } from '../signing/index.js';

/** What the certificate states; the workflow supplies it from its records. */
export interface CompletionCertificate {
  packetName: string;
  packetEid: string;
  /** Each document of the packet with its SHA-256 as assembled and as signed (`sha256Of`). */
  documents: Array<{ name: string; sha256Before: string; sha256After: string }>;
  signers: Array<{
    name?: string;
    email?: string;
    routingOrder: number;
    signerType?: string;
    clientUserId?: string;
    ip?: string;
    userAgent?: string;
    tokenId?: string;
    sentAt?: Date;
    viewedAt?: Date;
    signedAt?: Date;
  }>;
  /** When the packet completed (the certificate's own date). */
  completedAt: Date;
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const when = (d: Date | undefined) => (d ? d.toISOString().replace('.000Z', 'Z') : '—');
const text = (s: string | undefined) => (s === undefined || s === '' ? '—' : s);

/** The certificate as a Markdown generate request (rendered by the engine, no browser). */
export function certificateRequest(c: CompletionCertificate): { title: string; fontSize: number; data: unknown[] } {
  const data: unknown[] = [
    { heading: 'Certificate of completion' },
    { label: 'Packet' },
    { content: `${c.packetName} (${c.packetEid}), completed ${when(c.completedAt)}` },
    { label: 'Documents (SHA-256 as assembled / as signed)' },
    {
      table: {
        rows: [
          ['Document', 'Before signing', 'After signing'],
          ...c.documents.map((d) => [d.name, d.sha256Before, d.sha256After]),
        ],
        columnOptions: [{ width: '20%' }, { width: '40%' }, { width: '40%' }],
      },
    },
    { label: 'Signers' },
  ];
  for (const s of [...c.signers].sort((a, b) => a.routingOrder - b.routingOrder)) {
    data.push({
      table: {
        rows: [
          ['Signer', `${text(s.name)} <${text(s.email)}>`],
          ['Routing order, type', `${s.routingOrder}, ${text(s.signerType)}`],
          ['Client user id', text(s.clientUserId)],
          ['IP address, user agent', `${text(s.ip)}, ${text(s.userAgent)}`],
          ['Token', text(s.tokenId)],
          ['Sent, viewed, signed', `${when(s.sentAt)}, ${when(s.viewedAt)}, ${when(s.signedAt)}`],
        ],
        firstRowHeaders: false,
        columnOptions: [{ width: '30%' }, { width: '70%' }],
      },
    });
  }
  return { title: `Certificate of completion: ${c.packetName}`, fontSize: 9, data };
}

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
  const certificate = await engine.generate(certificateRequest(options.certificate));
  return finishDocument(signed, [
    // The empty /Sig placeholders go in the same update as the certificate: the signers' marks are page content now.
    {
      name: 'fields',
      run: (pdf) => appendPages(pdf, certificate, { property: 'certificate', edit: dropUnsignedSignatureFields }),
    },
    { name: 'sign', run: (pdf) => sealPdf(pdf, options.identity, sealOptions(options)) },
  ]);
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
  engine: Pick<PacketEngine, 'generate'>,
  options: CompleteOptions,
): Promise<Uint8Array> {
  const certificate = await engine.generate(certificateRequest(options.certificate));
  return sealPdf(certificate, options.identity, sealOptions(options));
}

/** The certificate's file name in the packet's downloads (per-signer mode). */
export const CERTIFICATE_FILENAME = 'certificate-of-completion.pdf';

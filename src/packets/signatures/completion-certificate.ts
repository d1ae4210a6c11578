/**
 * The certificate of completion: what it states (`CompletionCertificate`, supplied by the workflow
 * from its records) and how it is laid out (a Markdown generate request the engine renders).
 */
import { createHash } from 'node:crypto';
import type { MarkInput } from '../../signing/index.js';
import { literalText } from '../../format/index.js';

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
    /** The signer's audit trail: each event with what the server knew of the request then. */
    events?: AuditEvent[];
    /** The consent text the signing page showed them before they adopted a mark. */
    consentText?: string;
    /**
     * Per-signer signatures: the SHA-256 of the certificate each of their signatures was made with,
     * per document (the local CA issues one per signer per document).
     */
    signatureCertificates?: Array<{ document: string; sha256: string }>;
    /**
     * The marks the signer adopted, drawn in their section as on the documents: the signature
     * (drawn, typed or uploaded) where they had signature boxes, the initials where they had initial boxes.
     */
    adopted?: AdoptedMarks;
  }>;
  /** When the packet completed (the certificate's own date). */
  completedAt: Date;
  /** The certificate the documents are sealed with: its subject and SHA-256 fingerprint. */
  sealingCertificate?: { subject: string; sha256: string };
}

/** A signer's adopted signature and initials (what their signature and initial boxes show). */
export interface AdoptedMarks {
  signature?: MarkInput;
  initials?: MarkInput;
}

/** The label above the room left for an adopted mark of the `n`-th signer (1-based, in the certificate's order). */
function adoptedLabel(kind: keyof AdoptedMarks, n: number): string {
  return `${kind === 'signature' ? 'Adopted signature' : 'Adopted initials'} (signer ${n})`;
}

/**
 * The `id` of the `n`-th signer's table of adopted marks: a row of labels, then a row of blank cells,
 * the rooms. The engine's layout reports where each cell landed (`RenderedPdf.blocks`), and
 * `drawAdoptedMarks` draws each mark in its room: nothing is read back from the PDF.
 */
export function adoptedMarksId(n: number): string {
  return `adopted-marks-${n}`;
}

/** The kinds of mark the signer adopted, in the order of the columns of their table. */
export function adoptedKinds(adopted: AdoptedMarks | undefined): Array<keyof AdoptedMarks> {
  return (['signature', 'initials'] as const).filter((kind) => adopted?.[kind] !== undefined);
}

/** Blank lines in an adopted mark's room (about 54 pt tall at 9 pt text, padding included). */
const ADOPTED_ROOM_LINES = 4;

/** The certificate's signers in the order it lists them (by routing order). */
export function certificateSigners(c: CompletionCertificate): CompletionCertificate['signers'] {
  return [...c.signers].sort((a, b) => a.routingOrder - b.routingOrder);
}

/** One event of a signer's audit trail; `ip`, `userAgent` and `timeZone` only where the request carried them. */
export interface AuditEvent {
  event: 'created' | 'sent' | 'viewed' | 'accepted' | 'signed';
  at: Date;
  /** What the event was about: for `accepted`, the document and the box. */
  detail?: string;
  ip?: string;
  userAgent?: string;
  /** IANA time zone the signing page reported with its submit. */
  timeZone?: string;
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
    // Names and quoted texts are literal: a packet's name or a signer's own name is never Markdown.
    { content: `${literalText(c.packetName)} (${c.packetEid}), completed ${when(c.completedAt)}` },
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
    ...(c.sealingCertificate
      ? [
          { label: 'Sealed by' },
          { content: `${c.sealingCertificate.subject} (certificate SHA-256 ${c.sealingCertificate.sha256})` },
        ]
      : []),
    { label: 'Signers' },
  ];
  for (const [k, s] of certificateSigners(c).entries()) {
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
    const adopted = adoptedKinds(s.adopted);
    if (adopted.length > 0) {
      const room = Array.from({ length: ADOPTED_ROOM_LINES }, () => '\u00a0').join('\n');
      data.push({
        id: adoptedMarksId(k + 1),
        table: {
          // The labels as a header row: kept on the page of the rooms, and repeated should the rooms move.
          rows: [adopted.map((kind) => adoptedLabel(kind, k + 1)), adopted.map(() => room)],
          firstRowHeaders: true,
          columnOptions: adopted.map(() => ({ width: `${100 / adopted.length}%` })),
        },
      });
    }
    // Quoted as the signing page showed it: as text.
    if (s.consentText !== undefined) data.push({ content: `Consent shown: ${literalText(s.consentText)}` });
    if (s.signatureCertificates?.length) {
      data.push({
        table: {
          rows: [
            ['Document', 'Signature certificate (SHA-256)'],
            ...s.signatureCertificates.map((c) => [c.document, c.sha256]),
          ],
          columnOptions: [{ width: '30%' }, { width: '70%' }],
        },
      });
    }
    if (s.events?.length) {
      data.push({
        table: {
          rows: [
            ['Event', 'Time (UTC)', 'IP address', 'User agent', 'Time zone'],
            ...s.events.map((e) => [
              e.detail ? `${e.event} (${e.detail})` : e.event,
              when(e.at),
              text(e.ip),
              text(e.userAgent),
              text(e.timeZone),
            ]),
          ],
          columnOptions: [{ width: '12%' }, { width: '22%' }, { width: '16%' }, { width: '34%' }, { width: '16%' }],
        },
      });
    }
  }
  return { title: `Certificate of completion: ${c.packetName}`, fontSize: 9, data };
}

/**
 * Bounds of one packet: the number of files, pages per file and per
 * packet, the bytes of its uploads and the signature fields of a document.
 * Assembly costs time and memory in proportion to pages, so a packet past them
 * is refused (413, naming the property) before the work it would cost, or as
 * soon as the count is known: a count passed in the middle of a file's scan
 * stops the scan there.
 */
import { MAX_SIGNATURE_FIELDS } from '../../acroform/index.js';
import { PayloadTooLargeError } from '../../errors/index.js';
import type { Limits } from '../../services/index.js';
import { formatPath, isPlainObject } from '../../schema/index.js';
import type { PacketRequest } from './request.js';

export type PacketLimits = Pick<
  Limits,
  'packetFiles' | 'packetPagesPerFile' | 'packetPages' | 'packetUploadBytes' | 'packetSignatureFields'
>;

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** Before validation: a body with more files than allowed is not read any further. */
export function checkFileCount(body: unknown, limits: PacketLimits): void {
  if (!isPlainObject(body) || !Array.isArray(body.files)) return;
  if (body.files.length > limits.packetFiles) {
    throw new PayloadTooLargeError(
      `A packet may have at most ${plural(limits.packetFiles, 'file')}; this one has ${body.files.length.toLocaleString('en-US')}`,
      'files',
    );
  }
}

/** The uploads' bytes together, each one counted where it appears (a part placed twice counts twice). */
export function checkUploadBytes(request: PacketRequest, limits: PacketLimits): void {
  let total = 0;
  for (const [i, file] of request.files.entries()) {
    if (file.kind !== 'upload') continue;
    total += file.bytes.byteLength;
    if (total > limits.packetUploadBytes) {
      throw new PayloadTooLargeError(
        `A packet's uploads may hold at most ${plural(limits.packetUploadBytes, 'byte')} together`,
        formatPath(['files', i, 'file']),
      );
    }
  }
}

/** Pages counted file by file as each file's count becomes known (files are built concurrently). */
class PageBudget {
  readonly #limits: PacketLimits;
  readonly #counted = new Set<number>();
  #total = 0;

  constructor(limits: PacketLimits) {
    this.#limits = limits;
  }

  /** Counts file `i`'s pages (a second call for the same file counts nothing); throws when the file or the packet is over its limit. */
  count(i: number, pages: number): void {
    if (this.#counted.has(i)) return;
    this.#counted.add(i);
    const at = formatPath(['files', i]);
    if (pages > this.#limits.packetPagesPerFile) {
      throw new PayloadTooLargeError(
        `A file of a packet may have at most ${plural(this.#limits.packetPagesPerFile, 'page')}; this one has ${pages.toLocaleString('en-US')}`,
        at,
      );
    }
    this.#total += pages;
    if (this.#total > this.#limits.packetPages) {
      throw new PayloadTooLargeError(
        `A packet may have at most ${plural(this.#limits.packetPages, 'page')} in all; it passes that at this file`,
        at,
      );
    }
  }
}

/**
 * Signature and initial fields of each document, counted as they are found: a file's own (the
 * request's list) before it is read, its text tags page by page while it is scanned. With `merged`
 * every file goes into one document and one count.
 */
class SignatureFieldBudget {
  readonly #limit: number;
  readonly #merged: boolean;
  readonly #counts = new Map<number, number>();

  constructor(limits: PacketLimits, merged: boolean) {
    // The kernel writes at most this many in a document: a higher setting would only fail later.
    this.#limit = Math.min(limits.packetSignatureFields, MAX_SIGNATURE_FIELDS);
    this.#merged = merged;
  }

  /** Adds `n` fields of file `i` (found on 0-based page `pageNum`, or its own list); throws once its document is over. */
  count(i: number, n: number, pageNum?: number): void {
    if (n === 0) return;
    const key = this.#merged ? -1 : i;
    const total = (this.#counts.get(key) ?? 0) + n;
    this.#counts.set(key, total);
    if (total <= this.#limit) return;
    const where =
      pageNum === undefined ? 'with its own fields' : `at its page ${(pageNum + 1).toLocaleString('en-US')}`;
    throw new PayloadTooLargeError(
      `A ${this.#merged ? 'merged packet' : 'document of a packet'} may hold at most ${plural(this.#limit, 'signature or initial field')}; this file passes that ${where}`,
      formatPath(['files', i]),
    );
  }
}

/** Signature and initial fields among `fields` (what the kernel writes as /Sig fields). */
export function signatureFieldCount(fields: ReadonlyArray<{ type: string }>): number {
  return fields.reduce((n, f) => n + (f.type === 'signature' || f.type === 'initial' ? 1 : 0), 0);
}

/** One assembly's counts: pages, and signature fields twice (from the pages' text first, then exactly). */
export interface AssemblyBudgets {
  pages: PageBudget;
  signing: SignatureFieldBudget;
  signingText: SignatureFieldBudget;
}

/** The budgets of assembling `request`, each file's own signature fields already counted (a list over the limit costs no page). */
export function assemblyBudgets(limits: PacketLimits, request: PacketRequest): AssemblyBudgets {
  const merged = request.mergePDFs ?? false;
  const budgets = {
    pages: new PageBudget(limits),
    signing: new SignatureFieldBudget(limits, merged),
    signingText: new SignatureFieldBudget(limits, merged),
  };
  request.files.forEach((file, i) => {
    if (file.kind === 'template') return;
    budgets.signing.count(i, signatureFieldCount(file.fields));
    budgets.signingText.count(i, signatureFieldCount(file.fields));
  });
  return budgets;
}

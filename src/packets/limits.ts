/**
 * Bounds of one packet (issue 28): the number of files, pages per file and per
 * packet, and the bytes of its uploads. Assembly costs time and memory in
 * proportion to pages, so a packet past them is refused (413, naming the
 * property) before the work it would cost, or as soon as the count is known.
 */
import { PayloadTooLargeError } from '../errors/index.js';
import type { Limits } from '../services/index.js';
import { formatPath, isPlainObject } from '../schema/index.js';
import type { PacketRequest } from './request.js';

export type PacketLimits = Pick<Limits, 'packetFiles' | 'packetPagesPerFile' | 'packetPages' | 'packetUploadBytes'>;

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
export class PageBudget {
  readonly #limits: PacketLimits;
  #total = 0;

  constructor(limits: PacketLimits) {
    this.#limits = limits;
  }

  /** Counts file `i`'s pages once; throws when the file or the packet is over its limit. */
  count(i: number, pages: number): void {
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

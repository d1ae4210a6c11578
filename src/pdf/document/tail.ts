/** What an incremental update needs to know about the end of a PDF file. */
export interface FileTail {
  /** Offset of the last cross-reference section (the `startxref` value). */
  startXRef: number;
  /** The last section is a cross-reference stream (PDF 1.5+), not a table. */
  xrefStream: boolean;
  /** The trailer's /Size: new objects are numbered from here. */
  size: number;
}

const latin1 = new TextDecoder('latin1');

/**
 * Reads `startxref` and checks it points at a cross-reference section. A file
 * whose offset is wrong (viewers repair those) cannot take an update on top:
 * undefined, and the caller writes a clean copy once instead.
 */
export function readTail(bytes: Uint8Array): FileTail | undefined {
  const tailStart = Math.max(0, bytes.byteLength - 4096);
  const tail = latin1.decode(bytes.subarray(tailStart));
  const at = tail.lastIndexOf('startxref');
  if (at < 0) return undefined;
  const m = /^startxref\s+(\d+)/.exec(tail.slice(at));
  if (!m) return undefined;
  const startXRef = Number(m[1]);
  if (!Number.isSafeInteger(startXRef) || startXRef <= 0 || startXRef >= bytes.byteLength) return undefined;
  const head = latin1.decode(bytes.subarray(startXRef, Math.min(bytes.byteLength, startXRef + 2048)));
  let xrefStream: boolean;
  if (/^\s*xref\b/.test(head)) xrefStream = false;
  else if (/^\s*\d+\s+\d+\s+obj\b/.test(head) && /\/Type\s*\/XRef\b/.test(head)) xrefStream = true;
  else return undefined;
  const section = latin1.decode(bytes.subarray(startXRef, tailStart + at));
  const size = /\/Size\s+(\d+)/.exec(section);
  if (!size) return undefined;
  return { startXRef, xrefStream, size: Number(size[1]) };
}

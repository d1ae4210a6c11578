/**
 * A document group's completed documents as one download: the zip streamed as it is made (each
 * PDF stored as is: already compressed), its name from the packet's. Served to the API caller
 * (`/api/document-group/{eid}.zip`) and to a signer's own download link (src/server/routes/download.ts).
 */
import { Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import { zipEntryNames } from './zip-names.js';

/** `attachment` (the client saves the file); the ASCII name first, as the client's example splits the header on `"`. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The zip of `docs` as a stream, and the file name it is saved under. */
export function documentsZip(
  packetName: string,
  groupEid: string,
  docs: ReadonlyArray<{ filename: string; pdf: Uint8Array }>,
): { stream: Readable; name: string } {
  const out = new Readable({ read() {} });
  const zip = new Zip((err, chunk, final) => {
    if (err) out.destroy(err);
    else {
      out.push(Buffer.from(chunk));
      if (final) out.push(null);
    }
  });
  const names = zipEntryNames(docs.map((d) => d.filename));
  for (const [k, d] of docs.entries()) {
    const entry = new ZipPassThrough(names[k]!);
    zip.add(entry);
    entry.push(d.pdf, true);
  }
  zip.end();
  const base = packetName.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || groupEid;
  return { stream: out, name: `${base}.zip` };
}

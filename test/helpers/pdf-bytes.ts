/**
 * Hand-written PDFs for tests of hostile input: a list of object bodies
 * becomes a file with a correct classic cross-reference table, so each case
 * is broken exactly where it means to be and nowhere else.
 */
import { deflateSync } from 'node:zlib';

const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

export type PdfPart = string | Uint8Array;

/** Object n+1 is `objects[n]` (a body without `obj`/`endobj`). Object 1 is the catalog unless `root` says otherwise. */
export function buildPdf(
  objects: Array<PdfPart | PdfPart[]>,
  options: { root?: number; trailer?: string } = {},
): Uint8Array {
  const chunks: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  const push = (part: PdfPart) => {
    const bytes = typeof part === 'string' ? latin1(part) : part;
    chunks.push(bytes);
    length += bytes.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    for (const part of Array.isArray(body) ? body : [body]) push(part);
    push('\nendobj\n');
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const o of offsets) push(`${String(o).padStart(10, '0')} 00000 n \n`);
  push(
    `trailer\n<< /Size ${objects.length + 1} /Root ${options.root ?? 1} 0 R ${options.trailer ?? ''}>>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return concat(chunks);
}

/** A stream object body: dictionary entries (without Length) and data, deflated when asked. */
export function streamBody(entries: string, data: Uint8Array | string, deflate = false): PdfPart[] {
  const raw = typeof data === 'string' ? latin1(data) : data;
  const bytes = deflate ? new Uint8Array(deflateSync(raw)) : raw;
  return [
    `<< ${entries}${deflate ? ' /Filter /FlateDecode' : ''} /Length ${bytes.length} >>\nstream\n`,
    bytes,
    '\nendstream',
  ];
}

export function concat(chunks: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks));
}

/** A one-page document whose catalog and page carry the given extra entries (objects 1: catalog, 2: pages, 3: page, then `more`). */
export function onePage(catalogExtra: string, pageExtra = '', more: PdfPart[][] = []): Uint8Array {
  return buildPdf([
    [`<< /Type /Catalog /Pages 2 0 R ${catalogExtra} >>`],
    ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${pageExtra} >>`],
    ...more,
  ]);
}

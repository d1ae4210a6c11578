/**
 * The document the tamper corpus starts from, written byte by byte: a one-page contract with a
 * form (a text field "Name" whose /T is UTF-16, a read-only "Date", a read-only empty signature
 * field "Witness" with a visible appearance, as castpress's placeholders are), XMP metadata, an
 * /Info dictionary, and what a shadow attacker prepares before the document is signed (NDSS 2021,
 * "Shadow Attacks"): second bodies of the page content, of the cover and of the page that no
 * cross-reference entry names (placed before the real ones, so a reader in file order sees the
 * real ones too), and a second catalog whose page draws other text.
 *
 * Objects: 1 catalog, 2 pages, 3 page, 4 font, 5 content (the text), 6 content (draws the cover),
 * 7 cover (a white box over the line "Pay to Mallory"), 10 AcroForm, 11 Name, 12 Date, 13 Witness,
 * 14 XMP, 15 hidden content, 16 /Info, 17 second catalog, 18 its pages, 19 its page, 20 Witness's
 * appearance.
 */
import { concat, streamBody, type PdfPart } from './pdf-bytes.js';

const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

const TEXT =
  'BT /F1 16 Tf 72 760 Td (Pay to Alice: 100 EUR) Tj ET BT /F1 16 Tf 72 720 Td (Pay to Mallory: 9000 EUR) Tj ET';
const SHADOW_TEXT = 'BT /F1 16 Tf 72 760 Td (Pay to Mallory: 9000 EUR) Tj ET';
const XMP = (title: string): string =>
  `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

export const XMP_OF = XMP;

/** The bodies, in file order; `listed: false` is a shadow body no cross-reference entry names. */
function bodies(): Array<{ n: number; body: PdfPart[]; listed?: false }> {
  const coverBox = '1 1 1 rg 60 705 480 40 re f';
  return [
    { n: 5, body: streamBody('', SHADOW_TEXT), listed: false },
    { n: 7, body: streamBody('/Type /XObject /Subtype /Form /BBox [0 0 595 842]', ''), listed: false },
    {
      n: 3,
      body: [
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 15 0 R /Resources << /Font << /F1 4 0 R >> >> >>',
      ],
      listed: false,
    },
    { n: 1, body: ['<< /Type /Catalog /Pages 2 0 R /AcroForm 10 0 R /Metadata 14 0 R >>'] },
    { n: 2, body: ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'] },
    {
      n: 3,
      body: [
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents [5 0 R 6 0 R] /Resources << /Font << /F1 4 0 R >> /XObject << /Cover 7 0 R >> >> /Annots [11 0 R 12 0 R 13 0 R] >>',
      ],
    },
    { n: 4, body: ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'] },
    { n: 5, body: streamBody('', TEXT) },
    { n: 6, body: streamBody('', 'q /Cover Do Q') },
    { n: 7, body: streamBody('/Type /XObject /Subtype /Form /BBox [0 0 595 842]', coverBox) },
    { n: 10, body: ['<< /Fields [11 0 R 12 0 R 13 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 4 0 R >> >> >>'] },
    {
      n: 11,
      body: [
        '<< /Type /Annot /Subtype /Widget /FT /Tx /T <FEFF004E0061006D0065> /V (Ada) /DA (/Helv 12 Tf 0 g) /Rect [72 600 272 620] /F 4 /P 3 0 R >>',
      ],
    },
    {
      n: 12,
      body: [
        '<< /Type /Annot /Subtype /Widget /FT /Tx /Ff 1 /T (Date) /V (2026-12-01) /DA (/Helv 12 Tf 0 g) /Rect [72 560 272 580] /F 4 /P 3 0 R >>',
      ],
    },
    {
      n: 13,
      body: [
        '<< /Type /Annot /Subtype /Widget /FT /Sig /Ff 1 /T (Witness) /Rect [72 480 272 520] /F 4 /P 3 0 R /AP << /N 20 0 R >> >>',
      ],
    },
    { n: 14, body: streamBody('/Type /Metadata /Subtype /XML', XMP('Contract')) },
    { n: 15, body: streamBody('', SHADOW_TEXT) },
    { n: 16, body: ['<< /Title (Contract) /Producer (castpress tamper corpus) >>'] },
    { n: 17, body: ['<< /Type /Catalog /Pages 18 0 R >>'] },
    { n: 18, body: ['<< /Type /Pages /Kids [19 0 R] /Count 1 >>'] },
    {
      n: 19,
      body: [
        '<< /Type /Page /Parent 18 0 R /MediaBox [0 0 595 842] /Contents 15 0 R /Resources << /Font << /F1 4 0 R >> >> >>',
      ],
    },
    { n: 20, body: streamBody('/Type /XObject /Subtype /Form /BBox [0 0 200 40]', '0 0 1 RG 2 2 196 36 re S') },
  ];
}

/** The corpus's unsigned document (classic cross-reference table). */
export function tamperBase(): Uint8Array {
  const chunks: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let length = chunks[0]!.length;
  const offsets = new Map<number, number>();
  const push = (p: PdfPart) => {
    const b = typeof p === 'string' ? latin1(p) : p;
    chunks.push(b);
    length += b.length;
  };
  for (const { n, body, listed } of bodies()) {
    if (listed !== false) offsets.set(n, length);
    push(`${n} 0 obj\n`);
    body.forEach(push);
    push('\nendobj\n');
  }
  const size = Math.max(...offsets.keys()) + 1;
  const xref = length;
  let table = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let n = 1; n < size; n++) {
    const at = offsets.get(n);
    table += at === undefined ? '0000000000 00001 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`;
  }
  push(
    `${table}trailer\n<< /Size ${size} /Root 1 0 R /Info 16 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return concat(chunks);
}

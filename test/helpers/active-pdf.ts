/**
 * A PDF carrying the active content an attacker would upload: /OpenAction JavaScript, a page
 * /AA running JavaScript, a link that launches `payload.exe`, `payload.exe` embedded in the document
 * and in a FileAttachment annotation, and an XFA form. One harmless web link (URI) that must stay.
 * Built with @cantoo/pdf-lib's low-level objects, uncompressed so every marker is visible in the bytes.
 */
import { PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';

/** Byte strings found in the file while any of the active content is still in it. */
export const ACTIVE_MARKERS = [
  '/JavaScript',
  'app.alert',
  '/Launch',
  '/EmbeddedFile',
  'payload.exe',
  'MZ-payload',
  '/OpenAction',
  '/AA',
  '/XFA',
  '/FileAttachment',
] as const;

export async function activeContentPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Uploaded contract with hostile content', { x: 72, y: 720, size: 14, font });
  const ctx = doc.context;
  const js = (code: string) => ctx.register(ctx.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of(code) }));

  doc.catalog.set(PDFName.of('OpenAction'), js("app.alert('opened')"));
  page.node.set(PDFName.of('AA'), ctx.obj({ O: js("app.alert('page open')") }));
  const launch = ctx.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [72, 600, 272, 620],
    Border: [0, 0, 0],
    A: ctx.obj({ S: 'Launch', F: PDFString.of('payload.exe') }),
  });
  page.node.addAnnot(ctx.register(launch));
  const web = ctx.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [72, 560, 272, 580],
    Border: [0, 0, 0],
    A: ctx.obj({ S: 'URI', URI: PDFString.of('https://example.com/terms') }),
  });
  page.node.addAnnot(ctx.register(web));

  const exe = new TextEncoder().encode('MZ-payload: pretend this is a Windows program');
  await doc.attach(exe, 'payload.exe', { mimeType: 'application/octet-stream', description: 'payload.exe' });
  const stream = ctx.register(ctx.flateStream(exe, { Type: 'EmbeddedFile' }));
  const spec = ctx.register(
    ctx.obj({
      Type: 'Filespec',
      F: PDFString.of('payload.exe'),
      UF: PDFString.of('payload.exe'),
      EF: ctx.obj({ F: stream }),
    }),
  );
  page.node.addAnnot(
    ctx.register(
      ctx.obj({
        Type: 'Annot',
        Subtype: 'FileAttachment',
        Rect: [300, 600, 320, 620],
        FS: spec,
        Contents: PDFString.of('payload.exe'),
      }),
    ),
  );

  const xfa = ctx.register(
    ctx.stream('<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><script>app.alert(1)</script></xdp:xdp>'),
  );
  doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [], XFA: xfa }));
  return doc.save({ useObjectStreams: false });
}

/** The markers of `ACTIVE_MARKERS` present in `bytes`. */
export function activeMarkersIn(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes).toString('latin1');
  return ACTIVE_MARKERS.filter((m) => text.includes(m));
}

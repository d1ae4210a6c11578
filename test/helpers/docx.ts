/**
 * A tiny DOCX writer for tests: a DOCX is a zip of a few XML parts. Paragraphs
 * are lists of runs, each with optional colour and bold, so tests can write
 * tags split over runs and tags hidden in white text. `extras` adds raw body
 * XML, relationships, settings and other parts, for DOCX files that point outside
 * themselves (`hostileDocx`).
 */
import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { DocxConverter } from '../../src/packets/index.js';

export interface Run {
  text: string;
  color?: string;
  bold?: boolean;
  size?: number;
}

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external?: boolean;
}

export interface DocxExtras {
  /** Raw WordprocessingML appended to the body after the paragraphs. */
  bodyXml?: string;
  /** Relationships of word/document.xml. */
  rels?: Relationship[];
  /** The inside of `<w:settings>` (word/settings.xml) and its relationships. */
  settingsXml?: string;
  settingsRels?: Relationship[];
  /** Other parts, by name, as written. */
  parts?: Record<string, Uint8Array>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"';

function runXml(r: Run): string {
  const props = [
    r.bold ? '<w:b/>' : '',
    r.color ? `<w:color w:val="${r.color}"/>` : '',
    r.size ? `<w:sz w:val="${r.size * 2}"/>` : '',
  ].join('');
  return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${esc(r.text)}</w:t></w:r>`;
}

function relsXml(rels: Relationship[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    rels
      .map(
        (r) =>
          `<Relationship Id="${r.id}" Type="${r.type}" Target="${esc(r.target)}"${r.external ? ' TargetMode="External"' : ''}/>`,
      )
      .join('') +
    '</Relationships>'
  );
}

export function buildDocx(paragraphs: Run[][], extras: DocxExtras = {}): Uint8Array {
  const body = paragraphs.map((p) => `<w:p>${p.map(runXml).join('')}</w:p>`).join('') + (extras.bodyXml ?? '');
  const docRels = [...(extras.rels ?? [])];
  const parts: Record<string, Uint8Array> = {};
  if (extras.settingsXml !== undefined || extras.settingsRels) {
    docRels.push({ id: 'rIdSettings', type: `${REL}/settings`, target: 'settings.xml' });
    parts['word/settings.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings ${NS}>${extras.settingsXml ?? ''}</w:settings>`,
    );
    if (extras.settingsRels) parts['word/_rels/settings.xml.rels'] = strToU8(relsXml(extras.settingsRels));
  }
  if (docRels.length > 0) parts['word/_rels/document.xml.rels'] = strToU8(relsXml(docRels));
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Default Extension="png" ContentType="image/png"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        (parts['word/settings.xml']
          ? '<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>'
          : '') +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${NS}>` +
        `<w:body>${body}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`,
    ),
    ...parts,
    ...extras.parts,
  });
}

/** A 1×1 PNG, for a part that must be an image. */
export const TINY_PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** What `hostileDocx` points outside with; each kind fetches `${base}/<kind>`. */
export const HOSTILE_KINDS = [
  'linked-image',
  'attached-template',
  'ole-link',
  'includepicture',
  'includetext',
  'link-field',
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

/**
 * A DOCX that asks its reader to fetch from `base` (an http URL) in every way Word
 * knows: an image by `r:link`, an attached template, a linked OLE object, and the
 * INCLUDEPICTURE (its instruction split over two runs), INCLUDETEXT (a simple field)
 * and LINK field codes. Each kind's URL ends in its name, so a listener can tell
 * which one reached it. `kinds` picks some.
 */
export function hostileDocx(base: string, kinds: readonly HostileKind[] = HOSTILE_KINDS): Uint8Array {
  const url = (k: HostileKind) => `${base}/${k}`;
  const has = (k: HostileKind) => kinds.includes(k);
  const rels: Relationship[] = [];
  let bodyXml = '';
  const para = (inner: string) => `<w:p>${inner}</w:p>`;
  if (has('linked-image')) {
    rels.push({ id: 'rIdLinked', type: `${REL}/image`, target: url('linked-image'), external: true });
    bodyXml += para(
      '<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Linked"/>' +
        '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="linked.png"/><pic:cNvPicPr/></pic:nvPicPr>' +
        '<pic:blipFill><a:blip r:link="rIdLinked"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>' +
        '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>',
    );
  }
  if (has('ole-link')) {
    rels.push({ id: 'rIdOle', type: `${REL}/oleObject`, target: url('ole-link'), external: true });
    rels.push({ id: 'rIdOlePreview', type: `${REL}/image`, target: 'media/preview.png' });
    bodyXml += para(
      '<w:r><w:object w:dxaOrig="2000" w:dyaOrig="1000"><v:shape id="_x0000_i1025" type="#_x0000_t75" style="width:100pt;height:50pt"><v:imagedata r:id="rIdOlePreview" o:title=""/></v:shape>' +
        '<o:OLEObject Type="Link" ProgID="Word.Document.12" ShapeID="_x0000_i1025" DrawAspect="Content" r:id="rIdOle" UpdateMode="Always"><o:LinkType>EnhancedMetaFile</o:LinkType><o:LockedField>false</o:LockedField></o:OLEObject></w:object></w:r>',
    );
  }
  const complexField = (instr: string[], shown: string) =>
    para(
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r>' +
        instr.map((i) => `<w:r><w:instrText xml:space="preserve">${esc(i)}</w:instrText></w:r>`).join('') +
        `<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${esc(shown)}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`,
    );
  if (has('includepicture'))
    bodyXml += complexField([' INCLUDEPIC', `TURE "${url('includepicture')}" \\d `], 'picture field');
  if (has('includetext'))
    bodyXml += para(
      `<w:fldSimple w:instr=" INCLUDETEXT &quot;${esc(url('includetext'))}&quot; "><w:r><w:t>included text</w:t></w:r></w:fldSimple>`,
    );
  if (has('link-field'))
    bodyXml += complexField([` LINK Word.Document.12 "${url('link-field')}" "" \\a \\f 0 \\p `], 'linked field');
  return buildDocx([[{ text: 'Hostile document {{ signature:::client }}' }]], {
    bodyXml,
    rels,
    ...(has('attached-template')
      ? {
          settingsXml: '<w:attachedTemplate r:id="rIdTemplate"/>',
          settingsRels: [
            { id: 'rIdTemplate', type: `${REL}/attachedTemplate`, target: url('attached-template'), external: true },
          ],
        }
      : {}),
    parts: has('ole-link') ? { 'word/media/preview.png': TINY_PNG } : {},
  });
}

/**
 * A converter that runs LibreOffice once per distinct DOCX (a conversion costs seconds of
 * LibreOffice start-up): for test files that put the same DOCX through several packets and check
 * the packets, not the conversion. Still a DocxConverter, so assemblePacket takes it as its own;
 * a failed conversion is not kept. `conversions` counts the LibreOffice runs.
 */
export class CachedDocxConverter extends DocxConverter {
  readonly #done = new Map<string, Promise<Uint8Array>>();
  conversions = 0;

  override convert(docx: Uint8Array, property = 'file'): Promise<Uint8Array> {
    const key = `${property}\0${createHash('sha256').update(docx).digest('hex')}`;
    let pdf = this.#done.get(key);
    if (!pdf) {
      this.conversions++;
      pdf = super.convert(docx, property);
      this.#done.set(key, pdf);
      pdf.catch(() => this.#done.delete(key));
    }
    // Each caller gets its own copy: a packet may keep or change the bytes it was given.
    return pdf.then((bytes) => bytes.slice());
  }
}

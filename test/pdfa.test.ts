/**
 * PDF/A-2b and PDF/A-3b output (`pdfa` on generate requests), checked clause by clause where a check
 * needs no validator (docs/reference/pdf-a.md lists them): read back with qpdf's JSON, the XMP packet
 * as text and the file's first bytes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { qpdfCheck } from './helpers/pdf.js';
import { pdfDate, qpdfText, readArchive, xmpValue, type ArchiveReading } from './helpers/pdfa.js';
import { checkStructure } from './helpers/tagged.js';

const NOW = new Date('2026-11-22T14:03:00Z');
const engine = createEngine({ now: () => NOW });
afterAll(() => engine.close());

/** Every clause the file must pass, for PDF/A-`part` level B. */
function expectConforming(a: ArchiveReading, part: 2 | 3): void {
  // 6.1.2: a header of version 1.x (x ≤ 7), then a comment of at least four bytes ≥ 128.
  expect(a.header.toString('latin1')).toMatch(/^%PDF-1\.[0-7]\r?\n%[\x80-\xff]{4}/);
  // 6.1.3: a file identifier in the trailer; no encryption.
  expect(a.trailer['/ID']).toHaveLength(2);
  expect(qpdfText(a.trailer['/ID']![0 as never])!.length).toBe(16);
  expect(a.encrypted).toBe(false);
  // 6.2.2 / 6.2.3: one PDF/A output intent whose profile is an RGB display profile (ICC v2–v4).
  expect(a.intents).toHaveLength(1);
  const [intent] = a.intents;
  expect(intent!.dict['/S']).toBe('/GTS_PDFA1');
  expect(qpdfText(intent!.dict['/OutputConditionIdentifier'])).toBe('sRGB IEC61966-2.1');
  expect(intent!.profileDict['/N']).toBe(3);
  expect(intent!.profile.subarray(36, 40).toString('latin1')).toBe('acsp');
  expect(intent!.profile.subarray(12, 20).toString('latin1')).toBe('mntrRGB ');
  expect(intent!.profile[8]).toBeLessThanOrEqual(4);
  expect(intent!.profile.readUInt32BE(0)).toBe(intent!.profile.length);
  // 6.2.11.4.1: every font that draws is embedded.
  expect(a.fonts.length).toBeGreaterThan(0);
  expect(a.fonts.filter((f) => !f.embedded)).toEqual([]);
  // 6.3.2 / 6.3.3: annotations printed, never hidden; appearances hold the normal one only.
  for (const annot of a.annotations) {
    const f = Number(annot['/F'] ?? 0);
    expect(f & 4).toBe(4);
    expect(f & (1 | 2 | 32 | 256)).toBe(0);
    const ap = annot['/AP'];
    if (ap && typeof ap === 'object' && !Array.isArray(ap)) expect(Object.keys(ap)).toEqual(['/N']);
  }
  // 6.4.1 / 6.5.1 / 6.6.1: no JavaScript, Launch or other forbidden action, no additional actions,
  // no appearance regeneration.
  expect(a.actions.filter((s) => !['/URI', '/GoTo'].includes(s))).toEqual([]);
  expect(a.additionalActions).toBe(false);
  expect(a.acroform['/NeedAppearances'] ?? false).toBe(false);
  // 6.8 (part 3): each embedded file an associated file of the document, named by /F and /UF, with its
  // relationship and MIME type; part 2 embeds only PDF/A files, which castpress does not make, so none.
  if (part === 2) expect(a.embeddedFiles).toEqual([]);
  for (const file of a.embeddedFiles) {
    expect(qpdfText(file.spec['/F'])).toBeDefined();
    expect(qpdfText(file.spec['/UF'])).toBe(file.key);
    expect(['/Source', '/Data', '/Alternative', '/Supplement', '/Unspecified']).toContain(file.spec['/AFRelationship']);
    expect(String(file.stream['/Subtype'])).toMatch(/^\/[a-z]+\/[a-z0-9.+-]+$/);
    expect(a.associated).toContain(file.ref);
  }
  // 6.6.2.1: an unfiltered XMP metadata stream; 6.6.4: the PDF/A identification.
  expect(a.metadata).toBeDefined();
  const { dict, xmp } = a.metadata!;
  expect(dict['/Type']).toBe('/Metadata');
  expect(dict['/Subtype']).toBe('/XML');
  expect(dict['/Filter']).toBeUndefined();
  expect(xmp).toMatch(/^<\?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"\?>/);
  expect(xmp).toMatch(/<\?xpacket end="w"\?>$/);
  expect(xmpValue(xmp, 'pdfaid:part')).toBe(String(part));
  expect(xmpValue(xmp, 'pdfaid:conformance')).toBe('B');
  // 6.6.2.3: each document information entry has its equivalent in the XMP, with the same value.
  const pairs: Array<[string, string]> = [
    ['Title', 'dc:title'],
    ['Author', 'dc:creator'],
    ['Subject', 'dc:description'],
    ['Keywords', 'pdf:Keywords'],
    ['Creator', 'xmp:CreatorTool'],
    ['Producer', 'pdf:Producer'],
  ];
  for (const [key, property] of pairs) expect([key, xmpValue(xmp, property)]).toEqual([key, a.info[key]]);
  for (const [key, property] of [
    ['CreationDate', 'xmp:CreateDate'],
    ['ModDate', 'xmp:ModifyDate'],
  ] as const) {
    expect(a.info[key]).toBeDefined();
    expect(new Date(xmpValue(xmp, property)!).getTime()).toBe(pdfDate(a.info[key]!).getTime());
  }
}

describe('PDF/A output', () => {
  it('Markdown as PDF/A-2b: output intent, XMP mirroring the information, embedded fonts, an identifier; same bytes twice', async () => {
    const request = {
      type: 'markdown',
      title: 'Archived <report> & "notes"',
      lang: 'en',
      pdfa: '2b',
      data: [{ heading: 'Report' }, { content: 'Text with [a link](https://example.com/) and **bold** words.' }],
    };
    const pdf = await engine.generate(request);
    await qpdfCheck(pdf);
    const a = await readArchive(pdf);
    expectConforming(a, 2);
    expect(a.info.Title).toBe('Archived <report> & "notes"');
    expect(a.annotations.length).toBe(1);
    expect(Buffer.from(await engine.generate(request)).equals(Buffer.from(pdf))).toBe(true);
    // Still tagged, and the tree still agrees with the pages.
    expect((await checkStructure(pdf)).problems).toEqual([]);
  });

  it('HTML as PDF/A-3b with document metadata, form fields, a link, and margin boxes on the overlay', async () => {
    const html = `<html lang="en"><head><title>Archived form</title><meta name="author" content="Ada Lovelace">
      <meta name="description" content="A form kept for ten years"><meta name="keywords" content="archive, form"></head>
      <body><div class="h">Running head</div><h1>Form</h1><form><label>Name <input name="who" value="Ada"></label>
      <label><input type="checkbox" name="ok" checked> agreed</label></form><p><a href="https://example.com/">terms</a></p></body></html>`;
    const pdf = await engine.generate({
      type: 'html',
      pdfa: '3b',
      data: { html, css: '.h { position: running(h) } @page { @top-center { content: element(h) } }' },
    });
    await qpdfCheck(pdf);
    const a = await readArchive(pdf);
    expectConforming(a, 3);
    expect(a.info).toMatchObject({
      Title: 'Archived form',
      Author: 'Ada Lovelace',
      Subject: 'A form kept for ten years',
    });
    expect(a.annotations.filter((x) => x['/Subtype'] === '/Widget').length).toBeGreaterThanOrEqual(2);
    expect((await checkStructure(pdf)).problems).toEqual([]);
  });

  it('HTML as PDF/A-2b on the one-update path (no extension used)', async () => {
    const pdf = await engine.generate({ type: 'html', pdfa: '2b', data: { html: '<p>Plain</p>', css: '' } });
    expectConforming(await readArchive(pdf), 2);
  });

  it('HTML as PDF/A-3b untagged (tagged: false): level B asks for no structure tree', async () => {
    const html = `<html lang="en"><title>Untagged archive</title><div class="h">Head</div><h1>Invoice</h1>
      <form><input name="who" value="Ada"></form><p><a href="https://example.com/">terms</a></p>`;
    const pdf = await engine.generate({
      type: 'html',
      pdfa: '3b',
      tagged: false,
      data: { html, css: '.h { position: running(h) } @page { @top-center { content: element(h) } }' },
    });
    await qpdfCheck(pdf);
    const a = await readArchive(pdf);
    expectConforming(a, 3);
    expect(a.info.Title).toBe('Untagged archive');
    const check = await checkStructure(pdf);
    expect([check.marked, check.problems]).toEqual([false, ['no StructTreeRoot']]);
  });

  const attaching = `<p><a rel="attachment" download="data.json" href="data:application/json;base64,${Buffer.from('{"total":12}').toString('base64')}">data</a></p>`;

  it('HTML as PDF/A-3b with an attachment: an associated file of the document (ISO 19005-3 §6.8)', async () => {
    const pdf = await engine.generate({ type: 'html', pdfa: '3b', data: { html: attaching, css: '' } });
    await qpdfCheck(pdf);
    const a = await readArchive(pdf);
    expectConforming(a, 3);
    expect(a.embeddedFiles.map((f) => [f.key, f.stream['/Subtype']])).toEqual([['data.json', '/application/json']]);
    expect(a.associated).toHaveLength(1);
  });

  it('refuses an attachment in PDF/A-2b (§6.8 allows only PDF/A files, which castpress does not check)', async () => {
    await expect(
      engine.generate({ type: 'html', pdfa: '2b', data: { html: attaching, css: '' } }),
    ).rejects.toMatchObject({
      name: 'RenderError',
      status: 422,
      message: expect.stringContaining('PDF/A-2b cannot carry attachments'),
    });
  });

  it('claims nothing when not asked: no output intent, no XMP identification', async () => {
    const md = await readArchive(await engine.generate({ type: 'markdown', data: [{ content: 'x' }] }));
    expect(md.intents).toEqual([]);
    expect(md.metadata).toBeUndefined();
  });

  it('refuses a level it does not make', async () => {
    await expect(engine.generate({ type: 'markdown', pdfa: '1b', data: [{ content: 'x' }] })).rejects.toMatchObject({
      name: 'ValidationError',
      fields: [{ property: 'pdfa' }],
    });
  });
});

/**
 * A DOCX upload must not make LibreOffice connect to any host. A loopback listener
 * counts connections while DOCX files that fetch in every way Word knows are converted.
 */
import { createServer, type Server } from 'node:http';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync, constants as zlibConstants } from 'node:zlib';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, MemoryTemplateStore } from '../src/index.js';
import {
  assemblePacket,
  ConversionError,
  convertDocxToPdf,
  DocxConverter,
  findTextTags,
  sanitizeDocx,
} from '../src/packets/index.js';
import { closeServer } from './helpers/close.js';
import { buildDocx, hostileDocx, TINY_PNG } from './helpers/docx.js';
import { expectLinearTime } from './helpers/scaling.js';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const SLOW = 240_000; // one LibreOffice start; minutes on a machine shared by many jobs

let server: Server;
let base: string;
let connections = 0;
const paths: string[] = [];
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'castpress-docx-net-'));
  // Conversions' work folders land in here, so the test can tell its own processes from anyone else's.
  process.env.TMPDIR = scratch;
  server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.end('fetched');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await closeServer(server);
  await rm(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  connections = 0;
  paths.length = 0;
});

/** Processes whose command line names this test's scratch folder (or `marker`). */
async function leftovers(marker?: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
    const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').then(
      (s) => s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3),
      () => 'X',
    );
    if (state !== 'Z' && state !== 'X' && (cmd.includes(scratch) || (marker !== undefined && cmd.includes(marker))))
      found.push(cmd.replace(/\0/g, ' '));
  }
  return found;
}

const entries = (docx: Uint8Array) =>
  Object.fromEntries(Object.entries(unzipSync(docx)).map(([k, v]) => [k, strFromU8(v)]));
const isPdf = (b: Uint8Array) => Buffer.from(b.subarray(0, 5)).toString() === '%PDF-';

describe('DOCX conversion reaches no host', () => {
  it(
    'linked image, attached template, OLE link, INCLUDEPICTURE, INCLUDETEXT, LINK: 0 connections, and the PDF is made',
    { timeout: SLOW },
    async () => {
      const pdf = await convertDocxToPdf(hostileDocx(base), { property: 'files[0].file', timeoutMs: SLOW });
      expect({ connections, paths }).toEqual({ connections: 0, paths: [] });
      expect(isPdf(pdf)).toBe(true);
      expect((await findTextTags(pdf, { fileId: 'a', property: 'files[0]' })).map((t) => t.type)).toEqual([
        'signature',
      ]);
    },
  );

  it('control: unsanitized and unsandboxed, the same file does reach the listener', { timeout: SLOW }, async () => {
    await convertDocxToPdf(hostileDocx(base), { sandbox: 'none', sanitize: false, timeoutMs: SLOW });
    expect(connections).toBeGreaterThan(0);
    expect(paths).toContain('/linked-image');
  });

  it('the sandbox alone holds: unsanitized, 0 connections', { timeout: SLOW }, async () => {
    const pdf = await convertDocxToPdf(hostileDocx(base), { sanitize: false, timeoutMs: SLOW });
    expect(connections).toBe(0);
    expect(isPdf(pdf)).toBe(true);
  });

  it(
    'through assemblePacket, a hostile DOCX upload reaches nothing and becomes the packet file',
    { timeout: SLOW },
    async () => {
      const engine = createEngine({ templates: new MemoryTemplateStore() });
      const converter = new DocxConverter({ maxConcurrent: 1, timeoutMs: SLOW });
      try {
        const packet = await assemblePacket(
          engine,
          {
            name: 'Hostile annex',
            files: [
              {
                id: 'annex',
                file: { data: Buffer.from(hostileDocx(base)).toString('base64'), filename: 'annex.docx' },
                fields: [],
              },
            ],
            signers: [{ id: 'client', name: 'Ada Lovelace', email: 'ada@example.com' }],
          },
          { docx: converter },
        );
        expect(packet.files.map((f) => f.id)).toEqual(['annex']);
        expect(connections).toBe(0);
      } finally {
        converter.close();
        await engine.close();
      }
    },
  );
});

describe('the sanitizer', () => {
  it('removes every external relationship and fetching field, and keeps the rest of the file', async () => {
    const { docx, report } = await sanitizeDocx(hostileDocx(base));
    expect(report.relationships.map((r) => r.split(' ')[0])).toEqual([
      'word/_rels/settings.xml.rels#rIdTemplate',
      'word/_rels/document.xml.rels#rIdLinked',
      'word/_rels/document.xml.rels#rIdOle',
    ]);
    expect(report.fields).toEqual([
      'word/document.xml: INCLUDEPICTURE',
      'word/document.xml: INCLUDETEXT',
      'word/document.xml: LINK',
    ]);
    const out = entries(docx);
    const all = Object.values(out).join('\n');
    expect(all).not.toContain(base);
    expect(all).not.toMatch(/External/);
    // The internal picture, the text, each field's shown result and the untouched parts stay.
    expect(unzipSync(docx)['word/media/preview.png']).toEqual(TINY_PNG);
    expect(out['word/_rels/document.xml.rels']).toContain('Target="media/preview.png"');
    for (const shown of ['Hostile document {{ signature:::client }}', 'picture field', 'included text', 'linked field'])
      expect(out['word/document.xml']).toContain(shown);
    expect(out['_rels/.rels']).toBe(entries(hostileDocx(base))['_rels/.rels']);
  });

  it('sees through disguises: entity-spelled attributes, other prefixes, a hyperlink used as an image, lower case, computed names, UTF-16', async () => {
    const url = `${base}/x`;
    const docx = buildDocx([[{ text: 'body' }]], {
      rels: [
        { id: 'rIdLink', type: `${REL}/hyperlink`, target: `${base}/clicked`, external: true },
        { id: 'rIdHyperImage', type: `${REL}/hyperlink`, target: `${base}/hyper-image`, external: true },
        { id: 'rIdNoMode', type: `${REL}/image`, target: `${base}/no-mode` },
      ],
      bodyXml:
        '<w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>a link</w:t></w:r></w:hyperlink></w:p>' +
        '<w:p><w:r><w:drawing><a:blip r:link="rIdHyper&#73;mage"/></w:drawing></w:r></w:p>' +
        '<w:p><w:r><w:drawing><a:blip r:embed="rIdNoMode"/></w:drawing></w:r></w:p>' +
        `<w:p xmlns:x="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><x:fldSimple x:instr=" include&#x50;icture &quot;${url}&quot; "><x:r><x:t>a</x:t></x:r></x:fldSimple></w:p>` +
        // The name built by a nested field; a fake `end` inside a comment does not close the field.
        '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>QUOTE "INCLUDETEXT"</w:instrText></w:r>' +
        `<w:r><w:fldChar w:fldCharType="end"/></w:r><!-- <w:fldChar w:fldCharType="end"/> --><w:r><w:instrText> "${url}"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>` +
        '<w:p><w:r><w:instrText><![CDATA[ INCLUDETEXT "x" ]]></w:instrText></w:r></w:p>',
      settingsXml:
        '<w:mailMerge><w:mainDocumentType w:val="formLetters"/><w:connectString w:val="Provider=x"/></w:mailMerge>',
    });
    // TargetMode spelled with a character reference.
    const files = unzipSync(docx);
    files['word/_rels/document.xml.rels'] = strToU8(
      strFromU8(files['word/_rels/document.xml.rels']!).replace(
        '</Relationships>',
        `<Relationship Id="rIdSpelled" Type="${REL}/attachedTemplate" Target="${base}/spelled" TargetMode="Ext&#101;rnal"/></Relationships>`,
      ),
    );
    // A UTF-16 header part with INCLUDETEXT.
    const header = `<?xml version="1.0" encoding="UTF-16"?><w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p><w:fldSimple w:instr="INCLUDETEXT &quot;${url}&quot;"/></w:p></w:hdr>`;
    files['word/header1.xml'] = new Uint8Array(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(header, 'utf16le')]),
    );
    const { docx: clean, report } = await sanitizeDocx(zipSync(files));
    expect(report.relationships.map((r) => r.split(' ')[0]).sort()).toEqual([
      'word/_rels/document.xml.rels#rIdHyperImage',
      'word/_rels/document.xml.rels#rIdNoMode',
      'word/_rels/document.xml.rels#rIdSpelled',
    ]);
    expect(report.fields.sort()).toEqual([
      'word/document.xml: ?',
      'word/document.xml: INCLUDEPICTURE',
      'word/document.xml: INCLUDETEXT',
      'word/header1.xml: INCLUDETEXT',
    ]);
    expect(report.mailMerge).toEqual(['word/settings.xml']);
    const out = entries(clean);
    // The plain hyperlink stays a hyperlink.
    expect(out['word/_rels/document.xml.rels']).toContain(`${base}/clicked`);
    expect(out['word/header1.xml']).toContain('encoding="UTF-8"');
    expect(Object.values(out).join('\n').replace(`${base}/clicked`, '')).not.toContain(base);
  });

  it('refuses a DOCTYPE (entities could hide elements) and encodings it cannot read, with 422 on the property', async () => {
    const withDoctype = unzipSync(buildDocx([[{ text: 'x' }]]));
    withDoctype['word/document.xml'] = strToU8(
      strFromU8(withDoctype['word/document.xml']!).replace('<w:document', '<!DOCTYPE d [<!ENTITY e "x">]><w:document'),
    );
    await expect(sanitizeDocx(zipSync(withDoctype), { property: 'files[2].file' })).rejects.toMatchObject({
      name: 'ConversionError',
      status: 422,
      fields: [{ property: 'files[2].file' }],
    });
    const ebcdic = unzipSync(buildDocx([[{ text: 'x' }]]));
    ebcdic['word/document.xml'] = strToU8('<?xml version="1.0" encoding="IBM037"?><w:document/>');
    await expect(sanitizeDocx(zipSync(ebcdic))).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('IBM037'),
    });
  });

  it('a zip bomb is a 413 after bounded work, even when its sizes lie; too many entries too', async () => {
    // 1 GiB of zeros from ~1 MB: sync-flushed blocks repeat, then one final empty block.
    const block = deflateRawSync(Buffer.alloc(16 << 20), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const stream = Buffer.concat([...Array<Buffer>(64).fill(block), deflateRawSync(Buffer.alloc(0))]);
    const docx = Buffer.from(
      zipSync({
        'word/document.xml': strToU8('<w:document/>'),
        'word/media/bomb.bin': [new Uint8Array(1), { level: 0 }],
      }),
    );
    // Put the bomb in place of the one-byte stored entry and make its directory entry claim one byte.
    const bomb = rebuildWithEntry(docx, 'word/media/bomb.bin', stream);
    const before = process.memoryUsage().rss;
    const err = await sanitizeDocx(bomb, { property: 'files[0].file' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConversionError);
    expect(err).toMatchObject({ status: 413, fields: [{ property: 'files[0].file' }] });
    // The cap (200 MiB) bounds what was held, far below the bomb's 1 GiB.
    expect(process.memoryUsage().rss - before).toBeLessThan(600 << 20);

    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 2_001; i++) many[`word/media/p${i}.bin`] = new Uint8Array(0);
    await expect(sanitizeDocx(zipSync(many))).rejects.toMatchObject({
      status: 413,
      message: expect.stringContaining('2001 zip entries'),
    });
    await expect(
      sanitizeDocx(buildDocx([[{ text: 'x'.repeat(5_000) }]]), { maxInflatedBytes: 1_000 }),
    ).rejects.toMatchObject({ status: 413 });
  });

  it('scans broken markup in time linear in its size (unclosed tags, comments, CDATA, attribute runs)', async () => {
    const doc = (n: number) => {
      const files = unzipSync(buildDocx([[{ text: 'x' }]]));
      const junk = (unit: string) => unit.repeat(Math.ceil(n / unit.length / 5));
      files['word/document.xml'] = strToU8(
        `<w:document>${junk('<w:fldChar ')}${junk('<w:instrText><![CDATA[')}${junk('<!--')}<w:fldSimple ${'a'.repeat(n / 5)}`,
      );
      files['word/_rels/document.xml.rels'] = strToU8(`<Relationships>${junk('<Relationship Id="x" ')}`);
      return zipSync(files);
    };
    // 8x the bytes cost under 22.6x of this process's CPU (quadratic: 64x); runs interleaved, cheapest kept.
    await expectLinearTime('DOCX sanitizer', async (n) => sanitizeDocx(doc(n)), 512 << 10, 4 << 20);
  });
});

describe('limits of the conversion process', () => {
  it('over its memory limit: a typed error naming the limit, no process left', { timeout: SLOW }, async () => {
    // 150 MiB of address space cannot even map LibreOffice's libraries, whatever fonts the machine has;
    // 300 MiB was on the edge (its start-up render test aborted here, and passed with CI's smaller font set).
    const err = await convertDocxToPdf(buildDocx([[{ text: 'small' }]]), {
      memoryLimitMb: 150,
      timeoutMs: SLOW,
      property: 'files[1].file',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConversionError);
    expect(err).toMatchObject({
      status: 422,
      message: expect.stringContaining('memory limit of 150 MiB'),
      fields: [{ property: 'files[1].file' }],
    });
    expect(await leftovers()).toEqual([]);
  });

  it('past its deadline inside the sandbox: 503, and nothing of it keeps running', { timeout: SLOW }, async () => {
    const hang = path.join(scratch, 'hang-soffice');
    // The work folder lies inside the stand-in's folder (TMPDIR is scratch): both must be visible in the sandbox.
    await writeFile(hang, '#!/bin/sh\nsleep 317.25 &\nsleep 317.25\n');
    await chmod(hang, 0o755);
    const err = await convertDocxToPdf(buildDocx([[{ text: 'x' }]]), { soffice: hang, timeoutMs: 1_500 }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      name: 'ConversionError',
      status: 503,
      message: expect.stringContaining('did not finish within 1500 ms'),
    });
    // The kernel ends the PID namespace when its init dies; give it a moment.
    for (let i = 0; i < 50 && (await leftovers('317.25')).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await leftovers('317.25')).toEqual([]);
  });

  it('no bubblewrap, or one that cannot make its namespaces: 503, never a conversion with network', async () => {
    const missing = await convertDocxToPdf(buildDocx([[{ text: 'x' }]]), {
      bwrap: path.join(scratch, 'no-bwrap'),
    }).catch((e: unknown) => e);
    expect(missing).toMatchObject({
      name: 'ConversionError',
      status: 503,
      message: expect.stringContaining('bubblewrap'),
    });
    const failing = path.join(scratch, 'failing-bwrap');
    await writeFile(failing, '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n');
    await chmod(failing, 0o755);
    const refused = await convertDocxToPdf(buildDocx([[{ text: 'x' }]]), { bwrap: failing }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      name: 'ConversionError',
      status: 503,
      message: expect.stringContaining('No permissions to creating new namespace'),
    });
  });
});

/** The zip with `name`'s data replaced by a raw deflate `stream`, its sizes left claiming the old (tiny) entry. */
function rebuildWithEntry(zip: Buffer, name: string, stream: Buffer): Uint8Array {
  const nameBytes = Buffer.from(name);
  const local = zip.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]), 0);
  let at = local;
  // Find the local header of `name`.
  while (at >= 0 && !zip.subarray(at + 30, at + 30 + nameBytes.length).equals(nameBytes))
    at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), at + 4);
  const dataStart = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const oldSize = zip.readUInt32LE(at + 18);
  const out = Buffer.concat([zip.subarray(0, dataStart), stream, zip.subarray(dataStart + oldSize)]);
  const grow = stream.length - oldSize;
  out.writeUInt16LE(8, at + 8); // method: deflate
  out.writeUInt32LE(stream.length, at + 18);
  // Central directory: method and compressed size of the entry, and the directory's offset.
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const dirOffset = out.readUInt32LE(eocd + 16) + grow;
  out.writeUInt32LE(dirOffset, eocd + 16);
  let c = dirOffset;
  for (let i = 0; i < out.readUInt16LE(eocd + 10); i++) {
    const n = out.readUInt16LE(c + 28);
    const local = out.readUInt32LE(c + 42);
    if (out.subarray(c + 46, c + 46 + n).equals(nameBytes)) {
      out.writeUInt16LE(8, c + 10);
      out.writeUInt32LE(stream.length, c + 20);
    } else if (local > at) out.writeUInt32LE(local + grow, c + 42);
    c += 46 + n + out.readUInt16LE(c + 30) + out.readUInt16LE(c + 32);
  }
  return new Uint8Array(out);
}

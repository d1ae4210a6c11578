import { mkdtemp, rm, writeFile, chmod, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionError, convertDocxToPdf, DocxConverter, findTextTags, sniffUpload } from '../src/packets/index.js';
import { buildDocx } from './helpers/docx.js';
import { boxDistance, runBoxes, union } from './helpers/tag-boxes.js';

const tagged = buildDocx([
  [{ text: 'Services agreement between the parties named below.' }],
  [{ text: '{{ signature:::client }}' }],
  // Split over three runs (plain, bold, plain): one tag.
  [{ text: '{{ initial' }, { text: ' : Initials', bold: true }, { text: ' :: client }}' }],
  // White: hidden from the reader, found all the same.
  [{ text: '{{ signatureDate :: signedOn }}', color: 'FFFFFF' }],
  [{ text: 'Thank you.' }],
]);

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'castpress-docx-test-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('DOCX uploads', () => {
  it('tells a DOCX from a PDF by its bytes', () => {
    expect(sniffUpload(tagged)).toBe('docx');
    expect(sniffUpload(new TextEncoder().encode('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffUpload(new TextEncoder().encode('hello'))).toBe('unknown');
  });

  it(
    'converts with LibreOffice (two at once) and finds the tags, the white one too, on their boxes',
    { timeout: 300_000 },
    async () => {
      const other = buildDocx([[{ text: 'Second document {{ email ::: client }}' }]]);
      const [pdf, pdf2] = await Promise.all([convertDocxToPdf(tagged), convertDocxToPdf(other)]);
      expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
      expect((await findTextTags(pdf2, { fileId: 'b', property: 'files[1]' })).map((t) => t.type)).toEqual(['email']);

      const tags = await findTextTags(pdf, { fileId: 'a', property: 'files[0]' });
      expect(tags.map((t) => [t.pageNum, t.type, t.label, t.alias, t.signerId])).toEqual([
        [0, 'signature', undefined, undefined, 'client'],
        [0, 'initial', 'Initials', undefined, 'client'],
        [0, 'signatureDate', undefined, 'signedOn', undefined],
      ]);
      const runs = await runBoxes(pdf);
      for (const tag of tags) {
        // Each tag is alone on its line: the runs on that line are the tag.
        const line = runs.filter((r) => Math.abs(r.y + r.height / 2 - (tag.rect.y + tag.rect.height / 2)) < 3);
        expect(
          line
            .map((r) => r.str)
            .join('')
            .replace(/\s+/g, ''),
        ).toBe(tag.text.replace(/\s+/g, ''));
        expect(boxDistance(tag.rect, union(line))).toBeLessThanOrEqual(1);
      }
      // 1 inch margins: the tags start at the left margin.
      expect(tags[0]!.rect.x).toBeCloseTo(72, 0);
    },
  );

  it('a missing converter is a typed error that says what to install', async () => {
    const err = await convertDocxToPdf(tagged, {
      soffice: path.join(scratch, 'no-such-soffice'),
      property: 'files[3].file',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConversionError);
    expect((err as ConversionError).status).toBe(503);
    expect((err as ConversionError).message).toContain('libreoffice-writer-nogui');
    expect((err as ConversionError).fields[0]!.property).toBe('files[3].file');
  });

  it('a converter that hangs is stopped at the deadline, its whole process group killed', async () => {
    const pidFile = path.join(scratch, 'child.pid');
    const fake = path.join(scratch, 'hanging-soffice');
    // The hang is in a grandchild, as with soffice → soffice.bin.
    // It never ends by itself (an hour): only the deadline ends it.
    await writeFile(fake, `#!/bin/sh\nsleep 3600 &\necho $! > ${pidFile}\nwait\n`);
    await chmod(fake, 0o755);
    // Unsandboxed, so the stand-in can write its pid where the test reads it (the sandboxed deadline: packets-docx-network).
    const err = await convertDocxToPdf(tagged, { soffice: fake, timeoutMs: 800, sandbox: 'none' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'ConversionError', status: 503, message: expect.stringContaining('800 ms') });
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    await new Promise((r) => setTimeout(r, 200));
    // Gone, or a zombie waiting for a reaper (containers' init may never reap it): not running either way.
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').then(
      (s) => s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3),
      () => 'gone',
    );
    expect(['gone', 'Z', 'X']).toContain(state);
  });

  it('a file LibreOffice cannot read is a 422', async () => {
    const broken = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new TextEncoder().encode('word/ garbage')]);
    await expect(convertDocxToPdf(broken)).rejects.toMatchObject({ name: 'ConversionError', status: 422 });
  });

  it('DocxConverter bounds how many conversions run at once, and close() ends running and queued ones', async () => {
    const log = path.join(scratch, 'overlap.log');
    const fake = path.join(scratch, 'slow-soffice');
    // Stands in for soffice: logs start and end, writes a PDF where --outdir says.
    await writeFile(
      fake,
      `#!/bin/sh\nout=""; prev=""\nfor a in "$@"; do [ "$prev" = "--outdir" ] && out="$a"; prev="$a"; done\necho "+" >> ${log}\nsleep 0.3\nprintf '%%PDF-1.4 fake' > "$out/input.pdf"\necho "-" >> ${log}\n`,
    );
    await chmod(fake, 0o755);
    const converter = new DocxConverter({ soffice: fake, maxConcurrent: 2, sandbox: 'none' });
    const results = await Promise.all(Array.from({ length: 5 }, () => converter.convert(tagged)));
    expect(results.map((r) => Buffer.from(r).toString())).toEqual(Array(5).fill('%PDF-1.4 fake'));
    let now = 0;
    let peak = 0;
    for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
      now += line === '+' ? 1 : -1;
      peak = Math.max(peak, now);
    }
    expect(peak).toBe(2);
    expect(converter.load).toEqual({ running: 0, waiting: 0 });

    const hang = path.join(scratch, 'hang-soffice');
    await writeFile(hang, '#!/bin/sh\nsleep 30\n');
    await chmod(hang, 0o755);
    const stuck = new DocxConverter({ soffice: hang, maxConcurrent: 1 });
    const pending = [stuck.convert(tagged, 'files[0].file'), stuck.convert(tagged, 'files[1].file')].map((p) =>
      p.catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(stuck.load).toEqual({ running: 1, waiting: 1 });
    stuck.close();
    const errors = (await Promise.all(pending)) as ConversionError[];
    expect(errors.map((e) => [e.name, e.status, e.fields[0]!.property])).toEqual([
      ['ConversionError', 503, 'files[0].file'],
      ['ConversionError', 503, 'files[1].file'],
    ]);
    await expect(stuck.convert(tagged)).rejects.toMatchObject({ status: 503 });
  });
});

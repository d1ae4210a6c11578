/**
 * A key of `data` that names no field fills nothing, as the hosted API does, but it is never
 * silent: a warning naming the key (and the nearest field id or alias), from the engine
 * (`RenderedPdf.warnings`), the CLI (a stderr line, exit 0) and the server (`X-Castpress-Warning`);
 * under `strict` (the request's `strict: true`, the CLI's `--strict`) a 400 ValidationError on
 * `data.<key>`. Keys inside a value (a fullName's parts) are the value's, not data keys.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, ValidationError, type TemplateInput } from '../src/index.js';
import { runCastpress } from './helpers/cli.js';
import { pageText } from './helpers/pdf.js';
import { EID, PROD_KEY, basic, startTestServer, writeTemplates, type TestServer } from './server-setup.js';
import { startServe } from './helpers/serve.js';

let dir: string;
let template: TemplateInput;
const engine = createEngine();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-keys-'));
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const pdf = await doc.save();
  const fields = [
    { id: 'name', type: 'shortText', pageNum: 0, rect: { x: 50, y: 100, width: 300, height: 20 } },
    { id: 'ownerField', alias: 'owner', type: 'fullName', pageNum: 0, rect: { x: 50, y: 140, width: 300, height: 20 } },
  ];
  template = { eid: 'keys', pdf, fields } as TemplateInput;
  await writeFile(path.join(dir, 'form.pdf'), pdf);
  await writeFile(path.join(dir, 'form.json'), JSON.stringify({ eid: 'keys', pdf: 'form.pdf', fields }));
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('data keys that name no field', () => {
  it('the engine fills the rest and warns, naming the key and the nearest field', async () => {
    const out = await engine.fillDocument(template, {
      data: { nmae: 'Ada', owner: { firstName: 'Grace', lastName: 'Hopper' }, ownerField: null, zzzzzz: 1 },
    });
    expect(out.warnings).toEqual([
      { property: 'data.nmae', message: 'no field has the id or alias "nmae" (did you mean "name"?)' },
      { property: 'data.zzzzzz', message: 'no field has the id or alias "zzzzzz"' },
    ]);
    const text = (await pageText(out.pdf))[0];
    expect(text).toContain('Grace');
    expect(text).not.toContain('Ada');

    const known = await engine.fillDocument(template, {
      data: [{ name: 'Ada' }, { owner: 'Grace Hopper', Name: 'x' }],
    });
    expect(known.warnings).toEqual([
      { property: 'data[1].Name', message: 'no field has the id or alias "Name" (did you mean "name"?)' },
    ]);
  });

  it('strict: a 400 ValidationError on each unknown key, with the value errors of the same request', async () => {
    const e = await engine.fill(template, { strict: true, data: { nmae: 'Ada', owner: 5 } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    const fields = (e as ValidationError).fields;
    expect(fields).toContainEqual({
      property: 'data.nmae',
      message: 'no field has the id or alias "nmae" (did you mean "name"?)',
    });
    expect(fields.map((f) => f.property)).toContain('data.owner');
    const call = await engine.fill(template, { data: { nmae: 'Ada' } }, { strict: true }).catch((x: unknown) => x);
    expect((call as ValidationError).fields).toEqual([
      { property: 'data.nmae', message: 'no field has the id or alias "nmae" (did you mean "name"?)' },
    ]);
    // Known keys only: strict changes nothing.
    expect((await engine.fillDocument(template, { strict: true, data: { name: 'Ada' } })).warnings).toEqual([]);
  });

  it('CLI: a warning line on stderr and the PDF; --strict: exit 2, the 400 body, no PDF', async () => {
    await writeFile(path.join(dir, 'data.json'), JSON.stringify({ data: { nmae: 'Ada' } }));
    const r = await runCastpress(['fill', 'form.json', 'data.json', '-o', 'out.pdf'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: data.nmae: no field has the id or alias "nmae" (did you mean "name"?)');
    expect((await readFile(path.join(dir, 'out.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');

    const strict = await runCastpress(['fill', 'form.json', 'data.json', '--strict', '-o', 'strict.pdf'], dir);
    expect(strict.code).toBe(2);
    expect(JSON.parse(strict.stderr)).toMatchObject({
      status: 400,
      name: 'ValidationError',
      fields: [{ property: 'data.nmae', message: expect.stringContaining('did you mean "name"') }],
    });
    expect(existsSync(path.join(dir, 'strict.pdf'))).toBe(false);
  });

  describe('server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(async () => {
      await server.close();
    });
    const post = (body: unknown) =>
      fetch(`${server.base}/api/v1/fill/${EID}.pdf`, {
        method: 'POST',
        headers: { authorization: basic(PROD_KEY), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('answers the PDF with an X-Castpress-Warning header per unknown key; strict: true is a 400 on it', async () => {
      const res = await post({ data: { nmae: 'Ada', photo: null } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-castpress-warning')).toBe(
        'data.nmae: no field has the id or alias "nmae" (did you mean "name"?)',
      );
      const known = await post({ data: { name: 'Ada' } });
      expect(known.status).toBe(200);
      expect(known.headers.get('x-castpress-warning')).toBeNull();

      const strict = await post({ strict: true, data: { nmae: 'Ada' } });
      expect(strict.status).toBe(400);
      expect(await strict.json()).toMatchObject({
        name: 'ValidationError',
        fields: [{ property: 'data.nmae', message: expect.stringContaining('did you mean "name"') }],
      });
    });
  });

  it('castpress serve (fills on its render threads): the same header', async () => {
    const templates = path.join(dir, 'templates');
    await writeTemplates(templates);
    const serve = startServe([
      '--no-auth',
      '--port',
      '0',
      '--templates',
      templates,
      '--data',
      path.join(dir, 'data'),
      '--log-level',
      'silent',
    ]);
    try {
      const url = await serve.url;
      const res = await fetch(`${url}/api/v1/fill/${EID}.pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name: 'Ada', phot: null } }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-castpress-warning')).toBe(
        'data.phot: no field has the id or alias "phot" (did you mean "photo"?)',
      );
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});

import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { DirectoryTemplateStore, MemoryTemplateStore, parseTemplate } from '../src/template/index.js';
import { NotFoundError, ValidationError } from '../src/errors/index.js';

let pdf: Uint8Array;
let dir: string;

beforeAll(async () => {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  pdf = await doc.save();
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-store-'));
  await mkdir(path.join(dir, 'cast1'));
  await writeFile(path.join(dir, 'cast1', 'template.pdf'), pdf);
  const field = (id: string) => ({ id, type: 'shortText', pageNum: 0, rect: { x: 10, y: 10, width: 100, height: 20 } });
  await writeFile(path.join(dir, 'cast1', 'v1.json'), JSON.stringify({ title: 'one', fields: [field('a')] }));
  await writeFile(
    path.join(dir, 'cast1', 'v2.json'),
    JSON.stringify({ title: 'two', fields: [field('a'), field('b')] }),
  );
  await writeFile(path.join(dir, 'cast1', 'working.json'), JSON.stringify({ title: 'draft', fields: [] }));
  await mkdir(path.join(dir, 'broken'));
  await writeFile(path.join(dir, 'broken', 'template.pdf'), pdf);
  await writeFile(
    path.join(dir, 'broken', 'v1.json'),
    JSON.stringify({ fields: [{ id: 'a', type: 'nope', pageNum: 0, rect: { x: 0, y: 0, width: 0, height: 1 } }] }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DirectoryTemplateStore', () => {
  it('serves the latest published version by default, a given version, and the working version for -1', async () => {
    const store = new DirectoryTemplateStore(dir);
    expect((await store.get('cast1')).title).toBe('two');
    expect((await store.get('cast1', -2)).title).toBe('two');
    expect((await store.get('cast1', 1)).title).toBe('one');
    expect((await store.get('cast1', 1)).versionNumber).toBe(1);
    expect((await store.get('cast1', -1)).title).toBe('draft');
    expect((await store.get('cast1')).pdf).toEqual(pdf);
  });

  it('parses a version once and reuses it', async () => {
    const store = new DirectoryTemplateStore(dir);
    expect(await store.get('cast1', 2)).toBe(await store.get('cast1', 2));
  });

  it('unknown EIDs, versions and path tricks are 404s', async () => {
    const store = new DirectoryTemplateStore(dir);
    for (const [eid, v] of [
      ['nope', undefined],
      ['cast1', 7],
      ['../cast1', undefined],
      ['cast1/..', undefined],
    ] as const) {
      const e = await store.get(eid, v).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(NotFoundError);
      expect((e as NotFoundError).status).toBe(404);
    }
  });

  it('a malformed template is a ValidationError naming the property', async () => {
    const e = await new DirectoryTemplateStore(dir).get('broken').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    const props = (e as ValidationError).fields.map((f) => f.property);
    expect(props).toContain('template.fields[0].type');
    expect(props).toContain('template.fields[0].rect.width');
  });
});

describe('MemoryTemplateStore and parseTemplate', () => {
  it('numbers published versions and falls back to the latest for -1 without a working version', async () => {
    const store = new MemoryTemplateStore();
    store.publish({ eid: 'x', title: 'a', pdf, fields: [] });
    store.publish({ eid: 'x', title: 'b', pdf, fields: [] });
    expect((await store.get('x')).versionNumber).toBe(2);
    expect((await store.get('x', -1)).title).toBe('b');
    store.setWorking({ eid: 'x', title: 'w', pdf, fields: [] });
    expect((await store.get('x', -1)).title).toBe('w');
    await expect(store.get('y')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('rejects duplicate ids and missing PDFs with paths', () => {
    const f = { id: 'a', type: 'checkbox', pageNum: 0, rect: { x: 0, y: 0, width: 5, height: 5 } };
    const props = (input: unknown) => {
      try {
        parseTemplate(input);
      } catch (e) {
        return (e as ValidationError).fields.map((x) => x.property);
      }
      return [];
    };
    expect(props({ eid: 'x', pdf, fields: [f, f] })).toEqual(['template.fields[1].id']);
    expect(props({ eid: 'x', pdf: new Uint8Array(), fields: [f] })).toEqual(['template.pdf']);
  });
});

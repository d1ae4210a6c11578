/**
 * The dashboard's JSON API over the template store (DASHBOARD-API.md "Templates"), route by route,
 * on the server's SQLite database: uploads (PDF, fillable PDF with detection, DOCX through
 * LibreOffice, refusals), the working version's validation (typed 400s with property paths),
 * publishing and versions, the diff, rename / duplicate / delete, search, preview (read back from
 * the PDF), export and import, and another organization's key seeing none of it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { buildApp } from '../src/server/index.js';
import { LazyPacketStore } from '../src/server/graphql/index.js';
import { openSqliteStore } from '../src/packets/index.js';
import { DashboardClient, fillablePdf, labelledPdf, textField } from './helpers/dashboard.js';
import { buildDocx } from './helpers/docx.js';
import { itemsInRect, joinItems, pageText, readText } from './helpers/pdf.js';

const ACME = 'prod-acme-key-0123456789';
const ACME_DEV = 'dev-acme-key-0123456789';
const GLOBEX = 'prod-globex-key-0123456789';
const MULTIPART_BYTES = 3 * 1024 * 1024;

let app: FastifyInstance;
let base: string;
let dir: string;
let clock = Date.UTC(2026, 2, 2, 8);
let acme: DashboardClient;
let globex: DashboardClient;

interface Detail {
  eid: string;
  name: string;
  pages: Array<{ width: number; height: number }>;
  working: { title?: string; fields: Array<Record<string, unknown>> };
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  versions: Array<{ versionNumber: number; publishedAt: string; publishedBy: string }>;
  updatedAt: string;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-dash-templates-'));
  app = await buildApp({
    engine: createEngine({}),
    closeEngine: true,
    now: () => clock,
    database: new LazyPacketStore(() => openSqliteStore({ dir: path.join(dir, 'packets') })),
    multipart: { totalBytes: MULTIPART_BYTES, partBytes: MULTIPART_BYTES, parts: 8 },
    config: {
      keys: [
        { key: ACME, kind: 'production', organization: 'acme', label: 'Ada at Acme' },
        { key: ACME_DEV, kind: 'development', organization: 'acme', label: 'Acme CI' },
        { key: GLOBEX, kind: 'production', organization: 'globex', label: 'Globex' },
      ],
    },
    dashboard: { signInLimit: { max: 100, windowMs: 60_000 } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  acme = new DashboardClient(base);
  expect((await acme.signIn(ACME)).status).toBe(200);
  globex = new DashboardClient(base);
  expect((await globex.signIn(GLOBEX)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A new flat template of acme's, uploaded with detection off; the clock moves a second first. */
async function created(name: string, pdf?: Uint8Array): Promise<Detail> {
  clock += 1000;
  const r = await acme.upload(pdf ?? (await labelledPdf(name)), `${name}.pdf`, { detect: 'false' });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return (r.json as { template: Detail }).template;
}

async function save(eid: string, fields: unknown[], title?: string): Promise<Detail> {
  clock += 1000;
  const r = await acme.call('PUT', `/dashboard/api/templates/${eid}/working`, {
    body: { ...(title ? { title } : {}), fields },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json as Detail;
}

describe('uploads', () => {
  it('a flat PDF: 201 with the template (pages, empty working version, nothing published), named after the file; detection off proposes nothing', async () => {
    const r = await acme.upload(await labelledPdf('Lease'), 'Lease agreement.pdf', { detect: 'false' });
    expect(r.status).toBe(201);
    const { template, proposals } = r.json as { template: Detail; proposals: unknown[] };
    expect(proposals).toEqual([]);
    expect(template).toEqual({
      eid: expect.stringMatching(/^tpl[A-Za-z0-9]+$/),
      name: 'Lease agreement',
      pages: [{ width: 612, height: 792 }],
      working: { fields: [] },
      publishedVersion: null,
      hasUnpublishedChanges: true,
      versions: [],
      updatedAt: new Date(clock).toISOString(),
    });
    const named = await acme.upload(await labelledPdf('Other'), 'x.pdf', { name: '  Office lease  ', detect: 'false' });
    expect((named.json as { template: Detail }).template.name).toBe('Office lease');
  });

  it('a fillable PDF with detection on: its own form fields come back as proposals, named for people (the last part of a dotted field name when nothing else names it, not the widget path), and are not saved until accepted', async () => {
    const r = await acme.upload(await fillablePdf(), 'form.pdf');
    expect(r.status).toBe(201);
    const { template, proposals } = r.json as {
      template: Detail;
      proposals: Array<{
        field: { id: string; type: string; pageNum: number; rect: Record<string, number> };
        source: string;
        confidence: number;
        label?: string;
      }>;
    };
    expect(proposals.map((p) => [p.source, p.label, p.field.type])).toEqual([
      ['acroform', 'name', 'shortText'],
      ['acroform', 'rent', 'shortText'],
      ['acroform', 'pets', 'checkbox'],
    ]);
    // pdf-lib's widget at y = 600 (bottom-up) with height 22 is 792 - 622 = 170 points from the top
    // (pdf-lib widens a widget's rectangle by half its border's width on each side).
    const rect = proposals[0]!.field.rect;
    for (const [k, v] of Object.entries({ x: 72, y: 170, width: 240, height: 22 }))
      expect(Math.abs(rect[k]! - v), k).toBeLessThanOrEqual(1);
    expect(proposals.every((p) => p.confidence > 0 && p.confidence <= 1)).toBe(true);
    expect(template.working.fields).toEqual([]);
    const again = await acme.call('GET', `/dashboard/api/templates/${template.eid}/proposals`);
    expect(again.status).toBe(200);
    expect((again.json as { proposals: unknown[] }).proposals).toEqual(proposals);
    // Accepting them is a save of the working version.
    const saved = await save(
      template.eid,
      proposals.map((p) => p.field),
    );
    expect(saved.working.fields.map((f) => f.id)).toEqual(proposals.map((p) => p.field.id));
  });

  it('a DOCX is converted by LibreOffice into the template PDF', async () => {
    const docx = buildDocx([[{ text: 'Residential tenancy agreement' }]]);
    const r = await acme.upload(
      docx,
      'Tenancy.docx',
      { detect: 'false' },
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const { template } = r.json as { template: Detail };
    expect(template.name).toBe('Tenancy');
    expect(template.pages).toHaveLength(1);
    const pdf = await acme.call('GET', `/dashboard/api/templates/${template.eid}/pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await pageText(pdf.bytes))[0]).toContain('Residential tenancy agreement');
  }, 120_000);

  it('refuses a file that is neither PDF nor DOCX (422), no file part or a bad detect value (400), a body over the multipart limit (413)', async () => {
    const text = await acme.upload(new TextEncoder().encode('just some text'), 'notes.txt', {}, 'text/plain');
    expect(text.status).toBe(422);
    expect(text.json).toMatchObject({ name: 'InvalidPdfError', fields: [{ property: 'file' }] });
    const form = new FormData();
    form.set('name', 'nothing');
    const none = await acme.call('POST', '/dashboard/api/templates', { form });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ name: 'ValidationError', fields: [{ property: 'file' }] });
    const detect = await acme.upload(await labelledPdf('D'), 'd.pdf', { detect: 'yes' });
    expect(detect.status).toBe(400);
    expect(detect.json).toMatchObject({ fields: [{ property: 'detect', message: 'Must be "true" or "false"' }] });
    const big = await acme.upload(new Uint8Array(MULTIPART_BYTES + 1024).fill(0x25), 'big.pdf');
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ name: 'PayloadTooLargeError' });
    // None of them made a template.
    const list = (await acme.call('GET', '/dashboard/api/templates?q=nothing')).json as { templates: unknown[] };
    expect(list.templates).toEqual([]);
  });
});

describe('the working version', () => {
  it('invalid saves are typed 400s with the property paths of the engine, and change nothing', async () => {
    const t = await created('Validation');
    const r = await acme.call('PUT', `/dashboard/api/templates/${t.eid}/working`, {
      body: {
        fields: [
          textField('name', 100, { rect: { x: 72, y: 100, width: -5, height: 24 } }),
          textField('name', 140),
          textField('later', 180, { pageNum: 3 }),
          { id: 'kind', type: 'nope', pageNum: 0, rect: { x: 1, y: 1, width: 1, height: 1 } },
        ],
      },
    });
    expect(r.status).toBe(400);
    const fields = (r.json as { name: string; fields: Array<{ property: string }> }).fields.map((f) => f.property);
    expect((r.json as { name: string }).name).toBe('ValidationError');
    expect(fields).toEqual(expect.arrayContaining(['fields[0].rect.width', 'fields[3].type']));
    // Duplicate ids and pages beyond the PDF are told once the fields themselves are well formed.
    const second = await acme.call('PUT', `/dashboard/api/templates/${t.eid}/working`, {
      body: { fields: [textField('name', 100), textField('name', 140), textField('later', 180, { pageNum: 3 })] },
    });
    expect(second.status).toBe(400);
    expect((second.json as { fields: Array<{ property: string }> }).fields.map((f) => f.property)).toEqual([
      'fields[1].id',
    ]);
    const third = await acme.call('PUT', `/dashboard/api/templates/${t.eid}/working`, {
      body: { fields: [textField('later', 180, { pageNum: 3 })] },
    });
    expect(third.json).toMatchObject({
      fields: [{ property: 'fields[0].pageNum', message: 'The PDF has 1 page (pageNum counts from 0)' }],
    });
    const notObject = await acme.call('PUT', `/dashboard/api/templates/${t.eid}/working`, { body: [1, 2] });
    expect(notObject.status).toBe(400);
    const unchanged = (await acme.call('GET', `/dashboard/api/templates/${t.eid}`)).json as Detail;
    expect(unchanged.working.fields).toEqual([]);
  });

  it('a valid save becomes the working version (title, fields, style), with unpublished changes', async () => {
    const t = await created('Saving');
    const saved = await save(
      t.eid,
      [textField('tenant', 100, { alias: 'tenantName', style: { fontSize: 14 } })],
      'Saved title',
    );
    expect(saved.working).toEqual({
      title: 'Saved title',
      fields: [
        {
          id: 'tenant',
          alias: 'tenantName',
          type: 'shortText',
          pageNum: 0,
          rect: { x: 72, y: 100, width: 300, height: 24 },
          style: { fontSize: 14 },
        },
      ],
    });
    expect(saved.hasUnpublishedChanges).toBe(true);
    expect(saved.updatedAt).toBe(new Date(clock).toISOString());
    expect(((await acme.call('GET', `/dashboard/api/templates/${t.eid}`)).json as Detail).working).toEqual(
      saved.working,
    );
  });
});

describe('versions', () => {
  it('publish makes the next number; the list names who published it and when; saving what is published leaves nothing unpublished', async () => {
    const t = await created('Versions');
    await save(t.eid, [textField('a', 100)]);
    clock += 1000;
    const one = await acme.call('POST', `/dashboard/api/templates/${t.eid}/publish`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual({ versionNumber: 1 });
    const firstAt = new Date(clock).toISOString();
    await save(t.eid, [textField('a', 100), textField('b', 140)]);
    expect(((await acme.call('GET', `/dashboard/api/templates/${t.eid}`)).json as Detail).hasUnpublishedChanges).toBe(
      true,
    );
    // The development key of the same organization publishes too; its label is recorded.
    const dev = new DashboardClient(base);
    await dev.signIn(ACME_DEV);
    clock += 1000;
    expect((await dev.call('POST', `/dashboard/api/templates/${t.eid}/publish`)).json).toEqual({ versionNumber: 2 });
    const detail = (await acme.call('GET', `/dashboard/api/templates/${t.eid}`)).json as Detail;
    expect(detail.publishedVersion).toBe(2);
    expect(detail.hasUnpublishedChanges).toBe(false);
    expect(detail.versions).toEqual([
      { versionNumber: 1, publishedAt: firstAt, publishedBy: 'Ada at Acme' },
      { versionNumber: 2, publishedAt: new Date(clock).toISOString(), publishedBy: 'Acme CI' },
    ]);

    const v1 = await acme.call('GET', `/dashboard/api/templates/${t.eid}/versions/1`);
    expect((v1.json as Detail['working']).fields.map((f) => f.id)).toEqual(['a']);
    await save(t.eid, [textField('c', 100)]);
    const working = await acme.call('GET', `/dashboard/api/templates/${t.eid}/versions/-1`);
    expect((working.json as Detail['working']).fields.map((f) => f.id)).toEqual(['c']);
    // Saving the published content again: no unpublished changes.
    const back = await save(t.eid, [textField('a', 100), textField('b', 140)]);
    expect(back.hasUnpublishedChanges).toBe(false);

    expect((await acme.call('GET', `/dashboard/api/templates/${t.eid}/versions/7`)).status).toBe(404);
    const bad = await acme.call('GET', `/dashboard/api/templates/${t.eid}/versions/latest`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ fields: [{ property: 'versionNumber' }] });
  });

  it('the diff between two versions: added, removed, and changed fields with the keys that changed', async () => {
    const t = await created('Diff');
    await save(t.eid, [textField('keep', 100), textField('move', 140), textField('drop', 180)]);
    await acme.call('POST', `/dashboard/api/templates/${t.eid}/publish`);
    await save(t.eid, [
      textField('keep', 100),
      textField('move', 150, { format: 'MM/DD/YYYY', type: 'date' }),
      textField('new', 220),
    ]);
    const r = await acme.call('GET', `/dashboard/api/templates/${t.eid}/diff?from=1&to=-1`);
    expect(r.status).toBe(200);
    const diff = r.json as {
      added: Array<{ id: string }>;
      removed: Array<{ id: string }>;
      changed: Array<{ id: string; keys: string[]; before: { rect: { y: number } }; after: { rect: { y: number } } }>;
    };
    expect(diff.added.map((f) => f.id)).toEqual(['new']);
    expect(diff.removed.map((f) => f.id)).toEqual(['drop']);
    expect(diff.changed).toHaveLength(1);
    expect(diff.changed[0]).toMatchObject({ id: 'move', keys: ['format', 'rect', 'type'] });
    expect([diff.changed[0]!.before.rect.y, diff.changed[0]!.after.rect.y]).toEqual([140, 150]);
    const bad = await acme.call('GET', `/dashboard/api/templates/${t.eid}/diff?from=1`);
    expect(bad.json).toMatchObject({ name: 'ValidationError', fields: [{ property: 'to' }] });
  });
});

describe('managing templates', () => {
  it('rename, duplicate (a new EID with the same PDF and working version, nothing published) and delete', async () => {
    const t = await created('Original');
    await save(t.eid, [textField('a', 100)]);
    await acme.call('POST', `/dashboard/api/templates/${t.eid}/publish`);
    clock += 1000;
    const renamed = await acme.call('PATCH', `/dashboard/api/templates/${t.eid}`, { body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ eid: t.eid, name: 'Renamed', publishedVersion: 1 });
    const badName = await acme.call('PATCH', `/dashboard/api/templates/${t.eid}`, { body: { name: '   ' } });
    expect(badName.status).toBe(400);
    expect(badName.json).toMatchObject({ fields: [{ property: 'name' }] });

    const copy = await acme.call('POST', `/dashboard/api/templates/${t.eid}/duplicate`, { body: {} });
    expect(copy.status).toBe(201);
    const c = copy.json as Detail;
    expect(c.eid).not.toBe(t.eid);
    expect(c).toMatchObject({
      name: 'Renamed (copy)',
      publishedVersion: null,
      versions: [],
      hasUnpublishedChanges: true,
    });
    expect(c.working).toEqual(((await acme.call('GET', `/dashboard/api/templates/${t.eid}`)).json as Detail).working);
    const original = (await acme.call('GET', `/dashboard/api/templates/${t.eid}/pdf`)).bytes;
    expect(
      Buffer.from((await acme.call('GET', `/dashboard/api/templates/${c.eid}/pdf`)).bytes).equals(
        Buffer.from(original),
      ),
    ).toBe(true);
    const named = await acme.call('POST', `/dashboard/api/templates/${t.eid}/duplicate`, {
      body: { name: 'Second copy' },
    });
    expect((named.json as Detail).name).toBe('Second copy');

    const gone = await acme.call('DELETE', `/dashboard/api/templates/${c.eid}`);
    expect(gone.status).toBe(204);
    expect((await acme.call('GET', `/dashboard/api/templates/${c.eid}`)).status).toBe(404);
    expect((await acme.call('DELETE', `/dashboard/api/templates/${c.eid}`)).status).toBe(404);
    expect((await acme.call('GET', `/dashboard/api/templates/${t.eid}`)).status).toBe(200);
  });

  it('the list: newest change first, searched by name words (any case), with the published version and field count', async () => {
    const a = await created('Search Alpha lease');
    const b = await created('Search Beta LEASE');
    await created('Search gamma contract');
    await save(a.eid, [textField('x', 100), textField('y', 140)]);
    await acme.call('POST', `/dashboard/api/templates/${a.eid}/publish`);
    const r = await acme.call('GET', `/dashboard/api/templates?q=${encodeURIComponent('search LEASE')}`);
    expect(r.status).toBe(200);
    const { templates } = r.json as { templates: Array<Record<string, unknown>> };
    expect(templates.map((t) => t.name)).toEqual(['Search Alpha lease', 'Search Beta LEASE']);
    expect(templates[0]).toEqual({
      eid: a.eid,
      name: 'Search Alpha lease',
      updatedAt: expect.any(String),
      publishedVersion: 1,
      hasUnpublishedChanges: false,
      fieldCount: 2,
    });
    expect(templates[1]).toMatchObject({
      eid: b.eid,
      publishedVersion: null,
      hasUnpublishedChanges: true,
      fieldCount: 0,
    });
    const all = (await acme.call('GET', '/dashboard/api/templates')).json as {
      templates: Array<{ updatedAt: string }>;
    };
    const times = all.templates.map((t) => t.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe('preview', () => {
  it("the engine's fill of the working version (default) or a published one, values where the fields are; bad data is a typed 400", async () => {
    const t = await created('Preview');
    await save(t.eid, [textField('tenant', 100)], 'Preview v1');
    await acme.call('POST', `/dashboard/api/templates/${t.eid}/publish`);
    await save(t.eid, [textField('tenant', 300)], 'Preview working');
    for (const [versionNumber, y] of [
      [undefined, 300],
      [-1, 300],
      [1, 100],
    ] as const) {
      const r = await acme.call('POST', `/dashboard/api/templates/${t.eid}/preview`, {
        body: { data: { tenant: 'Grace Hopper' }, ...(versionNumber !== undefined ? { versionNumber } : {}) },
      });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/pdf');
      const [page] = await readText(r.bytes);
      expect(joinItems(itemsInRect(page!, { x: 72, y, width: 300, height: 24 }))).toBe('Grace Hopper');
      expect(joinItems(page!.items)).not.toMatch(/DEVELOPMENT/);
    }
    const bad = await acme.call('POST', `/dashboard/api/templates/${t.eid}/preview`, {
      body: { data: { tenant: { not: 'text' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      name: 'ValidationError',
      fields: [{ property: expect.stringMatching(/^data\.tenant/) }],
    });
    const missing = await acme.call('POST', `/dashboard/api/templates/${t.eid}/preview`, {
      body: { data: {}, versionNumber: 9 },
    });
    expect(missing.status).toBe(404);
    // A development key's preview carries the watermark, as its API fills do.
    const dev = new DashboardClient(base);
    await dev.signIn(ACME_DEV);
    const marked = await dev.call('POST', `/dashboard/api/templates/${t.eid}/preview`, {
      body: { data: { tenant: 'X' } },
    });
    expect((await pageText(marked.bytes))[0]).toMatch(/DEVELOPMENT/);
  });
});

describe('export and import', () => {
  it('an export imports as a new template with the same PDF and fields; a broken one is a typed 400', async () => {
    const t = await created('Exported');
    await save(t.eid, [textField('a', 100), textField('b', 140)], 'Exported title');
    const exported = await acme.call('GET', `/dashboard/api/templates/${t.eid}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/json/);
    const file = exported.json as { castpressTemplate: number; name: string; template: Detail['working']; pdf: string };
    expect(file.castpressTemplate).toBe(1);
    expect(file.name).toBe('Exported');
    expect(file.template.title).toBe('Exported title');
    expect(Buffer.from(file.pdf, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    const imported = await acme.call('POST', '/dashboard/api/templates/import', { body: file });
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    const i = imported.json as Detail;
    expect(i.eid).not.toBe(t.eid);
    expect(i).toMatchObject({ name: 'Exported', working: file.template, publishedVersion: null });
    // Globex imports acme's export as its own template: it is then globex's.
    const theirs = await globex.call('POST', '/dashboard/api/templates/import', { body: file });
    expect(theirs.status).toBe(201);
    expect((await acme.call('GET', `/dashboard/api/templates/${(theirs.json as Detail).eid}`)).status).toBe(404);

    const broken = {
      ...file,
      template: { fields: [textField('a', 100, { rect: { x: 1, y: 1, width: 0, height: 5 } })] },
    };
    const refused = await acme.call('POST', '/dashboard/api/templates/import', { body: broken });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ fields: [{ property: 'template.fields[0].rect.width' }] });
    const wrongKind = await acme.call('POST', '/dashboard/api/templates/import', {
      body: { ...file, castpressTemplate: 2 },
    });
    expect(wrongKind.json).toMatchObject({ fields: [{ property: 'castpressTemplate' }] });
    const notPdf = await acme.call('POST', '/dashboard/api/templates/import', {
      body: { ...file, pdf: Buffer.from('hello').toString('base64') },
    });
    expect(notPdf.status).toBe(422);
    expect(notPdf.json).toMatchObject({ fields: [{ property: 'pdf' }] });
  });
});

describe('organizations', () => {
  it("another organization's key sees none of it: an empty list and a 404 on every route of an acme template", async () => {
    const t = await created('Acme only');
    await save(t.eid, [textField('a', 100)]);
    await acme.call('POST', `/dashboard/api/templates/${t.eid}/publish`);
    const list = (await globex.call('GET', '/dashboard/api/templates')).json as { templates: Array<{ eid: string }> };
    expect(list.templates.map((x) => x.eid)).not.toContain(t.eid);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', ''],
      ['GET', '/pdf'],
      ['GET', '/proposals'],
      ['PUT', '/working', { fields: [] }],
      ['PATCH', '', { name: 'Taken' }],
      ['POST', '/duplicate', {}],
      ['POST', '/publish'],
      ['GET', '/versions/1'],
      ['GET', '/versions/-1'],
      ['GET', '/diff?from=1&to=-1'],
      ['POST', '/preview', { data: {} }],
      ['GET', '/export'],
      ['DELETE', ''],
    ];
    for (const [method, suffix, body] of routes) {
      const r = await globex.call(
        method,
        `/dashboard/api/templates/${t.eid}${suffix}`,
        body === undefined ? {} : { body },
      );
      expect(r.status, `${method} ${suffix}`).toBe(404);
      expect((r.json as { name: string }).name, `${method} ${suffix}`).toBe('NotFoundError');
    }
    // Untouched for its owner.
    const still = (await acme.call('GET', `/dashboard/api/templates/${t.eid}`)).json as Detail;
    expect(still).toMatchObject({ name: 'Acme only', publishedVersion: 1, versions: [{ versionNumber: 1 }] });
  });
});

/**
 * The dashboard's JSON API over the template store (DASHBOARD-API.md, "Templates"). Every route
 * runs in the signed-in key's organization: another organization's EID is the store's 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../errors/index.js';
import { isPlainObject } from '../../schema/index.js';
import {
  parseTemplateContent,
  templateName,
  templateNotFound,
  type Template,
  type TemplateCatalogue,
  type TemplateContent,
} from '../../template/index.js';
import type { TemplateAuthoring } from './authoring.js';
import { diffFields } from './fields.js';
import type { DashboardKey, Session } from '../sessions/index.js';
import { readTemplateUpload, type UploadLimits } from './upload.js';
import { templateDetail, templateSummary } from './views.js';

/** Marks what an export file is (and which shape it has). */
export const EXPORT_FORMAT = 1;

export interface ApiContext {
  catalogue: () => Promise<TemplateCatalogue>;
  authoring: TemplateAuthoring;
  /** The engine's flat fill of `template` with `body` (a fill request), as the API would answer it for `key`. */
  preview: (key: DashboardKey, template: Template, body: unknown) => Promise<Uint8Array>;
  sessionOf: (request: FastifyRequest) => Session;
  now: () => number;
  multipart: UploadLimits;
  /** Largest JSON body of an import (a base64 PDF is a third larger than the PDF). */
  importBodyBytes: number;
}

type EidParams = { Params: { eid: string } };

/** An integer version number from a path or query string: -1 the working version. */
function versionOf(raw: unknown, property: string): number {
  if (typeof raw !== 'string' || !/^-?\d{1,9}$/.test(raw)) throw ValidationError.of(property, 'Must be an integer');
  return Number(raw);
}

function sendPdf(reply: FastifyReply, bytes: Uint8Array, name: string): FastifyReply {
  return reply
    .type('application/pdf')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `inline; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`)
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** A TemplateJson body (PUT working, import), its problems named under `prefix` (`fields[3].rect.width`). */
function contentOf(raw: unknown, pageCount: number, prefix = ''): TemplateContent {
  try {
    return parseTemplateContent(raw, pageCount);
  } catch (e) {
    if (!prefix || !(e instanceof ValidationError)) throw e;
    throw new ValidationError(
      e.fields.map((f) => ({ ...f, property: f.property === '(body)' ? prefix : `${prefix}.${f.property}` })),
    );
  }
}

function base64Pdf(raw: unknown): Uint8Array {
  if (typeof raw !== 'string' || raw.length === 0 || !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(raw))
    throw ValidationError.of('pdf', 'Must be the PDF as base64');
  return new Uint8Array(Buffer.from(raw, 'base64'));
}

export function templateApi(api: FastifyInstance, ctx: ApiContext): void {
  const org = (request: FastifyRequest) => ctx.sessionOf(request).key.organization;

  api.get<{ Querystring: { q?: string } }>('/templates', async (request) => {
    const q = typeof request.query.q === 'string' ? request.query.q : undefined;
    const templates = await (await ctx.catalogue()).list(org(request), q);
    return { templates: templates.map(templateSummary) };
  });

  api.post('/templates', async (request, reply) => {
    const upload = await readTemplateUpload(request, ctx.multipart);
    const { template, proposals } = await ctx.authoring.fromUpload(
      org(request),
      { bytes: upload.bytes, ...(upload.filename ? { filename: upload.filename } : {}), property: 'file' },
      { ...(upload.name !== undefined ? { name: upload.name } : {}), detect: upload.detect, at: ctx.now() },
    );
    return reply.code(201).send({ template: templateDetail(template), proposals });
  });

  api.post<{ Body: unknown }>('/templates/import', { bodyLimit: ctx.importBodyBytes }, async (request, reply) => {
    const body = request.body;
    if (!isPlainObject(body)) throw ValidationError.of('(body)', 'Expected an exported template object');
    if (body.castpressTemplate !== EXPORT_FORMAT)
      throw ValidationError.of('castpressTemplate', `Must be ${EXPORT_FORMAT} (a castpress template export)`);
    const name = templateName(body.name);
    const pdf = base64Pdf(body.pdf);
    const record = await ctx.authoring.fromExport(
      org(request),
      { name, pdf, content: (pages) => contentOf(body.template, pages, 'template') },
      ctx.now(),
    );
    return reply.code(201).send(templateDetail(record));
  });

  api.get<EidParams>('/templates/:eid', async (request) =>
    templateDetail(await (await ctx.catalogue()).record(org(request), request.params.eid)),
  );

  api.get<EidParams>('/templates/:eid/pdf', async (request, reply) => {
    const catalogue = await ctx.catalogue();
    const record = await catalogue.record(org(request), request.params.eid);
    return sendPdf(reply, await catalogue.pdf(org(request), request.params.eid), record.name);
  });

  api.get<EidParams>('/templates/:eid/proposals', async (request) => ({
    proposals: await ctx.authoring.proposals(org(request), request.params.eid),
  }));

  api.put<EidParams & { Body: unknown }>('/templates/:eid/working', async (request) => {
    const catalogue = await ctx.catalogue();
    const record = await catalogue.record(org(request), request.params.eid);
    const content = contentOf(request.body, record.pages.length);
    return templateDetail(await catalogue.saveWorking(org(request), request.params.eid, content, ctx.now()));
  });

  api.patch<EidParams & { Body: unknown }>('/templates/:eid', async (request) => {
    const body = isPlainObject(request.body) ? request.body : {};
    const name = templateName(body.name);
    return templateDetail(await (await ctx.catalogue()).rename(org(request), request.params.eid, name, ctx.now()));
  });

  api.delete<EidParams>('/templates/:eid', async (request, reply) => {
    await (await ctx.catalogue()).remove(org(request), request.params.eid);
    return reply.code(204).send();
  });

  api.post<EidParams & { Body: unknown }>('/templates/:eid/duplicate', async (request, reply) => {
    const catalogue = await ctx.catalogue();
    const source = await catalogue.record(org(request), request.params.eid);
    const body = isPlainObject(request.body) ? request.body : {};
    const name = body.name === undefined ? `${source.name} (copy)`.slice(0, 200) : templateName(body.name);
    const copy = await catalogue.duplicate(org(request), request.params.eid, name, ctx.now());
    return reply.code(201).send(templateDetail(copy));
  });

  api.post<EidParams>('/templates/:eid/publish', async (request) => {
    const { key } = ctx.sessionOf(request);
    const versionNumber = await (
      await ctx.catalogue()
    ).publish(key.organization, request.params.eid, key.label, ctx.now());
    return { versionNumber };
  });

  api.get<{ Params: { eid: string; n: string } }>('/templates/:eid/versions/:n', async (request) =>
    (await ctx.catalogue()).content(org(request), request.params.eid, versionOf(request.params.n, 'versionNumber')),
  );

  api.get<EidParams & { Querystring: { from?: string; to?: string } }>('/templates/:eid/diff', async (request) => {
    const from = versionOf(request.query.from, 'from');
    const to = versionOf(request.query.to, 'to');
    const catalogue = await ctx.catalogue();
    const [a, b] = await Promise.all([
      catalogue.content(org(request), request.params.eid, from),
      catalogue.content(org(request), request.params.eid, to),
    ]);
    return diffFields(a.fields, b.fields);
  });

  api.post<EidParams & { Body: unknown }>('/templates/:eid/preview', async (request, reply) => {
    const { key } = ctx.sessionOf(request);
    const body = isPlainObject(request.body) ? request.body : {};
    const versionNumber = body.versionNumber ?? -1;
    if (typeof versionNumber !== 'number' || !Number.isInteger(versionNumber))
      throw ValidationError.of('versionNumber', 'Must be an integer');
    const catalogue = await ctx.catalogue();
    const template = await catalogue.find(key.organization, request.params.eid, versionNumber);
    if (!template) throw templateNotFound(request.params.eid);
    const pdf = await ctx.preview(key, template, { data: body.data });
    return sendPdf(reply, pdf, template.title ?? request.params.eid);
  });

  api.get<EidParams>('/templates/:eid/export', async (request) => {
    const catalogue = await ctx.catalogue();
    const record = await catalogue.record(org(request), request.params.eid);
    const pdf = await catalogue.pdf(org(request), request.params.eid);
    return {
      castpressTemplate: EXPORT_FORMAT,
      name: record.name,
      template: record.working,
      pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('base64'),
    };
  });
}

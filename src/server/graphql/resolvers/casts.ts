/**
 * Templates (the spec's Casts) over GraphQL, in the same store the dashboard edits: `createCast`
 * from an upload, the `cast` query and `publishCast`. Every call runs in the caller's organization
 * (another organization's EID is a 404). Argument names: docs/reference/graphql.md ("Casts (templates)").
 */
import { NotFoundError, ValidationError } from '../../../errors/index.js';
import type { DashboardKey, EmbedLinks, TemplateAuthoring } from '../../../dashboard/index.js';
import type { TemplateCatalogue, TemplateRecord } from '../../../template/index.js';

export interface CastOperations {
  catalogue: () => Promise<TemplateCatalogue>;
  authoring: TemplateAuthoring;
  /** Epoch milliseconds. */
  now: () => number;
  /** `generateEmbedURL`'s links to the dashboard's editor; without a dashboard, that mutation is a 404. */
  embedLinks?: EmbedLinks;
}

/** Who asks: the API key's organization, and its label (a published version's `publishedBy`). */
export interface CastCaller {
  organization: string;
  label: string;
  /** The key itself as the dashboard knows it (an embed link opens a session of this key). */
  key?: DashboardKey;
  /** The server's public address, for links. */
  base?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The upload as the client sends it: a multipart file part (`{data: bytes, filename, mimetype}`,
 * placed by ../uploads.ts), the base64 form `{data: "<base64>", filename, mimetype}`, or a base64 string.
 */
function uploadOf(raw: unknown): { bytes: Uint8Array; filename?: string } {
  const object = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const data = typeof raw === 'string' ? raw : object.data;
  const filename = typeof object.filename === 'string' ? object.filename : undefined;
  let bytes: Uint8Array | undefined;
  if (data instanceof Uint8Array) bytes = data;
  else if (typeof data === 'string' && /^[A-Za-z0-9+/\s]+={0,2}\s*$/.test(data))
    bytes = new Uint8Array(Buffer.from(data, 'base64'));
  if (!bytes || bytes.byteLength === 0)
    throw ValidationError.of(
      'file',
      'Must be the PDF or DOCX file: a multipart upload, or {data: "<base64>", filename, mimetype}',
    );
  return { bytes, ...(filename ? { filename } : {}) };
}

function flag(args: Record<string, unknown>, name: string): boolean | undefined {
  const v = args[name];
  return typeof v === 'boolean' ? v : undefined;
}

/** The Cast type: the record, with `fields` of version `versionNumber`. */
function castOf(record: TemplateRecord, versionNumber: number, content: TemplateRecord['working']) {
  return {
    id: record.eid,
    eid: record.eid,
    name: record.name,
    title: content.title ?? record.name,
    isTemplate: true,
    versionNumber,
    latestVersionNumber: record.publishedVersion,
    hasUnpublishedChanges: record.hasUnpublishedChanges,
    fields: content.fields,
    fieldInfo: { fields: content.fields },
    versions: record.versions.map((v) => ({
      versionNumber: v.versionNumber,
      publishedAt: iso(v.publishedAt),
      publishedBy: v.publishedBy,
    })),
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
  };
}

/** The root resolvers of the three operations for one caller. */
export function castResolvers(ops: CastOperations, caller: CastCaller) {
  const { organization } = caller;
  return {
    createCast: async (args: Record<string, unknown>) => {
      const upload = uploadOf(args.file);
      const name = typeof args.name === 'string' ? args.name : typeof args.title === 'string' ? args.title : undefined;
      const title = typeof args.title === 'string' ? args.title : undefined;
      const detect = flag(args, 'detectFields') ?? flag(args, 'advancedDetectFields') ?? false;
      const { template } = await ops.authoring.fromUpload(
        organization,
        { ...upload, property: 'file' },
        {
          ...(name !== undefined ? { name } : {}),
          ...(title !== undefined ? { title } : {}),
          detect,
          accept: true,
          at: ops.now(),
        },
      );
      // Fillable at once, as the hosted API's new casts are: what was made becomes version 1.
      const catalogue = await ops.catalogue();
      const versionNumber = await catalogue.publish(organization, template.eid, caller.label, ops.now());
      const record = await catalogue.record(organization, template.eid);
      return castOf(record, versionNumber, record.working);
    },
    cast: async (args: Record<string, unknown>) => {
      const catalogue = await ops.catalogue();
      const record = await catalogue.record(organization, String(args.eid));
      const asked = typeof args.versionNumber === 'number' ? args.versionNumber : undefined;
      // Default: the latest published version, as a fill's; the working version before the first publish.
      const versionNumber =
        asked === undefined || asked === 0 || asked === -2 ? (record.publishedVersion ?? -1) : asked;
      return castOf(record, versionNumber, await catalogue.content(organization, record.eid, versionNumber));
    },
    publishCast: async (args: Record<string, unknown>) => {
      const catalogue = await ops.catalogue();
      const versionNumber = await catalogue.publish(organization, String(args.eid), caller.label, ops.now());
      const record = await catalogue.record(organization, String(args.eid));
      return castOf(record, versionNumber, record.working);
    },
    generateEmbedURL: async (args: Record<string, unknown>) => {
      if (!ops.embedLinks || !caller.key || !caller.base)
        throw new NotFoundError('This server serves no dashboard: there is no editor to embed', 'type');
      return ops.embedLinks.generate(caller.key, args, caller.base);
    },
  };
}

export type CastResolvers = ReturnType<typeof castResolvers>;

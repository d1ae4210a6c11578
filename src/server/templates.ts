/**
 * The organizations' own templates as the server holds them: the store (the server database's,
 * else one in memory), the authoring shared by the dashboard and createCast, and the dashboard
 * registered with what it needs of the server (its keys, the render pool, the watermark).
 */
import type { FastifyInstance } from 'fastify';
import {
  dashboardRoutes,
  TemplateAuthoring,
  type PrepareTemplatePdf,
  type AppFiles,
  type DashboardKey,
  type DashboardKeys,
  type DetectFields,
  type OrganizationSettingsAccess,
  type PacketDesk,
  type Sessions,
} from '../dashboard/index.js';
import type { OrganizationDirectory, PacketStore, SessionRecords } from '../packets/index.js';
import { MemoryTemplateCatalogue, type Template, type TemplateCatalogue } from '../template/index.js';
import { ANONYMOUS_KEY } from './http/auth.js';
import { finishedFor, type ServerContext } from './context.js';
import type { LazyPacketBackend, LazyPacketStore } from './graphql/index.js';
import { KeyRing, type KeyEntry } from './keys.js';
import type { RenderPool } from './pool/render-pool.js';
import type { TemplateOutcome } from '../batch/index.js';
import { CastpressError } from '../errors/index.js';

/** An upload's PDF prepared on the render pool's threads, in the organization's lane (a deadline, a memory ceiling). */
export function poolPreparation(pool: RenderPool): PrepareTemplatePdf {
  return async (task, organization) => {
    const outcome = (await pool.inLane(organization, () =>
      pool.step('template', task, { what: 'Reading the template', property: task.property }, pool.deadlineMs),
    )) as TemplateOutcome;
    if (!outcome.ok)
      throw new CastpressError(outcome.error.name, outcome.status, outcome.error.message, outcome.error.fields);
    return outcome;
  };
}

/** The dashboard's settings (`buildApp`'s `dashboard`). */
export interface DashboardSettings {
  /** Field detection on upload (default: src/detect's detector, `detectAll`). */
  detect?: DetectFields;
  /** The browser app's files (default: the build's `generated/dashboard.js`, `src/dashboard/app/app.css`). */
  files?: AppFiles;
  sessionTtlMs?: number;
  /** Sign-in attempts per client address and window (default 10 a minute). */
  signInLimit?: { max: number; windowMs: number };
}

export interface TemplateSources {
  catalogue: () => Promise<TemplateCatalogue>;
  /** Undefined: sessions in memory (a server without a database). */
  sessions?: () => Promise<SessionRecords>;
}

/**
 * Where templates and sessions live: the server's database when there is one (startServer's), else
 * the packet backend's store (the same database, opened with the packets), else memory.
 */
export function templateSources(database?: LazyPacketStore, packets?: LazyPacketBackend): TemplateSources {
  const store: (() => Promise<PacketStore>) | undefined = database
    ? () => database.get()
    : packets
      ? async () => (await packets.get()).store
      : undefined;
  if (!store) {
    const memory = new MemoryTemplateCatalogue();
    return { catalogue: async () => memory };
  }
  return { catalogue: async () => (await store()).templates, sessions: async () => (await store()).sessions };
}

const dashboardKey = (k: KeyEntry, digest: string): DashboardKey => ({
  organization: k.organization,
  label: k.label,
  kind: k.kind,
  digest,
});

/** The keys file's keys for the dashboard; without keys (`--no-auth`) any key signs in as the anonymous key. */
export function dashboardKeys(ring: KeyRing | undefined): DashboardKeys {
  if (!ring) {
    const anonymous = dashboardKey(ANONYMOUS_KEY, 'anonymous');
    return {
      find: (apiKey) => (apiKey ? anonymous : undefined),
      byDigest: (d) => (d === 'anonymous' ? anonymous : undefined),
    };
  }
  return {
    find: (apiKey) => {
      const digest = KeyRing.digestOf(apiKey);
      const k = ring.byDigest(digest);
      return k && dashboardKey(k, digest);
    },
    byDigest: (digest) => {
      const k = ring.byDigest(digest);
      return k && dashboardKey(k, digest);
    },
  };
}

export interface DashboardRegistration {
  ctx: ServerContext;
  sources: TemplateSources;
  authoring: TemplateAuthoring;
  keys: DashboardKeys;
  settings: DashboardSettings;
  organizations?: OrganizationDirectory;
  /** The `--org` store's settings access (the rules of `PUT /api/organization`): the settings page. */
  organizationSettings?: OrganizationSettingsAccess;
  /** The dashboard's sessions, shared with the embed links GraphQL makes. */
  sessions: Sessions;
  frameAncestors?: readonly string[];
  /** The packets' store and service, for the dashboard's packet pages. */
  packets?: () => Promise<PacketDesk>;
  now: () => number;
}

/** Registers `/dashboard`; its previews render as the API's fills do (the pool in the organization's lane, the watermark). */
export async function registerDashboard(app: FastifyInstance, r: DashboardRegistration): Promise<void> {
  const { ctx } = r;
  const preview = async (key: DashboardKey, template: Template, body: unknown) => {
    const pool = ctx.renderPool;
    const rendered = pool
      ? await pool.inLane(key.organization, () => pool.run({ kind: 'fill', template, body }))
      : await ctx.engine.fillDocument(template, body);
    return finishedFor(key.kind, rendered.pdf);
  };
  await dashboardRoutes(app, {
    keys: r.keys,
    catalogue: r.sources.catalogue,
    ...(r.sources.sessions ? { sessions: r.sources.sessions } : {}),
    authoring: r.authoring,
    preview,
    multipart: ctx.multipart,
    parseJson: (bytes, property) => ctx.parseJson(bytes, property),
    ...(r.organizations ? { organizations: r.organizations } : {}),
    ...(r.organizationSettings ? { settings: r.organizationSettings } : {}),
    sessionStore: r.sessions,
    ...(r.frameAncestors ? { frameAncestors: r.frameAncestors } : {}),
    ...(r.packets ? { packets: r.packets } : {}),
    now: r.now,
    ...(r.settings.sessionTtlMs !== undefined ? { sessionTtlMs: r.settings.sessionTtlMs } : {}),
    ...(r.settings.signInLimit ? { signInLimit: r.settings.signInLimit } : {}),
    ...(r.settings.files ? { files: r.settings.files } : {}),
    // A base64 PDF is a third larger than the PDF; the import's PDF may be as large as an upload.
    importBodyBytes: Math.ceil((ctx.multipart.totalBytes * 4) / 3) + 1024 * 1024,
  });
}

/**
 * Organizations' editable templates in the server's database (migration 8), so every instance on
 * one PostgreSQL sees the same templates and a restart keeps them: a `templates` row per template
 * (its working version as JSON, the PDF by content hash in the blob store) and a
 * `template_versions` row per published version. Writes run in the store's transactions; a
 * publish locks the template's row, so two publishing at once get consecutive numbers.
 */
import {
  nameMatches,
  newTemplateEid,
  pickPublished,
  sameContent,
  templateNotFound,
  templateOf,
  versionNotFound,
  type NewTemplate,
  type PageSize,
  type Template,
  type TemplateCatalogue,
  type TemplateContent,
  type TemplateListing,
  type TemplateRecord,
} from '../../template/index.js';
import { json, num, numOrNull, bool, type Row, type SqlExecutor, type SqlTransaction } from './sql-rows.js';
import type { BlobStore } from './store.js';

/** Engine templates made from the database, kept so repeated fills reuse one object (the engine's caches key on it). */
const CACHED_TEMPLATES = 32;

interface TemplateRow {
  eid: string;
  organization: string;
  name: string;
  pdfHash: string;
  pages: PageSize[];
  working: TemplateContent;
  revision: number;
  publishedVersion: number | null;
  hasChanges: boolean;
  fieldCount: number;
  createdAt: number;
  updatedAt: number;
}

function rowOf(r: Row): TemplateRow {
  return {
    eid: String(r.eid),
    organization: String(r.organization),
    name: String(r.name),
    pdfHash: String(r.pdf_hash),
    pages: json(r.pages),
    working: json(r.working),
    revision: num(r.revision),
    publishedVersion: numOrNull(r.published_version),
    hasChanges: bool(r.has_changes),
    fieldCount: num(r.field_count),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

export class SqlTemplateCatalogue implements TemplateCatalogue {
  readonly #read: SqlExecutor;
  readonly #transaction: SqlTransaction;
  readonly #blobs: BlobStore;
  readonly #forUpdate: string;
  readonly #cache = new Map<string, Promise<Template>>();

  /** `forUpdate`: the dialect's row-lock suffix ('' where a write transaction already excludes others). */
  constructor(read: SqlExecutor, transaction: SqlTransaction, blobs: BlobStore, forUpdate: string) {
    this.#read = read;
    this.#transaction = transaction;
    this.#blobs = blobs;
    this.#forUpdate = forUpdate;
  }

  async #row(sql: SqlExecutor, organization: string, eid: string, lock = false): Promise<TemplateRow | undefined> {
    const [r] = await sql.all(
      `SELECT * FROM templates WHERE eid = ? AND organization = ?${lock ? this.#forUpdate : ''}`,
      [eid, organization],
    );
    return r && rowOf(r);
  }

  async #existing(sql: SqlExecutor, organization: string, eid: string, lock = false): Promise<TemplateRow> {
    const row = await this.#row(sql, organization, eid, lock);
    if (!row) throw templateNotFound(eid);
    return row;
  }

  async #bytes(hash: string): Promise<Uint8Array> {
    const bytes = await this.#blobs.get(hash);
    if (!bytes) throw new Error(`The template PDF ${hash} is missing from the blob store`);
    return bytes;
  }

  async #record(sql: SqlExecutor, row: TemplateRow): Promise<TemplateRecord> {
    const versions = await sql.all(
      'SELECT version_number, published_at, published_by FROM template_versions WHERE template_eid = ? ORDER BY version_number',
      [row.eid],
    );
    return {
      eid: row.eid,
      organization: row.organization,
      name: row.name,
      pages: row.pages,
      working: row.working,
      publishedVersion: row.publishedVersion,
      hasUnpublishedChanges: row.hasChanges,
      versions: versions.map((v) => ({
        versionNumber: num(v.version_number),
        publishedAt: num(v.published_at),
        publishedBy: String(v.published_by),
      })),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  /** A template made once per key (see CACHED_TEMPLATES), most recently used kept. */
  #cached(key: string, make: () => Promise<Template>): Promise<Template> {
    let found = this.#cache.get(key);
    if (found) this.#cache.delete(key);
    else {
      found = make();
      found.catch(() => this.#cache.delete(key));
    }
    this.#cache.set(key, found);
    while (this.#cache.size > CACHED_TEMPLATES) this.#cache.delete(this.#cache.keys().next().value as string);
    return found;
  }

  async find(organization: string, eid: string, versionNumber?: number): Promise<Template | undefined> {
    const row = await this.#row(this.#read, organization, eid);
    if (!row) return undefined;
    const published = (
      await this.#read.all(
        'SELECT version_number FROM template_versions WHERE template_eid = ? ORDER BY version_number',
        [eid],
      )
    ).map((r) => num(r.version_number));
    const pick = pickPublished(published, versionNumber);
    if (pick === 'working')
      return this.#cached(`w:${eid}:${row.revision}`, async () =>
        templateOf(eid, row.name, await this.#bytes(row.pdfHash), row.working, -1),
      );
    if (pick === undefined) throw versionNotFound(eid, versionNumber, published.length > 0);
    // A published version never changes; its title may come from the name, which can.
    return this.#cached(`p:${eid}:${pick}:${row.name}`, async () => {
      const [v] = await this.#read.all(
        'SELECT content, pdf_hash FROM template_versions WHERE template_eid = ? AND version_number = ?',
        [eid, pick],
      );
      if (!v) throw templateNotFound(eid, pick);
      return templateOf(eid, row.name, await this.#bytes(String(v.pdf_hash)), json(v.content), pick);
    });
  }

  async create(organization: string, t: NewTemplate, at: number): Promise<TemplateRecord> {
    // The PDF first: a crash between the two leaves at most an unreferenced blob.
    const hash = await this.#blobs.put(t.pdf);
    return this.#insert(organization, { name: t.name, pdfHash: hash, pages: t.pages, working: t.content }, at);
  }

  #insert(
    organization: string,
    t: { name: string; pdfHash: string; pages: PageSize[]; working?: TemplateContent },
    at: number,
  ): Promise<TemplateRecord> {
    const working = t.working ?? { fields: [] };
    const eid = newTemplateEid();
    return this.#transaction(async (sql) => {
      await sql.run(
        `INSERT INTO templates (eid, organization, name, pdf_hash, pages, working, revision, published_version, has_changes, field_count, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 0, NULL, 1, ?, ?, ?)`,
        [
          eid,
          organization,
          t.name,
          t.pdfHash,
          JSON.stringify(t.pages),
          JSON.stringify(working),
          working.fields.length,
          at,
          at,
        ],
      );
      return this.#record(sql, await this.#existing(sql, organization, eid));
    });
  }

  async record(organization: string, eid: string): Promise<TemplateRecord> {
    return this.#record(this.#read, await this.#existing(this.#read, organization, eid));
  }

  async list(organization: string, q?: string): Promise<TemplateListing[]> {
    const rows = await this.#read.all(
      'SELECT eid, name, updated_at, published_version, has_changes, field_count FROM templates WHERE organization = ? ORDER BY updated_at DESC, eid',
      [organization],
    );
    return rows
      .map((r) => ({
        eid: String(r.eid),
        name: String(r.name),
        updatedAt: num(r.updated_at),
        publishedVersion: numOrNull(r.published_version),
        hasUnpublishedChanges: bool(r.has_changes),
        fieldCount: num(r.field_count),
      }))
      .filter((t) => nameMatches(t.name, q));
  }

  async content(organization: string, eid: string, versionNumber: number): Promise<TemplateContent> {
    const row = await this.#existing(this.#read, organization, eid);
    if (versionNumber === -1) return row.working;
    const [v] = await this.#read.all(
      'SELECT content FROM template_versions WHERE template_eid = ? AND version_number = ?',
      [eid, versionNumber],
    );
    if (!v) throw templateNotFound(eid, versionNumber);
    return json(v.content);
  }

  async pdf(organization: string, eid: string): Promise<Uint8Array> {
    return this.#bytes((await this.#existing(this.#read, organization, eid)).pdfHash);
  }

  saveWorking(organization: string, eid: string, content: TemplateContent, at: number): Promise<TemplateRecord> {
    return this.#transaction(async (sql) => {
      const row = await this.#existing(sql, organization, eid, true);
      let latest: TemplateContent | undefined;
      if (row.publishedVersion !== null) {
        const [v] = await sql.all(
          'SELECT content FROM template_versions WHERE template_eid = ? AND version_number = ?',
          [eid, row.publishedVersion],
        );
        latest = v && json(v.content);
      }
      await sql.run(
        'UPDATE templates SET working = ?, has_changes = ?, field_count = ?, revision = revision + 1, updated_at = ? WHERE eid = ?',
        [JSON.stringify(content), sameContent(content, latest) ? 0 : 1, content.fields.length, at, eid],
      );
      return this.#record(sql, await this.#existing(sql, organization, eid));
    });
  }

  rename(organization: string, eid: string, name: string, at: number): Promise<TemplateRecord> {
    return this.#transaction(async (sql) => {
      await this.#existing(sql, organization, eid, true);
      await sql.run('UPDATE templates SET name = ?, revision = revision + 1, updated_at = ? WHERE eid = ?', [
        name,
        at,
        eid,
      ]);
      return this.#record(sql, await this.#existing(sql, organization, eid));
    });
  }

  publish(organization: string, eid: string, publishedBy: string, at: number): Promise<number> {
    return this.#transaction(async (sql) => {
      const row = await this.#existing(sql, organization, eid, true);
      const versionNumber = (row.publishedVersion ?? 0) + 1;
      await sql.run(
        'INSERT INTO template_versions (template_eid, version_number, content, pdf_hash, published_at, published_by) VALUES (?, ?, ?, ?, ?, ?)',
        [eid, versionNumber, JSON.stringify(row.working), row.pdfHash, at, publishedBy],
      );
      await sql.run(
        'UPDATE templates SET published_version = ?, has_changes = 0, revision = revision + 1, updated_at = ? WHERE eid = ?',
        [versionNumber, at, eid],
      );
      return versionNumber;
    });
  }

  async duplicate(organization: string, eid: string, name: string, at: number): Promise<TemplateRecord> {
    const row = await this.#existing(this.#read, organization, eid);
    return this.#insert(organization, { name, pdfHash: row.pdfHash, pages: row.pages, working: row.working }, at);
  }

  async remove(organization: string, eid: string): Promise<void> {
    await this.#transaction(async (sql) => {
      await this.#existing(sql, organization, eid, true);
      // The PDF stays in the blob store (content-addressed: another template or a packet may hold the same bytes).
      await sql.run('DELETE FROM template_versions WHERE template_eid = ?', [eid]);
      await sql.run('DELETE FROM templates WHERE eid = ?', [eid]);
    });
  }
}

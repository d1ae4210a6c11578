/**
 * The editable template store in memory: for a server without a database (`buildApp` without
 * packets) and for tests. The server database's store (src/packets/store) keeps the same contract.
 */
import {
  newTemplateEid,
  nameMatches,
  pickPublished,
  sameContent,
  templateNotFound,
  templateOf,
  versionNotFound,
  type NewTemplate,
  type PublishedVersion,
  type TemplateCatalogue,
  type TemplateContent,
  type TemplateListing,
  type TemplateRecord,
} from './catalogue.js';
import type { Template } from './model.js';

interface Entry {
  eid: string;
  organization: string;
  name: string;
  pdf: Uint8Array;
  pages: TemplateRecord['pages'];
  working: TemplateContent;
  /** The working version's engine template, made on first fill and dropped on each save. */
  workingTemplate?: Template;
  published: Array<PublishedVersion & { content: TemplateContent; template?: Template }>;
  createdAt: number;
  updatedAt: number;
}

export class MemoryTemplateCatalogue implements TemplateCatalogue {
  readonly #entries = new Map<string, Entry>();

  #entry(organization: string, eid: string): Entry {
    const e = this.#entries.get(eid);
    if (!e || e.organization !== organization) throw templateNotFound(eid);
    return e;
  }

  #record(e: Entry): TemplateRecord {
    const latest = e.published.at(-1);
    return {
      eid: e.eid,
      organization: e.organization,
      name: e.name,
      pages: e.pages.map((p) => ({ ...p })),
      working: structuredClone(e.working),
      publishedVersion: latest?.versionNumber ?? null,
      hasUnpublishedChanges: !sameContent(e.working, latest?.content),
      versions: e.published.map(({ versionNumber, publishedAt, publishedBy }) => ({
        versionNumber,
        publishedAt,
        publishedBy,
      })),
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
    };
  }

  async find(organization: string, eid: string, versionNumber?: number): Promise<Template | undefined> {
    const e = this.#entries.get(eid);
    if (!e || e.organization !== organization) return undefined;
    const pick = pickPublished(
      e.published.map((p) => p.versionNumber),
      versionNumber,
    );
    if (pick === 'working') {
      e.workingTemplate ??= templateOf(e.eid, e.name, e.pdf, e.working, -1);
      return e.workingTemplate;
    }
    const version = e.published.find((p) => p.versionNumber === pick);
    if (!version) throw versionNotFound(eid, versionNumber, e.published.length > 0);
    version.template ??= templateOf(e.eid, e.name, e.pdf, version.content, version.versionNumber);
    return version.template;
  }

  async create(organization: string, t: NewTemplate, at: number): Promise<TemplateRecord> {
    const e: Entry = {
      eid: newTemplateEid(),
      organization,
      name: t.name,
      pdf: t.pdf,
      pages: t.pages,
      working: structuredClone(t.content ?? { fields: [] }),
      published: [],
      createdAt: at,
      updatedAt: at,
    };
    this.#entries.set(e.eid, e);
    return this.#record(e);
  }

  async record(organization: string, eid: string): Promise<TemplateRecord> {
    return this.#record(this.#entry(organization, eid));
  }

  async list(organization: string, q?: string): Promise<TemplateListing[]> {
    return [...this.#entries.values()]
      .filter((e) => e.organization === organization && nameMatches(e.name, q))
      .sort((a, b) => b.updatedAt - a.updatedAt || a.eid.localeCompare(b.eid))
      .map((e) => {
        const r = this.#record(e);
        return {
          eid: r.eid,
          name: r.name,
          updatedAt: r.updatedAt,
          publishedVersion: r.publishedVersion,
          hasUnpublishedChanges: r.hasUnpublishedChanges,
          fieldCount: r.working.fields.length,
        };
      });
  }

  async content(organization: string, eid: string, versionNumber: number): Promise<TemplateContent> {
    const e = this.#entry(organization, eid);
    if (versionNumber === -1) return structuredClone(e.working);
    const version = e.published.find((p) => p.versionNumber === versionNumber);
    if (!version) throw templateNotFound(eid, versionNumber);
    return structuredClone(version.content);
  }

  async pdf(organization: string, eid: string): Promise<Uint8Array> {
    return this.#entry(organization, eid).pdf;
  }

  async saveWorking(organization: string, eid: string, content: TemplateContent, at: number): Promise<TemplateRecord> {
    const e = this.#entry(organization, eid);
    e.working = structuredClone(content);
    e.workingTemplate = undefined;
    e.updatedAt = at;
    return this.#record(e);
  }

  async rename(organization: string, eid: string, name: string, at: number): Promise<TemplateRecord> {
    const e = this.#entry(organization, eid);
    e.name = name;
    // The name is the title of versions without their own: made again on the next fill.
    e.workingTemplate = undefined;
    for (const p of e.published) p.template = undefined;
    e.updatedAt = at;
    return this.#record(e);
  }

  async publish(organization: string, eid: string, publishedBy: string, at: number): Promise<number> {
    const e = this.#entry(organization, eid);
    const versionNumber = (e.published.at(-1)?.versionNumber ?? 0) + 1;
    e.published.push({ versionNumber, publishedAt: at, publishedBy, content: structuredClone(e.working) });
    e.updatedAt = at;
    return versionNumber;
  }

  async duplicate(organization: string, eid: string, name: string, at: number): Promise<TemplateRecord> {
    const e = this.#entry(organization, eid);
    return this.create(organization, { name, pdf: e.pdf, pages: e.pages, content: e.working }, at);
  }

  async remove(organization: string, eid: string): Promise<void> {
    this.#entry(organization, eid);
    this.#entries.delete(eid);
  }
}

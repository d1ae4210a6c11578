import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError, ValidationError } from '../errors/index.js';
import type { Template, TemplateInput } from './model.js';
import { parseTemplate } from './validate.js';

/** The unpublished working version (`versionNumber=-1`). */
export const WORKING_VERSION = -1;
/** The latest published version, as the Node client spells it (`-2`); same as omitting the number. */
export const LATEST_PUBLISHED = -2;

export interface TemplateStore {
  /** Resolves a template by EID; `versionNumber` omitted = latest published, -1 = working version. Throws NotFoundError. */
  get(eid: string, versionNumber?: number): Promise<Template>;
  /** Whether the store holds any version of `eid`, told without reading one (optional: callers fall back to `get`). */
  has?(eid: string): Promise<boolean>;
}

/** Keeps templates in memory: for tests and for callers that build templates in code. */
export class MemoryTemplateStore implements TemplateStore {
  readonly #versions = new Map<string, { published: Map<number, Template>; working?: Template }>();

  /** Adds a published version (its `versionNumber`, or the next one). */
  publish(template: TemplateInput): Template {
    const entry = this.#entry(template.eid);
    const n = template.versionNumber ?? Math.max(0, ...entry.published.keys()) + 1;
    const t = parseTemplate({ ...template, versionNumber: n });
    entry.published.set(n, t);
    return t;
  }

  /** Sets the unpublished working version. */
  setWorking(template: TemplateInput): void {
    this.#entry(template.eid).working = parseTemplate({ ...template, versionNumber: WORKING_VERSION });
  }

  async has(eid: string): Promise<boolean> {
    return this.#versions.has(eid);
  }

  async get(eid: string, versionNumber?: number): Promise<Template> {
    const entry = this.#versions.get(eid);
    const found = entry && pickVersion(entry.published, entry.working, versionNumber);
    if (!found) throw notFound(eid, versionNumber);
    return found;
  }

  #entry(eid: string) {
    let e = this.#versions.get(eid);
    if (!e) this.#versions.set(eid, (e = { published: new Map() }));
    return e;
  }
}

function pickVersion(
  published: Map<number, Template>,
  working: Template | undefined,
  versionNumber?: number,
): Template | undefined {
  const latest = () => {
    const keys = [...published.keys()];
    return keys.length ? published.get(Math.max(...keys)) : undefined;
  };
  if (versionNumber === undefined || versionNumber === 0 || versionNumber === LATEST_PUBLISHED) return latest();
  // With no unpublished changes the working version is the latest one.
  if (versionNumber === WORKING_VERSION) return working ?? latest();
  return published.get(versionNumber);
}

function notFound(eid: string, versionNumber?: number): NotFoundError {
  const v = versionNumber === undefined ? '' : ` version ${versionNumber}`;
  return new NotFoundError(`No template "${eid}"${v}`);
}

/**
 * Templates in a directory, one folder per EID:
 *
 *     <dir>/<eid>/template.pdf     the PDF (a version may name another file in "pdf")
 *     <dir>/<eid>/v1.json, v2.json published versions: {title?, pdf?, style?, fields: [...]}
 *     <dir>/<eid>/working.json     unpublished working version (versionNumber=-1)
 *
 * Read lazily and kept: a template is parsed once per store.
 */
export class DirectoryTemplateStore implements TemplateStore {
  readonly #cache = new Map<string, Promise<Template>>();

  constructor(readonly dir: string) {}

  async has(eid: string): Promise<boolean> {
    return /^[A-Za-z0-9_-]+$/.test(eid) && existsSync(path.join(this.dir, eid));
  }

  async get(eid: string, versionNumber?: number): Promise<Template> {
    if (!/^[A-Za-z0-9_-]+$/.test(eid)) throw notFound(eid, versionNumber);
    const folder = path.join(this.dir, eid);
    if (!existsSync(folder)) throw notFound(eid, versionNumber);
    const file = await this.#versionFile(folder, versionNumber);
    if (!file) throw notFound(eid, versionNumber);
    const key = path.join(folder, file);
    let pending = this.#cache.get(key);
    if (!pending) {
      pending = this.#load(eid, folder, file);
      this.#cache.set(key, pending);
      pending.catch(() => this.#cache.delete(key));
    }
    return pending;
  }

  async #versionFile(folder: string, versionNumber?: number): Promise<string | undefined> {
    const files = await readdir(folder);
    const published = files
      .map((f) => /^v(\d+)\.json$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]));
    const latest = published.length ? `v${Math.max(...published)}.json` : undefined;
    if (versionNumber === undefined || versionNumber === 0 || versionNumber === LATEST_PUBLISHED) return latest;
    if (versionNumber === WORKING_VERSION) return files.includes('working.json') ? 'working.json' : latest;
    return published.includes(versionNumber) ? `v${versionNumber}.json` : undefined;
  }

  async #load(eid: string, folder: string, file: string): Promise<Template> {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw ValidationError.of(
        'template',
        `Cannot read ${file} of template "${eid}": ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const pdfName = typeof json.pdf === 'string' ? json.pdf : 'template.pdf';
    const pdfPath = path.resolve(folder, pdfName);
    if (!pdfPath.startsWith(path.resolve(folder) + path.sep))
      throw ValidationError.of('template.pdf', 'The PDF must be inside the template folder');
    const pdf = new Uint8Array(await readFile(pdfPath));
    const versionMatch = /^v(\d+)\.json$/.exec(file);
    return parseTemplate({
      ...json,
      eid,
      pdf,
      versionNumber: versionMatch ? Number(versionMatch[1]) : WORKING_VERSION,
    });
  }
}

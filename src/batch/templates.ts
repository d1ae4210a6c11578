import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../errors/index.js';
import type { Engine } from '../engine/index.js';
import type { TemplateInput } from '../template/index.js';

/**
 * Template files named by jobs, read once per worker: a template JSON file
 * (`{eid?, title?, pdf: "file.pdf", style?, fields}`, the PDF relative to it) or
 * a fillable PDF turned into a template by its AcroForm. Given the engine that will fill them,
 * PDFs are read through it, so the engine's parse serves the import and every fill (one parse
 * per template, not two).
 */
export class TemplateFiles {
  readonly #cache = new Map<string, Promise<TemplateInput>>();

  readonly #baseDir: string;

  readonly #engine?: Pick<Engine, 'templateFromPdf'>;

  constructor(baseDir: string, engine?: Pick<Engine, 'templateFromPdf'>) {
    this.#baseDir = baseDir;
    this.#engine = engine;
  }

  /** True when the reference names a file rather than an EID of the template store. */
  static isFile(ref: string): boolean {
    return /\.(json|pdf)$/i.test(ref);
  }

  load(ref: string): Promise<TemplateInput> {
    const file = path.resolve(this.#baseDir, ref);
    let pending = this.#cache.get(file);
    if (!pending) {
      pending = this.#read(file);
      this.#cache.set(file, pending);
      pending.catch(() => this.#cache.delete(file));
    }
    return pending;
  }

  async #read(file: string): Promise<TemplateInput> {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      throw ValidationError.of('template', `Cannot read template file ${file}`);
    }
    if (/\.pdf$/i.test(file)) {
      const options = { eid: path.basename(file, path.extname(file)) };
      if (this.#engine) return this.#engine.templateFromPdf(new Uint8Array(bytes), options);
      const { templateFromPdf } = await import('../fields/index.js');
      return templateFromPdf(new Uint8Array(bytes), options);
    }
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw ValidationError.of('template', `Template file ${file} is not valid JSON`);
    }
    const pdfPath = path.resolve(
      path.dirname(file),
      typeof json.pdf === 'string' ? json.pdf : path.basename(file, '.json') + '.pdf',
    );
    let pdf: Buffer;
    try {
      pdf = await readFile(pdfPath);
    } catch {
      throw ValidationError.of('template.pdf', `Cannot read the template's PDF ${pdfPath}`);
    }
    return { eid: path.basename(file, '.json'), ...json, pdf: new Uint8Array(pdf) } as TemplateInput;
  }
}

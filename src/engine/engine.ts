import { decryptDataString } from '../crypto/index.js';
import { InvalidPdfError, NotFoundError, RenderError, ValidationError, type FieldError } from '../errors/index.js';
import { templateFromParsedPdf, type ImportedTemplate, type TemplateFromPdfOptions } from '../fields/index.js';
import { FillCache, fill, unknownDataKeys } from '../fill/index.js';
import { FontRegistry, RemoteFontCatalogue } from '../fonts/index.js';
import type { BrowserPool } from '../html/index.js';
import { ImageCache } from '../images/index.js';
import { reportingResolver, type ResourceProblem, type ResourceResolver } from '../resources/index.js';
import {
  collectFillRequest,
  fontFamilyRefs,
  parseFillRequest,
  parseGenerateRequest,
  rawGenerateFontRefs,
  type FillRequest,
  type GenerateRequest,
  type ParseOptions,
} from '../schema/index.js';
import { DEFAULT_LIMITS, type EngineServices, type Limits } from '../services/index.js';
import {
  DirectoryTemplateStore,
  parseTemplate,
  type Template,
  type TemplateInput,
  type TemplateStore,
  WORKING_VERSION,
} from '../template/index.js';
import { Shaper, SubsetCache, TextLayout } from '../text/index.js';
import { checkDataUrlBudget } from './data-url-budget.js';
import {
  collect,
  fontFamiliesIn,
  rendered,
  type EngineOptions,
  type FillCallOptions,
  type GenerateCallOptions,
  type RenderedPdf,
} from './options.js';

/**
 * Owns everything stateful — font registry, parsed-template cache, Chromium —
 * so the work itself stays in pure functions. Create one per process, close it when done.
 */
export class Engine {
  readonly limits: Limits;
  readonly #fonts: FontRegistry;
  /** Text work shared by every renderer of this engine: shaped runs and font subsets. */
  readonly #shaper = new Shaper();
  readonly #subsets = new SubsetCache();
  readonly #fillCache = new FillCache();
  /** Images prepared as PDF streams (the Markdown default logo, fill images shown again and again), by content. */
  readonly #images = new ImageCache();
  /** Validated templates by the object the caller passed: templates are immutable once handed over. */
  readonly #parsedTemplates = new WeakMap<object, Template>();
  readonly #store?: TemplateStore;
  readonly #options: EngineOptions;
  #pool?: Promise<BrowserPool>;
  #closed = false;

  /** Families from the catalogue URL (`fontCatalogue`), when fetching is on. */
  readonly #remoteFonts?: RemoteFontCatalogue;
  /** What every renderer of this engine is lent (see services.ts). */
  readonly #services: EngineServices;

  constructor(options: EngineOptions = {}) {
    this.#options = options;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    const catalogue = options.fontCatalogue;
    // The catalogue's cache is a font folder like any other: what was fetched once loads offline.
    this.#fonts = new FontRegistry(
      catalogue
        ? { ...options.fonts, directories: [...(options.fonts?.directories ?? []), catalogue.cacheDir] }
        : options.fonts,
    );
    if (catalogue && options.resolver)
      this.#remoteFonts = new RemoteFontCatalogue({ ...catalogue, resolver: options.resolver });
    this.#store =
      typeof options.templates === 'string' ? new DirectoryTemplateStore(options.templates) : options.templates;
    this.#services = {
      fonts: this.#fonts,
      text: new TextLayout(this.#fonts, { shaper: this.#shaper }),
      shaper: this.#shaper,
      subsets: this.#subsets,
      images: this.#images,
      limits: this.limits,
      clock: options.now ?? (() => new Date()),
      ...(options.timeZone !== undefined ? { timeZone: options.timeZone } : {}),
    };
  }

  /** The services with this call's resolver (which reports the call's resource problems). */
  #servicesFor(onProblem?: (problem: ResourceProblem) => void): EngineServices {
    const resolver = this.#resolverFor(onProblem);
    return resolver ? { ...this.#services, resolver } : this.#services;
  }

  /** Fills a template (object, or EID resolved through the template store) with a fill request body. */
  async fill(
    template: TemplateInput | Template | string,
    request: unknown,
    callOptions: FillCallOptions = {},
  ): Promise<Uint8Array> {
    return (await this.fillDocument(template, request, callOptions)).pdf;
  }

  /**
   * `fill`, with what callers need besides the bytes: the title written into the PDF (the
   * request's, else the template's), the page count, the validated outputFormat and the
   * resources that did not load.
   */
  async fillDocument(
    template: TemplateInput | Template | string,
    request: unknown,
    callOptions: FillCallOptions = {},
  ): Promise<RenderedPdf> {
    this.#assertOpen();
    await this.loadCatalogueFonts(request);
    // Every 400 of the request at once: the body's own problems, unknown fonts, the
    // template's fonts and, in fill(), each value against its field. The 404 of an unknown
    // template and the 413 of the data-URL budget come only when the body itself is fine.
    const { request: parsedRequest, errors } = collectFillRequest(request, this.#parseOptions());
    if (!parsedRequest) throw new ValidationError(errors);
    errors.push(...this.#fontErrors(parsedRequest));
    let resolved: Template;
    try {
      resolved = await this.#resolveTemplate(template, callOptions.versionNumber);
    } catch (e) {
      if (e instanceof ValidationError) throw new ValidationError([...errors, ...e.fields]);
      if (errors.length > 0) throw new ValidationError(errors);
      throw e;
    }
    try {
      // The budget counts the image fields' values only: which keys those are, the template says.
      checkDataUrlBudget(
        parsedRequest,
        this.limits.dataUrlTotalBytes,
        new Set(
          resolved.fields.filter((f) => f.type === 'imageFile').flatMap((f) => (f.alias ? [f.id, f.alias] : [f.id])),
        ),
      );
    } catch (e) {
      if (errors.length > 0) throw new ValidationError(errors);
      throw e;
    }
    await this.loadCatalogueFonts(resolved);
    resolved.fields.forEach((f, i) => {
      if (f.style?.fontFamily)
        errors.push(...this.#familyErrors(f.style.fontFamily, `template.fields[${i}].style.fontFamily`));
    });
    if (resolved.style?.fontFamily)
      errors.push(...this.#familyErrors(resolved.style.fontFamily, 'template.style.fontFamily'));
    // A key that names no field fills nothing: said as a warning, or a 400 on the key when asked.
    const unknownKeys = unknownDataKeys(resolved, parsedRequest);
    const strict = parsedRequest.strict === true || callOptions.strict === true;
    if (strict) errors.push(...unknownKeys);
    const problems: ResourceProblem[] = [];
    const out = await fill(resolved, parsedRequest, {
      services: this.#servicesFor(collect(problems, callOptions.onResourceProblem)),
      cache: this.#fillCache,
      ...(callOptions.signatureFields ? { signatureFields: callOptions.signatureFields } : {}),
      errors,
    });
    return rendered(out, parsedRequest.outputFormat, problems, strict ? [] : unknownKeys);
  }

  /**
   * Fetches the font families a request (or template) names that the registry does not know, from
   * the catalogue URL (`fontCatalogue`), so that validation finds them. Nothing without a catalogue
   * or a resolver; a family the catalogue does not have stays unknown (the usual 400). Call it
   * before `parseGenerate`/`parseFill` when validating ahead of rendering (the server does).
   */
  async loadCatalogueFonts(requestOrTemplate: unknown): Promise<void> {
    const remote = this.#remoteFonts;
    if (!remote) return;
    const unknown = fontFamiliesIn(requestOrTemplate).filter((f) => !this.#fonts.hasFamily(f));
    for (const family of unknown) {
      const files = await remote.fetchFamily(family);
      if (files.length > 0) this.#fonts.addCatalogueFiles(files);
    }
  }

  /** The template an EID names, as `fill` would use it (callers that read a template before filling it: packets). */
  async template(eid: string, versionNumber?: number): Promise<Template> {
    this.#assertOpen();
    return this.#resolveTemplate(eid, versionNumber);
  }

  /**
   * Whether the engine's template store holds `eid` (any version): the server asks it before the
   * organizations' own templates, so a template folder's EIDs fill without a database.
   */
  async hasTemplate(eid: string): Promise<boolean> {
    this.#assertOpen();
    const store = this.#store;
    if (!store) return false;
    if (store.has) return store.has(eid);
    try {
      await store.get(eid, WORKING_VERSION);
      return true;
    } catch (e) {
      if (e instanceof NotFoundError) return false;
      throw e;
    }
  }

  /**
   * A fillable PDF's form as a template (what `templateFromPdf` makes), read from the parse this
   * engine keeps for filling those bytes: a fill of the result does not parse the PDF again
   * (a cold `castpress fill form.pdf` parses it once).
   */
  async templateFromPdf(bytes: Uint8Array, options: TemplateFromPdfOptions = {}): Promise<ImportedTemplate> {
    this.#assertOpen();
    const prepared = await this.#fillCache.get(bytes).catch((e: unknown) => {
      // The fill cache names the input `template.pdf`; this call's input has its own name.
      if (e instanceof InvalidPdfError) throw new InvalidPdfError(e.message, options.property ?? 'pdf', { cause: e });
      throw e;
    });
    return templateFromParsedPdf(bytes, prepared.doc, options);
  }

  /** Generates a PDF from Markdown blocks or HTML/CSS (a generate request body). */
  async generate(request: unknown, callOptions: GenerateCallOptions = {}): Promise<Uint8Array> {
    return (await this.generateDocument(request, callOptions)).pdf;
  }

  /** `generate`, with the title, page count, validated outputFormat and resources that did not load. */
  async generateDocument(request: unknown, callOptions: GenerateCallOptions = {}): Promise<RenderedPdf> {
    this.#assertOpen();
    await this.loadCatalogueFonts(request);
    return this.renderGenerate(this.parseGenerate(request), callOptions);
  }

  /** `generateDocument` of a request `parseGenerate` already returned (the server validates before it renders). */
  async renderGenerate(parsed: GenerateRequest, callOptions: GenerateCallOptions = {}): Promise<RenderedPdf> {
    this.#assertOpen();
    if (parsed.type === 'html') {
      // Loaded on first use: Chromium's driver costs more to import than everything else together.
      const { renderHtmlDocument } = await import('../html/index.js');
      const problems: ResourceProblem[] = [];
      const onResourceProblem = collect(problems, callOptions.onResourceProblem);
      const out = await renderHtmlDocument(await this.#browser(), {
        html: parsed.data.html,
        css: parsed.data.css,
        title: parsed.title,
        page: parsed.page,
        ...(parsed.lang !== undefined ? { lang: parsed.lang } : {}),
        ...(parsed.pdfa !== undefined ? { pdfa: parsed.pdfa } : {}),
        ...(parsed.tagged !== undefined ? { tagged: parsed.tagged } : {}),
        onResourceProblem,
        htmlProperty: 'data.html',
        now: this.#services.clock(),
      });
      return rendered(out, parsed.outputFormat, problems);
    }
    // Loaded on first use, like HTML: a process that only fills never loads markdown-it.
    const { generateMarkdown } = await import('../markdown/index.js');
    const problems: ResourceProblem[] = [];
    const out = await generateMarkdown(parsed, this.#servicesFor(collect(problems, callOptions.onResourceProblem)));
    return rendered(
      { ...out, ...(parsed.title !== undefined ? { title: parsed.title } : {}) },
      parsed.outputFormat,
      problems,
    );
  }

  /**
   * Decrypts an encrypted `data` string with the engine's private key, as `fill` does; undefined
   * when the engine holds none. Callers that parse their own bodies with fill data (signature
   * packets' payloads) use the engine's key through it without seeing the key.
   */
  get decryptData(): ((data: string) => string) | undefined {
    const key = this.#options.privateKey;
    return key ? (data) => decryptDataString(data, key) : undefined;
  }

  /** Validates a fill body without rendering (the typed error, or the normalised request); without a template every key's image data URLs count against the budget. */
  parseFill(request: unknown): FillRequest {
    const parsed = parseFillRequest(request, this.#parseOptions());
    this.#checkFonts(parsed);
    checkDataUrlBudget(parsed, this.limits.dataUrlTotalBytes);
    return parsed;
  }

  /** Validates a generate body without rendering. */
  parseGenerate(request: unknown): GenerateRequest {
    let parsed: GenerateRequest;
    try {
      parsed = parseGenerateRequest(request, this.#parseOptions());
    } catch (e) {
      // Unknown fonts belong in the same 400 as the body's other problems.
      if (!(e instanceof ValidationError)) throw e;
      const reported = new Set(e.fields.map((f) => f.property));
      const fonts = rawGenerateFontRefs(request)
        .filter((ref) => !reported.has(ref.property))
        .flatMap((ref) => this.#familyErrors(ref.family, ref.property));
      throw fonts.length > 0 ? new ValidationError([...e.fields, ...fonts]) : e;
    }
    this.#checkFonts(parsed);
    return parsed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pool = this.#pool;
    this.#pool = undefined;
    await (await pool?.catch(() => undefined))?.close();
  }

  #parseOptions(): ParseOptions {
    const key = this.#options.privateKey;
    return key ? { decrypt: (s) => decryptDataString(s, key) } : {};
  }

  #checkFonts(request: FillRequest | GenerateRequest): void {
    const errors = this.#fontErrors(request);
    if (errors.length > 0) throw new ValidationError(errors);
  }

  #fontErrors(request: FillRequest | GenerateRequest): FieldError[] {
    return fontFamilyRefs(request).flatMap((ref) => this.#familyErrors(ref.family, ref.property));
  }

  /** The registry's 400 for an unknown family, as a list (empty when it is known). */
  #familyErrors(family: string, property: string): FieldError[] {
    try {
      this.#fonts.assertFamily(family, property);
      return [];
    } catch (e) {
      if (e instanceof ValidationError) return e.fields;
      throw e;
    }
  }

  /** The engine's resolver, reporting what does not load when the caller listens. */
  #resolverFor(onProblem: ((problem: ResourceProblem) => void) | undefined): ResourceResolver | undefined {
    return onProblem ? reportingResolver(this.#options.resolver, onProblem) : this.#options.resolver;
  }

  async #resolveTemplate(template: TemplateInput | Template | string, versionNumber?: number): Promise<Template> {
    if (typeof template !== 'string') {
      let parsed = this.#parsedTemplates.get(template);
      if (!parsed) {
        parsed = parseTemplate(template);
        this.#parsedTemplates.set(template, parsed);
      }
      return parsed;
    }
    // An EID nobody can resolve is an unknown template (404), whether or not a store exists.
    // The message names the command-line flag; the library option has the same name.
    if (!this.#store)
      throw new NotFoundError(
        `Template "${template}" not found: no templates folder is configured (start with --templates DIR)`,
      );
    return this.#store.get(template, versionNumber);
  }

  #browser(): Promise<BrowserPool> {
    this.#pool ??= import('../html/index.js').then(
      ({ BrowserPool }) =>
        new BrowserPool({
          ...this.#options.chromium,
          resolver: this.#options.resolver,
          maxResourceBytes: this.limits.imageBytes,
          fonts: this.#fonts,
        }),
    );
    return this.#pool;
  }

  #assertOpen(): void {
    if (this.#closed) throw new RenderError('The engine is closed', 503);
  }
}

export function createEngine(options: EngineOptions = {}): Engine {
  return new Engine(options);
}

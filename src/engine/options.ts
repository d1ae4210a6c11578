/** What an engine is made with, what its calls take and give back, and the small request helpers engine.ts uses (font families named in a body, collected resource problems). */
import { type KeyInput } from '../crypto/index.js';
import type { FieldError } from '../errors/index.js';
import { type FillSignatureField } from '../fill/index.js';
import { type FontRegistryOptions } from '../fonts/index.js';
import type { BrowserPoolOptions } from '../html/index.js';
import type { BlockPosition } from '../markdown/index.js';
import { type ResourceProblem, type ResourceResolver } from '../resources/index.js';
import { type Limits } from '../services/index.js';
import { type TemplateStore } from '../template/index.js';

export interface EngineOptions {
  /** Where `fill(eid, ...)` finds templates: a store, or a directory for DirectoryTemplateStore. */
  templates?: TemplateStore | string;
  /** RSA private key (PEM or KeyObject) for encrypted `data` strings. */
  privateKey?: KeyInput;
  /** Fetches remote images, fonts and stylesheets. Off by default: only data: URLs load. */
  resolver?: ResourceResolver;
  /**
   * Web-font catalogue names from a catalogue URL laid out like the Google Fonts repository
   * (`<url>/ofl/<family>/METADATA.pb`), fetched through `resolver` (needed) into `cacheDir`, which is
   * also scanned as a font folder, so fetched families stay available offline.
   */
  fontCatalogue?: { url: string; cacheDir: string; maxBytes?: number };
  fonts?: FontRegistryOptions;
  /** Headless Chromium for HTML mode (launched on first use). */
  chromium?: Omit<BrowserPoolOptions, 'resolver'>;
  limits?: Partial<Limits>;
  /** Clock for `includeTimestamp` (tests pin it). */
  now?: () => Date;
  /** Time zone of the printed timestamp; default UTC. */
  timeZone?: string;
}

export interface FillCallOptions {
  /** With an EID: omitted = latest published, -1 = working version. */
  versionNumber?: number;
  /** Told about every http(s) resource that did not load (the server logs it and sends a warning header). */
  onResourceProblem?: (problem: ResourceProblem) => void;
  /**
   * Empty signature fields (/FT /Sig) to write in the same update as the values: a packet's
   * signature and initial fields. Placed like template fields (points from the top-left of the
   * template page as shown); names must be unique and hold no period.
   */
  signatureFields?: readonly FillSignatureField[];
  /** A key of `data` that names no field is a 400 on it (`data.nmae`), as the request's `strict: true` makes it; default a warning in `warnings`. */
  strict?: boolean;
}

/** A rendered PDF with what callers need besides its bytes (engine.fillDocument, engine.generateDocument). */
export interface RenderedPdf {
  pdf: Uint8Array;
  pageCount: number;
  /** The title written into the PDF's metadata, if any. */
  title?: string;
  /** The request's validated outputFormat (default `pdf`): the server answers `url` with a link. */
  outputFormat: 'pdf' | 'url';
  /** http(s) resources that did not load (also reported to `onResourceProblem`), in every mode. */
  problems: ResourceProblem[];
  /**
   * What the caller may have got wrong without it being an error: keys of a fill's `data` that name
   * no field (`{property: "data.nmae", message: 'no field has the id or alias "nmae" (did you mean
   * "name"?)'}`). The server sends them as `X-Castpress-Warning` headers, the CLI on stderr. Empty
   * for generate requests (their `data` has no keys to miss).
   */
  warnings: FieldError[];
  /**
   * Markdown generate: where each request block with an `id` landed (page index from 0, rect in points
   * from the page's top-left corner; table blocks list their cells). Empty when no block has an id;
   * absent for fills and HTML.
   */
  blocks?: BlockPosition[];
}

export function rendered(
  out: { pdf: Uint8Array; pageCount: number; title?: string; blocks?: BlockPosition[] },
  outputFormat: 'pdf' | 'url' | undefined,
  problems: ResourceProblem[],
  warnings: FieldError[] = [],
): RenderedPdf {
  return { ...out, outputFormat: outputFormat ?? 'pdf', problems, warnings };
}

/** Every `fontFamily` string in a request body or template (a bounded walk: bodies are untrusted). */
export function fontFamiliesIn(value: unknown): string[] {
  const found = new Set<string>();
  let visited = 0;
  const walk = (v: unknown, depth: number): void => {
    if (
      depth > 8 ||
      visited++ > 10_000 ||
      found.size >= 20 ||
      v === null ||
      typeof v !== 'object' ||
      v instanceof Uint8Array
    )
      return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      if (key === 'fontFamily' && typeof item === 'string' && item !== '') found.add(item);
      else walk(item, depth + 1);
    }
  };
  walk(value, 0);
  return [...found];
}

/** Collects a call's resource problems and still tells the caller's callback. */
export function collect(
  into: ResourceProblem[],
  onProblem?: (problem: ResourceProblem) => void,
): (problem: ResourceProblem) => void {
  return (problem) => {
    into.push(problem);
    onProblem?.(problem);
  };
}

export interface GenerateCallOptions {
  /** As for fill: Markdown images and the logo; in HTML mode stylesheets, images and fonts (fetched through the engine's resolver). */
  onResourceProblem?: (problem: ResourceProblem) => void;
}

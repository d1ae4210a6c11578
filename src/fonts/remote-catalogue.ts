import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadResource, type ResourceResolver } from '../resources/index.js';

export interface RemoteCatalogueOptions {
  /** Base URL of a catalogue laid out like the Google Fonts repository: `<url>/ofl/<slug>/METADATA.pb` and the font files beside it. */
  url: string;
  /** Where fetched families are kept (same layout), read by the registry's scan on later starts. */
  cacheDir: string;
  /** The engine's resolver: the catalogue is fetched under the same address checks and allow-list as everything else. */
  resolver: ResourceResolver;
  /** Largest file accepted (bytes). Default 20 MB (CJK families are large). */
  maxBytes?: number;
}

/** The licence folders of the Google Fonts repository, in the order families are looked up. */
const LICENCE_DIRS = ['ofl', 'apache', 'ufl'];
/** A family name worth asking for: letters, digits, spaces and a few marks; nothing that could build a path. */
const FAMILY = /^[\p{L}\p{N} ._'&+-]{1,100}$/u;
/** A METADATA file name: no path, a TrueType or OpenType file. */
const FILE = /^[A-Za-z0-9_\-[\],.]{1,200}\.(ttf|otf)$/;
/** sfnt signatures fontkit reads: TrueType (0x00010000, 'true') and OpenType/CFF ('OTTO'). */
const SFNT = new Set([0x00010000, 0x74727565, 0x4f54544f]);

interface MetadataFont {
  style: string;
  weight: number;
  filename: string;
}

/** `name` and the `fonts { … }` entries of a METADATA.pb (protobuf text format; the fields used here only). */
export function parseMetadata(text: string): { name?: string; fonts: MetadataFont[] } {
  const unquote = (s: string) => s.replace(/\\(["\\])/g, '$1');
  const fonts: MetadataFont[] = [];
  for (const block of text.matchAll(/^fonts\s*\{([\s\S]*?)^\}/gm)) {
    const body = block[1] ?? '';
    const field = (key: string) => new RegExp(`^\\s*${key}:\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|(\\d+))`, 'm').exec(body);
    const style = field('style')?.[1];
    const weight = Number(field('weight')?.[2]);
    const filename = field('filename')?.[1];
    if (style !== undefined && Number.isFinite(weight) && filename !== undefined) fonts.push({ style: unquote(style), weight, filename: unquote(filename) });
  }
  const name = /^name:\s*"((?:[^"\\]|\\.)*)"/m.exec(text)?.[1];
  return name === undefined ? { fonts } : { name: unquote(name), fonts };
}

/** The files worth having for the four slots: nearest to 400 and to 700 (from 600), upright and italic. */
function slotFiles(fonts: MetadataFont[]): string[] {
  const chosen = new Set<string>();
  for (const italic of [false, true]) {
    const styled = fonts.filter((f) => (f.style === 'italic') === italic);
    for (const [target, bold] of [
      [400, false],
      [700, true],
    ] as const) {
      const pool = styled.filter((f) => (f.weight >= 600) === bold);
      const best = pool.sort((a, b) => Math.abs(a.weight - target) - Math.abs(b.weight - target))[0];
      if (best) chosen.add(best.filename);
    }
  }
  return [...chosen];
}

/**
 * Web-font catalogue names from a catalogue URL, with fetching on: a family the
 * registry does not know is looked up as `<url>/<ofl|apache|ufl>/<slug>/METADATA.pb`; when its
 * `name` is exactly the family asked for (case-sensitive, as every font name), the files of its
 * regular, bold and italic slots are fetched into `cacheDir` in the same layout and handed to the
 * registry. The cache is a catalogue folder: later starts read it with no network. A family that
 * is not found is not asked for again by this object.
 */
export class RemoteFontCatalogue {
  readonly #options: RemoteCatalogueOptions;
  readonly #pending = new Map<string, Promise<string[]>>();

  constructor(options: RemoteCatalogueOptions) {
    this.#options = { ...options, url: options.url.replace(/\/+$/, '') };
  }

  /** The font files of `family` now in the cache (fetched once per object), or [] when the catalogue has no such family. */
  fetchFamily(family: string): Promise<string[]> {
    if (!FAMILY.test(family)) return Promise.resolve([]);
    let pending = this.#pending.get(family);
    if (!pending) {
      pending = this.#fetch(family).catch(() => []);
      this.#pending.set(family, pending);
    }
    return pending;
  }

  async #fetch(family: string): Promise<string[]> {
    const { url, resolver, cacheDir } = this.#options;
    const maxBytes = this.#options.maxBytes ?? 20 * 1024 * 1024;
    const slug = family.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
    // Another engine (a worker thread, an earlier run) may have fetched it already: the cache first.
    for (const licence of LICENCE_DIRS) {
      const dir = join(cacheDir, licence, slug);
      const cached = await readFile(join(dir, 'METADATA.pb'), 'utf8').catch(() => undefined);
      if (cached === undefined) continue;
      const parsed = parseMetadata(cached);
      if (parsed.name !== family) continue;
      const files = slotFiles(parsed.fonts.filter((f) => FILE.test(f.filename))).map((f) => join(dir, f));
      const present = (await Promise.all(files.map((f) => access(f).then(() => f, () => undefined)))).filter((f): f is string => f !== undefined);
      if (present.length > 0) return present;
    }
    for (const licence of LICENCE_DIRS) {
      const base = `${url}/${licence}/${encodeURIComponent(slug)}`;
      const meta = await loadResource(`${base}/METADATA.pb`, 'other', resolver, { maxBytes: 1024 * 1024 });
      if (!meta) continue;
      const text = new TextDecoder().decode(meta.body);
      const parsed = parseMetadata(text);
      // Exact and case-sensitive: the slug folds case, the family name in the file does not.
      if (parsed.name !== family) continue;
      const files = slotFiles(parsed.fonts.filter((f) => FILE.test(f.filename)));
      const dir = join(cacheDir, licence, slug);
      await mkdir(dir, { recursive: true });
      const written: string[] = [];
      for (const filename of files) {
        // Kind `other`: a catalogue repository serves its files with no font content type
        // (raw.githubusercontent.com: application/octet-stream); the bytes are checked here instead.
        const res = await loadResource(`${base}/${encodeURIComponent(filename)}`, 'other', resolver, { maxBytes });
        if (!res || res.body.byteLength < 4) continue;
        const b = res.body;
        if (!SFNT.has(((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0)) continue;
        written.push(await writeAtomically(join(dir, filename), b));
      }
      if (written.length > 0) await writeAtomically(join(dir, 'METADATA.pb'), meta.body);
      return written;
    }
    return [];
  }
}

/** Whole files only: a crash mid-write must not leave a truncated font for the next start's scan. */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<string> {
  const tmp = `${path}.${process.pid}.${Date.now()}.partial`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
  return path;
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fontkit, { type Font, type FontCollection } from '@cantoo/fontkit';
import { ValidationError } from '../errors/index.js';
import { listFontFiles, scanFiles, slotOf, type Catalogue } from './catalogue.js';
import { bundledFontsDir, DEFAULT_SYSTEM_FONT_DIRS, firstExisting, LIBERATION_DIRS, NOTO_CJK_DIR, NOTO_CORE_DIR } from './paths.js';
import { EMOJI_FALLBACK_FILES, GENERAL_FALLBACKS, scriptFontFor } from './script-ranges.js';
import { readFaceInfos } from './sfnt-info.js';
import type { FaceSource, FontRegistryOptions, FontWeight } from './types.js';

/** A face ready to shape and embed. One object per (source, synthesis) per registry. */
export interface ResolvedFace {
  /** Stable key: a TextSetter embeds one PDF font per id. */
  readonly id: string;
  readonly family: string;
  /** fontkit font, parsed once per registry and shared by every document. */
  readonly font: Font;
  /** The weight asked for has no face of its own: draw with a stroke to embolden. */
  readonly syntheticBold: boolean;
  /** No italic face: draw skewed. */
  readonly syntheticItalic: boolean;
}

export type CjkLanguage = 'sc' | 'tc' | 'jp' | 'kr';

type Slots = Map<FontWeight, FaceSource>;

const NOTO_SANS = 'Noto Sans';
const CJK_FAMILIES: Record<CjkLanguage, string> = {
  sc: 'Noto Sans CJK SC',
  tc: 'Noto Sans CJK TC',
  jp: 'Noto Sans CJK JP',
  kr: 'Noto Sans CJK KR',
};
/** The standard names are backed by metric-compatible Liberation faces (see README.md). */
const STANDARD_NAMES: Record<string, string> = {
  Courier: 'LiberationMono',
  Helvetica: 'LiberationSans',
  'Times New Roman': 'LiberationSerif',
};
const FILE_SUFFIX: Record<FontWeight, string> = {
  normal: 'Regular',
  bold: 'Bold',
  italic: 'Italic',
  boldItalic: 'BoldItalic',
};

/**
 * fontkit caches one glyph object per id and keeps the characters it was first
 * created with. Subsetting and composite outlines create glyphs with none, and a
 * later layout of real text would then hand back a glyph that maps to no text in
 * the PDF's ToUnicode. Fill the characters in when a layout supplies them.
 */
function keepGlyphText(font: Font): void {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id: number, characters: number[] = []) => {
    const glyph = getGlyph(id, characters);
    if (glyph && characters.length > 0 && glyph.codePoints.length === 0) glyph.codePoints = characters;
    return glyph;
  };
}

const isBold = (w: FontWeight): boolean => w === 'bold' || w === 'boldItalic';
const isItalic = (w: FontWeight): boolean => w === 'italic' || w === 'boldItalic';

/** Which existing slot to use for a requested weight, best first. */
const SUBSTITUTES: Record<FontWeight, FontWeight[]> = {
  normal: ['normal', 'italic', 'bold', 'boldItalic'],
  bold: ['bold', 'normal', 'boldItalic', 'italic'],
  italic: ['italic', 'normal', 'boldItalic', 'bold'],
  boldItalic: ['boldItalic', 'bold', 'italic', 'normal'],
};

/**
 * The engine's font catalogue. Cheap to construct: bundled and system font files
 * are located, scanned and parsed lazily, and every parse is kept for the life
 * of the registry (never at module level).
 */
export class FontRegistry {
  readonly #options: FontRegistryOptions;
  #builtins: Map<string, Slots> | undefined;
  #catalogue: Catalogue | undefined;
  readonly #files = new Map<string, Font | FontCollection>();
  readonly #fonts = new Map<string, Font>();
  readonly #faces = new Map<string, ResolvedFace>();
  /** fonts-noto-core file per (base name, bold?), null when not installed. */
  readonly #notoCore = new Map<string, FaceSource | null>();
  /** The emoji fallback files that are installed (looked up once). */
  #emojiFiles: string[] | undefined;

  constructor(options: FontRegistryOptions = {}) {
    this.#options = {
      directories: [...(options.directories ?? [])],
      files: [...(options.files ?? [])],
      systemDirectories: [...(options.systemDirectories ?? DEFAULT_SYSTEM_FONT_DIRS)],
    };
  }

  /** Exact, case-sensitive. Looks at bundled and registered families first; scans the catalogue only if needed. */
  hasFamily(family: string): boolean {
    if (typeof family !== 'string' || family === '') return false;
    return this.#slots(family) !== undefined;
  }

  families(): string[] {
    const names = new Set<string>([...this.#builtinSlots().keys(), ...this.#scannedCatalogue().keys()]);
    return [...names].sort();
  }

  /** Throws ValidationError [{property, message: `Unknown font "X"`}] when unknown. */
  assertFamily(family: string, property: string): void {
    if (!this.hasFamily(family)) throw ValidationError.of(property, `Unknown font "${String(family)}"`);
  }

  /** The face to draw `family` at `weight` with, synthesising bold/italic only when no such face exists. */
  resolve(family: string, weight: FontWeight): ResolvedFace {
    const slots = this.#slots(family);
    if (!slots) throw ValidationError.of('fontFamily', `Unknown font "${family}"`);
    return this.#pick(family, slots, weight);
  }

  /** Noto Sans CJK in the given language, or undefined when fonts-noto-cjk is not installed. */
  cjk(language: CjkLanguage, weight: FontWeight): ResolvedFace | undefined {
    const family = CJK_FAMILIES[language];
    const slots = this.#builtinSlots().get(family);
    return slots ? this.#pick(family, slots, weight) : undefined;
  }

  /** Noto Sans at the given weight (always present: bundled). */
  notoSans(weight: FontWeight): ResolvedFace {
    return this.resolve(NOTO_SANS, weight);
  }

  /**
   * The fonts-noto-core face for the script of `cp` (Hebrew, Arabic, Devanagari,
   * Malayalam, ...: see script-ranges.ts), or undefined when `cp` is in no such
   * block or the font is not installed. The file is parsed when `.font` is read.
   */
  scriptFace(cp: number, weight: FontWeight): ResolvedFace | undefined {
    const base = scriptFontFor(cp);
    return base === undefined ? undefined : this.#notoCoreFace(base, weight);
  }

  /** Math, symbol, music and emoji fonts, tried in order for what no script block claims. */
  generalFallbacks(weight: FontWeight): Array<() => ResolvedFace> {
    const faces: Array<() => ResolvedFace> = [];
    for (const base of GENERAL_FALLBACKS) {
      if (this.#notoCoreSource(base, weight)) faces.push(() => this.#notoCoreFace(base, weight)!);
    }
    for (const path of (this.#emojiFiles ??= EMOJI_FALLBACK_FILES.filter((p) => existsSync(p)))) {
      faces.push(() => this.#face({ path }, path, isBold(weight), isItalic(weight)));
    }
    return faces;
  }

  #notoCoreSource(base: string, weight: FontWeight): FaceSource | undefined {
    const key = `${base}${isBold(weight) ? '+b' : ''}`;
    let source = this.#notoCore.get(key);
    if (source === undefined) {
      const path = firstExisting([
        join(NOTO_CORE_DIR, `${base}-${isBold(weight) ? 'Bold' : 'Regular'}.ttf`),
        join(NOTO_CORE_DIR, `${base}-Regular.ttf`),
      ]);
      source = path ? { path } : null;
      this.#notoCore.set(key, source);
    }
    return source ?? undefined;
  }

  #notoCoreFace(base: string, weight: FontWeight): ResolvedFace | undefined {
    const source = this.#notoCoreSource(base, weight);
    if (!source) return undefined;
    const faceBold = /-Bold\.ttf$/.test(source.path);
    return this.#face(source, source.path, isBold(weight) && !faceBold, isItalic(weight));
  }

  /** Looks a face up by the id it was handed out with. */
  faceById(id: string): ResolvedFace | undefined {
    return this.#faces.get(id);
  }

  #slots(family: string): Slots | undefined {
    return this.#builtinSlots().get(family) ?? this.#scannedCatalogue().get(family);
  }

  #pick(family: string, slots: Slots, weight: FontWeight): ResolvedFace {
    for (const slot of SUBSTITUTES[weight]) {
      const source = slots.get(slot);
      if (!source) continue;
      return this.#face(source, family, isBold(weight) && !isBold(slot), isItalic(weight) && !isItalic(slot));
    }
    throw ValidationError.of('fontFamily', `Font "${family}" has no usable face`);
  }

  #face(source: FaceSource, family: string, syntheticBold: boolean, syntheticItalic: boolean): ResolvedFace {
    const id = `${source.path}#${source.postscriptName ?? ''}${syntheticBold ? '+b' : ''}${syntheticItalic ? '+i' : ''}`;
    let face = this.#faces.get(id);
    if (!face) {
      const registry = this;
      let font: Font | undefined;
      face = {
        id,
        family,
        syntheticBold,
        syntheticItalic,
        get font(): Font {
          return (font ??= registry.#load(source));
        },
      };
      this.#faces.set(id, face);
    }
    return face;
  }

  #load(source: FaceSource): Font {
    const key = `${source.path}#${source.postscriptName ?? ''}`;
    const cached = this.#fonts.get(key);
    if (cached) return cached;
    let parsed = this.#files.get(source.path);
    if (!parsed) {
      parsed = fontkit.create(readFileSync(source.path));
      this.#files.set(source.path, parsed);
    }
    let font: Font | null;
    if ('fonts' in parsed && !('layout' in parsed)) {
      const collection = parsed as FontCollection;
      font = source.postscriptName ? collection.getFont(source.postscriptName) : (collection.fonts[0] ?? null);
    } else {
      font = parsed as Font;
    }
    if (!font) throw new Error(`castpress: face ${source.postscriptName ?? ''} not found in ${source.path}`);
    keepGlyphText(font);
    this.#fonts.set(key, font);
    return font;
  }

  /** Bundled Noto Sans, the standard names, Noto CJK/script families and caller-registered files. */
  #builtinSlots(): Map<string, Slots> {
    if (this.#builtins) return this.#builtins;
    const map = new Map<string, Slots>();
    const dir = bundledFontsDir();
    const noto: Slots = new Map();
    for (const w of Object.keys(FILE_SUFFIX) as FontWeight[]) noto.set(w, { path: join(dir, `NotoSans-${FILE_SUFFIX[w]}.ttf`) });
    map.set(NOTO_SANS, noto);

    for (const [name, base] of Object.entries(STANDARD_NAMES)) {
      const slots: Slots = new Map();
      for (const w of Object.keys(FILE_SUFFIX) as FontWeight[]) {
        const path = firstExisting(LIBERATION_DIRS.map((d) => join(d, `${base}-${FILE_SUFFIX[w]}.ttf`)));
        if (path) slots.set(w, { path });
      }
      // Without Liberation the name still works, drawn with Noto Sans (documented).
      map.set(name, slots.size > 0 ? slots : noto);
    }

    for (const lang of Object.keys(CJK_FAMILIES) as CjkLanguage[]) {
      const slots: Slots = new Map();
      const regular = join(NOTO_CJK_DIR, 'NotoSansCJK-Regular.ttc');
      const bold = join(NOTO_CJK_DIR, 'NotoSansCJK-Bold.ttc');
      if (existsSync(regular)) slots.set('normal', { path: regular, postscriptName: `NotoSansCJK${lang}-Regular` });
      if (existsSync(bold)) slots.set('bold', { path: bold, postscriptName: `NotoSansCJK${lang}-Bold` });
      if (slots.size > 0) map.set(CJK_FAMILIES[lang], slots);
    }

    for (const file of this.#options.files ?? []) {
      let family = file.family;
      let slot = file.weight;
      let postscriptName: string | undefined;
      if (!family || !slot) {
        let info;
        try {
          info = readFaceInfos(file.path)[0];
        } catch (e) {
          throw ValidationError.of('fonts.files', `Cannot read font file ${file.path}: ${(e as Error).message}`);
        }
        if (!info) throw ValidationError.of('fonts.files', `Not a TrueType/OpenType font: ${file.path}`);
        family ??= info.family;
        slot ??= slotOf(info.weightClass, info.italic);
        postscriptName = info.postscriptName;
      }
      let slots = map.get(family);
      if (!slots || slots === noto) map.set(family, (slots = new Map(slots === noto ? [] : slots)));
      slots.set(slot, postscriptName ? { path: file.path, postscriptName } : { path: file.path });
    }
    this.#builtins = map;
    return map;
  }

  #scannedCatalogue(): Catalogue {
    if (!this.#catalogue) {
      const dirs = [...(this.#options.directories ?? []), ...(this.#options.systemDirectories ?? [])];
      this.#catalogue = scanFiles(listFontFiles(dirs));
    }
    return this.#catalogue;
  }
}

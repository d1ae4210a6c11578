import { existsSync, readFileSync } from 'node:fs';
import fontkit, { type Font, type FontCollection } from '@cantoo/fontkit';
import { ValidationError } from '../errors/index.js';
import { listFontFiles, scanFiles, slotOf, type Catalogue } from './catalogue.js';
import { listFontPackages, scanFontPackages } from './packages.js';
import { isWoff2, woff2ToSfnt } from './woff2.js';
import { CJK_FAMILIES, EngineFaces, MissingFontError, NOTO_SANS, PACKAGE_FONT_DIR, type CjkLanguage, type EngineFace } from './engine-faces.js';
import { bundledFontsDir, defaultSystemFontDirs, envFontPackages } from './paths.js';
import { GENERAL_FALLBACKS, scriptFontFor } from './script-ranges.js';
import { readFaceInfos } from './sfnt-info.js';
import { readPostHeaderLazily } from './post-header.js';
import { offlineCatalogue } from './offline-catalogue.js';
import type { FaceSource, FontRegistryOptions, FontWeight } from './types.js';

export type { CjkLanguage } from './engine-faces.js';

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
  /** The same design's other files for this slot (a web-font package's subsets), tried in order before the fallbacks; parsed when read. */
  readonly siblings: readonly ResolvedFace[];
}

/** A face to load: a caller's or scanned file, or one of the engine's own (EngineFace, checked on load). */
type Source = FaceSource | EngineFace;
type Slots = Map<FontWeight, Source>;

const isEngineFace = (s: Source): s is EngineFace => 'source' in s && 'role' in s;

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
  #offline: Map<string, Slots> | undefined;
  #callerCatalogue: Catalogue | undefined;
  #systemCatalogue: Catalogue | undefined;
  readonly #files = new Map<string, Font | FontCollection>();
  readonly #fonts = new Map<string, Font>();
  readonly #faces = new Map<string, ResolvedFace>();
  /** fonts-noto-core face per (base name, bold?): the Bold file when the package has one, else the Regular. */
  readonly #notoCore = new Map<string, EngineFace>();
  #engine: EngineFaces | undefined;

  constructor(options: FontRegistryOptions = {}) {
    this.#options = {
      directories: [...(options.directories ?? [])],
      files: [...(options.files ?? [])],
      packages: [...(options.packages ?? []), ...envFontPackages()],
      systemDirectories: [...(options.systemDirectories ?? defaultSystemFontDirs())],
      ...(options.packageFontDir === undefined ? {} : { packageFontDir: options.packageFontDir }),
    };
  }

  #engineFaces(): EngineFaces {
    return (this.#engine ??= new EngineFaces(bundledFontsDir(), this.#options.packageFontDir));
  }

  /**
   * Start-up check: the engine's own faces (engine-faces.ts) and the offline catalogue's
   * (offline-catalogue.ts) that are missing or are not the face they should be, each as a
   * MissingFontError naming file, PostScript name and package. Empty after scripts/setup.sh.
   * Reads each file's name table only (~150 files, a few KB each).
   */
  missingEngineFaces(): MissingFontError[] {
    const out: MissingFontError[] = [];
    const catalogueFaces = [...this.#offlineSlots().values()].flatMap((slots) => [...slots.values()].filter(isEngineFace));
    for (const face of [...this.#engineFaces().all(), ...catalogueFaces]) {
      const problem = checkFace(face);
      if (problem) out.push(new MissingFontError(face, problem));
    }
    return out;
  }

  /** Exact, case-sensitive. Looks at bundled and registered families first; scans the catalogue only if needed. */
  hasFamily(family: string): boolean {
    if (typeof family !== 'string' || family === '') return false;
    return this.#slots(family) !== undefined;
  }

  families(): string[] {
    const names = new Set<string>([
      ...this.#builtinSlots().keys(),
      ...this.#callerScan().keys(),
      ...this.#offlineSlots().keys(),
      ...this.#systemScan().keys(),
    ]);
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

  /** Noto Sans CJK in the given language (fonts-noto-cjk; loading it throws MissingFontError when absent). */
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
   * block. The file is parsed when `.font` is read; a missing one throws MissingFontError.
   */
  scriptFace(cp: number, weight: FontWeight): ResolvedFace | undefined {
    const base = scriptFontFor(cp);
    return base === undefined ? undefined : this.#notoCoreFace(base, weight);
  }

  /** Math, symbol, music and emoji fonts, tried in order for what no script block claims. */
  generalFallbacks(weight: FontWeight): Array<() => ResolvedFace> {
    const faces: Array<() => ResolvedFace> = GENERAL_FALLBACKS.map((base) => () => this.#notoCoreFace(base, weight));
    const emoji = this.#engineFaces().emoji();
    faces.push(() => this.#face(emoji, emoji.path, isBold(weight), isItalic(weight)));
    return faces;
  }

  #notoCoreFace(base: string, weight: FontWeight): ResolvedFace {
    const bold = isBold(weight);
    const key = `${base}${bold ? '+b' : ''}`;
    let source = this.#notoCore.get(key);
    if (!source) {
      // The Bold file only where fonts-noto-core ships one; the Regular is the required face.
      const boldFace = bold ? this.#engineFaces().notoCore(base, true) : undefined;
      source = boldFace && existsSync(boldFace.path) ? boldFace : this.#engineFaces().notoCore(base, false);
      this.#notoCore.set(key, source);
    }
    const faceBold = source.postscriptName.endsWith('-Bold');
    return this.#face(source, source.path, bold && !faceBold, isItalic(weight));
  }

  /** Looks a face up by the id it was handed out with. */
  faceById(id: string): ResolvedFace | undefined {
    return this.#faces.get(id);
  }

  /**
   * Precedence: the engine's own and caller files > caller packages and directories > the offline
   * catalogue (exact files) > the system scan, so a family the catalogue has never needs the scan
   * and never comes from whatever else is installed.
   */
  #slots(family: string): Slots | undefined {
    return (
      this.#builtinSlots().get(family) ??
      this.#callerScan().get(family) ??
      this.#offlineSlots().get(family) ??
      this.#systemScan().get(family)
    );
  }

  #offlineSlots(): Map<string, Slots> {
    return (this.#offline ??= offlineCatalogue(this.#options.packageFontDir ?? PACKAGE_FONT_DIR));
  }

  #pick(family: string, slots: Slots, weight: FontWeight): ResolvedFace {
    for (const slot of SUBSTITUTES[weight]) {
      const source = slots.get(slot);
      if (!source) continue;
      return this.#face(source, family, isBold(weight) && !isBold(slot), isItalic(weight) && !isItalic(slot));
    }
    throw ValidationError.of('fontFamily', `Font "${family}" has no usable face`);
  }

  #face(source: Source, family: string, syntheticBold: boolean, syntheticItalic: boolean): ResolvedFace {
    const id = `${source.path}#${source.postscriptName ?? ''}${syntheticBold ? '+b' : ''}${syntheticItalic ? '+i' : ''}`;
    let face = this.#faces.get(id);
    if (!face) {
      const registry = this;
      let font: Font | undefined;
      let siblings: ResolvedFace[] | undefined;
      face = {
        id,
        family,
        syntheticBold,
        syntheticItalic,
        get font(): Font {
          return (font ??= registry.#load(source));
        },
        get siblings(): readonly ResolvedFace[] {
          return (siblings ??= (('siblings' in source && source.siblings) || []).map((path) => registry.#face({ path }, family, syntheticBold, syntheticItalic)));
        },
      };
      this.#faces.set(id, face);
    }
    return face;
  }

  #load(source: Source): Font {
    const key = `${source.path}#${source.postscriptName ?? ''}`;
    const cached = this.#fonts.get(key);
    if (cached) return cached;
    let parsed = this.#files.get(source.path);
    if (!parsed) {
      if (isEngineFace(source) && !existsSync(source.path)) throw new MissingFontError(source);
      const bytes = readFileSync(source.path);
      // WOFF2 is rebuilt into the TrueType it encodes: fontkit cannot subset WOFF2's transformed glyf (woff2.ts).
      parsed = fontkit.create(isWoff2(bytes) ? Buffer.from(woff2ToSfnt(bytes)) : bytes);
      this.#files.set(source.path, parsed);
    }
    let font: Font | null;
    if ('fonts' in parsed && !('layout' in parsed)) {
      const collection = parsed as FontCollection;
      font = source.postscriptName ? collection.getFont(source.postscriptName) : (collection.fonts[0] ?? null);
    } else {
      font = parsed as Font;
    }
    if (isEngineFace(source) && font?.postscriptName !== source.postscriptName) {
      throw new MissingFontError(source, `holds ${font?.postscriptName ?? 'no such face'} instead`);
    }
    if (!font) throw new Error(`castpress: face ${source.postscriptName ?? ''} not found in ${source.path}`);
    keepGlyphText(font);
    readPostHeaderLazily(font);
    this.#fonts.set(key, font);
    return font;
  }

  /**
   * The engine's own families (Noto Sans, the standard names, Noto Sans Mono, Noto Sans CJK:
   * exact files, engine-faces.ts; never a substitute when one is missing) and caller-registered files.
   */
  #builtinSlots(): Map<string, Slots> {
    if (this.#builtins) return this.#builtins;
    const map = new Map<string, Slots>();
    for (const { family, slots } of this.#engineFaces().families()) map.set(family, new Map(slots));

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
      if (!slots) map.set(family, (slots = new Map()));
      slots.set(slot, postscriptName ? { path: file.path, postscriptName } : { path: file.path });
    }
    this.#builtins = map;
    return map;
  }

  /**
   * Adds font files found after start (a remote catalogue's downloads) to the scanned catalogue:
   * their families resolve from now on. The bundled and caller-registered families still win.
   */
  addCatalogueFiles(paths: string[]): void {
    const catalogue = this.#callerScan();
    for (const [family, slots] of scanFiles(paths)) {
      const known = catalogue.get(family);
      catalogue.set(family, known ? new Map([...known, ...slots]) : slots);
    }
  }

  /** The caller's directories and npm font packages (a package names its family on purpose: it wins over a file). */
  #callerScan(): Catalogue {
    if (!this.#callerCatalogue) {
      const catalogue = scanFiles(listFontFiles(this.#options.directories ?? []));
      for (const [family, slots] of scanFontPackages(listFontPackages(this.#options.packages ?? []))) catalogue.set(family, slots);
      this.#callerCatalogue = catalogue;
    }
    return this.#callerCatalogue;
  }

  #systemScan(): Catalogue {
    return (this.#systemCatalogue ??= scanFiles(listFontFiles(this.#options.systemDirectories ?? [])));
  }
}

/** Why an engine face is unusable, or undefined when its file holds the face it should. */
function checkFace(face: EngineFace): string | undefined {
  if (!existsSync(face.path)) return 'is missing';
  let names: Array<string | undefined>;
  try {
    names = readFaceInfos(face.path).map((i) => i.nameId6);
  } catch (e) {
    return `cannot be read (${(e as Error).message})`;
  }
  return names.includes(face.postscriptName) ? undefined : `holds ${names.join(', ') || 'no named face'} instead`;
}

import { join } from 'node:path';
import { EMOJI_FALLBACK_FILE, GENERAL_FALLBACKS, scriptFontNames } from './script-ranges.js';
import type { FontWeight } from './types.js';

/**
 * Every face the engine chooses by itself (defaults, the standard names, the code
 * font, per-script and symbol fallbacks, emoji), each by exact file and PostScript
 * name, with where it comes from. Nothing here is looked up by family name on the
 * system: a machine with other fonts installed draws exactly the same glyphs, and
 * a machine without one of these files gets a MissingFontError naming the file and
 * the Debian package (scripts/setup.sh installs them all).
 */
export interface EngineFace {
  /** What the engine uses it for, for the diagnostic. */
  role: string;
  path: string;
  postscriptName: string;
  /** `bundled` (fonts/ of this package) or the Debian package that installs the file. */
  source: string;
}

/** Debian's font root; FontRegistryOptions.packageFontDir replaces it (tests). */
export const PACKAGE_FONT_DIR = '/usr/share/fonts';

const SUFFIX: Record<FontWeight, string> = { normal: 'Regular', bold: 'Bold', italic: 'Italic', boldItalic: 'BoldItalic' };
const WEIGHTS = Object.keys(SUFFIX) as FontWeight[];

/** The standard names are backed by metric-compatible Liberation 2 faces (README.md: why Liberation). */
const STANDARD_NAMES: Record<string, string> = {
  Courier: 'LiberationMono',
  Helvetica: 'LiberationSans',
  'Times New Roman': 'LiberationSerif',
};
export const NOTO_SANS = 'Noto Sans';
/** Markdown's code font (src/markdown/style.ts asks for it by this name). */
const NOTO_SANS_MONO = 'Noto Sans Mono';

export type CjkLanguage = 'sc' | 'tc' | 'jp' | 'kr';
export const CJK_FAMILIES: Record<CjkLanguage, string> = {
  sc: 'Noto Sans CJK SC',
  tc: 'Noto Sans CJK TC',
  jp: 'Noto Sans CJK JP',
  kr: 'Noto Sans CJK KR',
};

export interface EngineFamily {
  family: string;
  slots: Map<FontWeight, EngineFace>;
}

/** Where the engine's files live for one bundled directory and one Debian font root. */
export class EngineFaces {
  readonly #bundled: string;
  readonly #root: string;

  constructor(bundledDir: string, packageFontDir: string = PACKAGE_FONT_DIR) {
    this.#bundled = bundledDir;
    this.#root = packageFontDir;
  }

  /** The families the engine knows without a scan: Noto Sans, the standard names, Noto Sans Mono, Noto Sans CJK. */
  families(): EngineFamily[] {
    const out: EngineFamily[] = [];
    const noto = new Map<FontWeight, EngineFace>();
    for (const w of WEIGHTS) {
      noto.set(w, { role: `${NOTO_SANS} ${w} (default face, first fallback)`, path: join(this.#bundled, `NotoSans-${SUFFIX[w]}.ttf`), postscriptName: `NotoSans-${SUFFIX[w]}`, source: 'bundled' });
    }
    out.push({ family: NOTO_SANS, slots: noto });
    for (const [name, base] of Object.entries(STANDARD_NAMES)) {
      const slots = new Map<FontWeight, EngineFace>();
      // Liberation's regular faces are named without a suffix (LiberationSans).
      for (const w of WEIGHTS) {
        slots.set(w, { role: `${name} ${w}`, path: join(this.#root, 'truetype/liberation2', `${base}-${SUFFIX[w]}.ttf`), postscriptName: w === 'normal' ? base : `${base}-${SUFFIX[w]}`, source: 'fonts-liberation2' });
      }
      out.push({ family: name, slots });
    }
    const mono = new Map<FontWeight, EngineFace>();
    for (const w of ['normal', 'bold'] as const) {
      mono.set(w, { role: `${NOTO_SANS_MONO} ${w} (Markdown code)`, path: join(this.#root, 'truetype/noto', `NotoSansMono-${SUFFIX[w]}.ttf`), postscriptName: `NotoSansMono-${SUFFIX[w]}`, source: 'fonts-noto-mono' });
    }
    out.push({ family: NOTO_SANS_MONO, slots: mono });
    for (const lang of Object.keys(CJK_FAMILIES) as CjkLanguage[]) {
      const slots = new Map<FontWeight, EngineFace>();
      for (const w of ['normal', 'bold'] as const) {
        const file = `NotoSansCJK-${SUFFIX[w]}.ttc`;
        slots.set(w, { role: `${CJK_FAMILIES[lang]} ${w} (CJK fallback)`, path: join(this.#root, 'opentype/noto', file), postscriptName: `NotoSansCJK${lang}-${SUFFIX[w]}`, source: 'fonts-noto-cjk' });
      }
      out.push({ family: CJK_FAMILIES[lang], slots });
    }
    return out;
  }

  /**
   * A fonts-noto-core fallback face by base name (NotoSansHebrew): the Regular file, and
   * the Bold file too for bold when the package has one (`bold` = false: Regular only).
   */
  notoCore(base: string, bold: boolean): EngineFace {
    const suffix = bold ? 'Bold' : 'Regular';
    return { role: `${base} (fallback for its script or symbols)`, path: join(this.#root, 'truetype/noto', `${base}-${suffix}.ttf`), postscriptName: `${base}-${suffix}`, source: 'fonts-noto-core' };
  }

  /** Emoji drawn as outlines, after every other fallback. */
  emoji(): EngineFace {
    return { role: 'Symbola (emoji and remaining symbols)', path: join(this.#root, EMOJI_FALLBACK_FILE), postscriptName: 'Symbola', source: 'fonts-symbola' };
  }

  /** Every required file (the Regular of each fallback; Bold files are used when present). */
  all(): EngineFace[] {
    const faces = this.families().flatMap((f) => [...f.slots.values()]);
    const bases = [...new Set([...scriptFontNames(), ...GENERAL_FALLBACKS])].sort();
    faces.push(...bases.map((b) => this.notoCore(b, false)), this.emoji());
    const seen = new Set<string>();
    return faces.filter((f) => {
      const key = `${f.path}#${f.postscriptName}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}

/** A face the engine needs is not installed (or is not the face it should be). */
export class MissingFontError extends Error {
  override readonly name = 'MissingFontError';
  readonly face: EngineFace;

  constructor(face: EngineFace, problem = 'is missing') {
    const from = face.source === 'bundled' ? 'the package is incomplete (fonts/)' : `install Debian package ${face.source} (bash scripts/setup.sh)`;
    super(`castpress: font file ${face.path} (PostScript ${face.postscriptName}, for ${face.role}) ${problem}: ${from}`);
    this.face = face;
  }
}

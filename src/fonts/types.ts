export type FontWeight = 'normal' | 'bold' | 'italic' | 'boldItalic';

export const FONT_WEIGHTS: readonly FontWeight[] = ['normal', 'bold', 'italic', 'boldItalic'];

export interface FontRegistryOptions {
  /** Extra directories scanned for .ttf/.otf/.ttc/.woff/.woff2 files (catalogue fonts by family name). */
  directories?: string[];
  /**
   * Font packages installed from npm (`@fontsource/<id>`, their WOFF files): a package folder, or a
   * folder holding `@fontsource/*` such as a project's `node_modules`. Families by the package
   * metadata's exact name.
   */
  packages?: string[];
  /** Extra single files, registered under their family name (or the one given). */
  files?: Array<{ path: string; family?: string; weight?: FontWeight }>;
  /**
   * System font directories scanned for catalogue families. Defaults to the
   * usual Linux locations; pass [] to see only bundled and registered fonts.
   */
  systemDirectories?: string[];
  /**
   * Root of Debian's font packages, where the engine's own faces (Liberation, Noto Sans Mono,
   * Noto CJK, fonts-noto-core, Symbola) are found by exact file (default /usr/share/fonts).
   */
  packageFontDir?: string;
}

/** Where one face lives: a file, and for a collection (.ttc) the face's PostScript name. */
export interface FaceSource {
  path: string;
  postscriptName?: string;
  /**
   * Files of the same design and slot covering other characters (a web-font package's subsets:
   * latin-ext, cyrillic, greek, …), tried before the engine's fallbacks.
   */
  siblings?: readonly string[];
}

export type FontWeight = 'normal' | 'bold' | 'italic' | 'boldItalic';

export const FONT_WEIGHTS: readonly FontWeight[] = ['normal', 'bold', 'italic', 'boldItalic'];

export interface FontRegistryOptions {
  /** Extra directories scanned for .ttf/.otf/.ttc files (catalogue fonts by family name). */
  directories?: string[];
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
}

import { join } from 'node:path';
import { PACKAGE_FONT_DIR, type EngineFace } from './engine-faces.js';
import type { FontWeight } from './types.js';

/**
 * The offline font catalogue: the most used web-font families, each slot an exact file of a
 * pinned Debian package (scripts/setup.sh installs them) with its PostScript name, so a family
 * named in a request draws the same glyphs on every machine, whatever else is installed. The
 * licence of each package is Debian's /usr/share/doc/<package>/copyright (fonts/README.md).
 */
interface CatalogueEntry {
  family: string;
  /** Debian package and the version the files were checked against. */
  package: string;
  /** Folder under the Debian font root. */
  dir: string;
  /** Slot → [file, PostScript name]. Missing slots are synthesised like any family's. */
  faces: Partial<Record<FontWeight, readonly [string, string]>>;
}

/** Regular, Bold, Italic, BoldItalic files named `<base>-<Suffix>.<ext>` with the same PostScript names. */
function four(base: string, ext: string, slots: readonly FontWeight[] = ['normal', 'bold', 'italic', 'boldItalic']) {
  const suffix: Record<FontWeight, string> = { normal: 'Regular', bold: 'Bold', italic: 'Italic', boldItalic: 'BoldItalic' };
  return Object.fromEntries(slots.map((w) => [w, [`${base}-${suffix[w]}.${ext}`, `${base}-${suffix[w]}`] as const]));
}

/** Package versions the table was checked against (Debian bookworm); the files' PostScript names are verified on load. */
export const CATALOGUE_PACKAGES: Record<string, string> = {
  'fonts-roboto-unhinted': '2:0~20170802-3',
  'fonts-roboto-slab': '1.100263+20170512-2',
  'fonts-open-sans': '1.11-2',
  'fonts-lato': '2.0-2.1',
  'fonts-firacode': '6.2-2',
  'fonts-dejavu-core': '2.37-6',
  'fonts-noto-core': '20201225-1',
  'fonts-liberation2': '2.1.5-1',
};

const ENTRIES: readonly CatalogueEntry[] = [
  { family: 'Roboto', package: 'fonts-roboto-unhinted', dir: 'truetype/roboto/unhinted/RobotoTTF', faces: four('Roboto', 'ttf') },
  { family: 'Roboto Condensed', package: 'fonts-roboto-unhinted', dir: 'truetype/roboto/unhinted', faces: four('RobotoCondensed', 'ttf') },
  { family: 'Roboto Slab', package: 'fonts-roboto-slab', dir: 'opentype/roboto/slab', faces: four('RobotoSlab', 'otf', ['normal', 'bold']) },
  {
    family: 'Open Sans',
    package: 'fonts-open-sans',
    dir: 'truetype/open-sans',
    // The regular face's PostScript name has no suffix.
    faces: { ...four('OpenSans', 'ttf'), normal: ['OpenSans-Regular.ttf', 'OpenSans'] },
  },
  { family: 'Lato', package: 'fonts-lato', dir: 'truetype/lato', faces: four('Lato', 'ttf') },
  { family: 'Fira Code', package: 'fonts-firacode', dir: 'truetype/firacode', faces: four('FiraCode', 'ttf', ['normal', 'bold']) },
  ...(['Sans', 'Serif', 'Sans Mono'] as const).map((kind) => {
    const base = `DejaVu${kind.replace(' ', '')}`;
    return { family: `DejaVu ${kind}`, package: 'fonts-dejavu-core', dir: 'truetype/dejavu', faces: { normal: [`${base}.ttf`, base], bold: [`${base}-Bold.ttf`, `${base}-Bold`] } } as const;
  }),
  { family: 'Noto Serif', package: 'fonts-noto-core', dir: 'truetype/noto', faces: four('NotoSerif', 'ttf') },
  ...(['Sans', 'Serif', 'Mono'] as const).map((kind) => {
    const base = `Liberation${kind}`;
    // Liberation's regular faces are named without a suffix, like the standard names' (engine-faces.ts).
    return { family: `Liberation ${kind}`, package: 'fonts-liberation2', dir: 'truetype/liberation2', faces: { ...four(base, 'ttf'), normal: [`${base}-Regular.ttf`, base] } } as const;
  }),
];

/** The catalogue's families for one Debian font root: family → slot → exact face (checked on load like the engine's own). */
export function offlineCatalogue(packageFontDir: string): Map<string, Map<FontWeight, EngineFace>> {
  const out = new Map<string, Map<FontWeight, EngineFace>>();
  for (const entry of ENTRIES) {
    const slots = new Map<FontWeight, EngineFace>();
    for (const [slot, face] of Object.entries(entry.faces) as Array<[FontWeight, readonly [string, string]]>) {
      slots.set(slot, { role: `${entry.family} ${slot} (offline catalogue)`, path: join(packageFontDir, entry.dir, face[0]), postscriptName: face[1], source: entry.package });
    }
    out.set(entry.family, slots);
  }
  return out;
}

/** One face of the offline catalogue, with its family and slot (HTML mode serves these files to Chromium). */
export interface CatalogueFace extends EngineFace {
  family: string;
  weight: FontWeight;
}

/** Every face of the offline catalogue, in table order. */
export function catalogueFaces(packageFontDir: string = PACKAGE_FONT_DIR): CatalogueFace[] {
  return [...offlineCatalogue(packageFontDir)].flatMap(([family, slots]) => [...slots].map(([weight, face]) => ({ ...face, family, weight })));
}

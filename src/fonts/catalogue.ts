import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { readFaceInfos, type FaceInfo } from './sfnt-info.js';
import type { FaceSource, FontWeight } from './types.js';

// WOFF and WOFF2 too: the registry loads them (WOFF2 rebuilt into TrueType, woff2.ts), and a catalogue checkout of
// web fonts often has only those.
const FONT_EXTENSIONS = new Set(['.ttf', '.otf', '.ttc', '.woff', '.woff2']);
const MAX_FILES = 20_000;

interface Candidate {
  source: FaceSource;
  distance: number;
}

/** Families found on disk: family name → the best face for each of the four slots that exist. */
export type Catalogue = Map<string, Map<FontWeight, FaceSource>>;

export function slotOf(weightClass: number, italic: boolean): FontWeight {
  const bold = weightClass >= 600;
  if (italic) return bold ? 'boldItalic' : 'italic';
  return bold ? 'bold' : 'normal';
}

export function listFontFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    if (depth > 8 || out.length >= MAX_FILES || seen.has(dir)) return;
    seen.add(dir);
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      const full = join(dir, name);
      let isDir = false;
      let isFile = false;
      try {
        const st = statSync(full);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch {
        continue;
      }
      if (isDir) walk(full, depth + 1);
      else if (isFile && FONT_EXTENSIONS.has(extname(name).toLowerCase())) out.push(full);
    }
  };
  for (const d of dirs) walk(d, 0);
  return out;
}

export function scanFiles(files: string[]): Catalogue {
  const candidates = new Map<string, Map<FontWeight, Candidate>>();
  const offer = (family: string, info: FaceInfo): void => {
    if (!family) return;
    const slot = slotOf(info.weightClass, info.italic);
    const target = slot === 'bold' || slot === 'boldItalic' ? 700 : 400;
    const distance = Math.abs(info.weightClass - target);
    let slots = candidates.get(family);
    if (!slots) candidates.set(family, (slots = new Map()));
    const prev = slots.get(slot);
    if (!prev || distance < prev.distance) {
      const source: FaceSource = info.postscriptName ? { path: info.path, postscriptName: info.postscriptName } : { path: info.path };
      slots.set(slot, { source, distance });
    }
  };
  for (const file of files) {
    let infos: FaceInfo[];
    try {
      infos = readFaceInfos(file);
    } catch {
      continue; // unreadable or not really a font: not part of the catalogue
    }
    for (const info of infos) {
      offer(info.family, info);
      if (info.legacyFamily !== info.family) offer(info.legacyFamily, info);
    }
  }
  const catalogue: Catalogue = new Map();
  for (const [family, slots] of candidates) {
    catalogue.set(family, new Map([...slots].map(([slot, c]) => [slot, c.source])));
  }
  return catalogue;
}

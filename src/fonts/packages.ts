/**
 * Font packages installed from npm as a catalogue source: Fontsource's
 * `@fontsource/<id>` packages, the web-font catalogue's families one package each.
 * A package holds `metadata.json` (`family`, `id`, `subsets`, `weights`, `styles`,
 * `defSubset`) and `files/<id>-<subset>-<weight>-<style>.woff2` and `.woff`: every
 * face is split into subset files by script (latin, latin-ext, cyrillic, greek, …).
 * The family name is the metadata's `family`, the catalogue's exact name.
 *
 * The `.woff` (WOFF 1.0) file of a face is used, parsed by fontkit like any font; a face with
 * only `.woff2` uses that, rebuilt into TrueType first (woff2.ts: fontkit's subsetter cannot
 * embed WOFF2's transformed glyphs).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalogue } from './catalogue.js';
import type { FaceSource, FontWeight } from './types.js';

interface FontsourceMetadata {
  id: string;
  family: string;
  subsets: string[];
  weights: number[];
  styles: string[];
  defSubset?: string;
}

function readMetadata(dir: string): FontsourceMetadata | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  if (typeof m.id !== 'string' || !/^[a-z0-9-]+$/.test(m.id) || typeof m.family !== 'string' || m.family === '') return undefined;
  return {
    id: m.id,
    family: m.family,
    subsets: strings(m.subsets),
    weights: Array.isArray(m.weights) ? m.weights.filter((w): w is number => Number.isInteger(w)) : [],
    styles: strings(m.styles),
    ...(typeof m.defSubset === 'string' ? { defSubset: m.defSubset } : {}),
  };
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Package folders under `roots`: a root that is a package itself (it has metadata.json), or a
 * folder holding `@fontsource/*` (a node_modules folder). `@fontsource-variable/*` packages hold
 * variable fonts only (one `wght` file per subset); they are not read: named instances would need
 * instancing that fontkit does not do for embedding.
 */
export function listFontPackages(roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    if (existsSync(join(root, 'metadata.json'))) {
      out.push(root);
      continue;
    }
    const scope = join(root, '@fontsource');
    if (!isDir(scope)) continue;
    for (const name of readdirSync(scope).sort()) {
      const dir = join(scope, name);
      if (isDir(dir)) out.push(dir);
    }
  }
  return out;
}

/** The weight for a slot: regular slots take the weight nearest 400 below 600, bold ones nearest 700 from 600 (slotOf's line). */
function weightFor(weights: readonly number[], bold: boolean): number | undefined {
  const target = bold ? 700 : 400;
  const fitting = weights.filter((w) => (bold ? w >= 600 : w < 600));
  // Equal distance: the heavier one (500 over 300 for regular, as CSS's matching prefers for 400 → 500 first).
  return fitting.sort((a, b) => Math.abs(a - target) - Math.abs(b - target) || b - a)[0];
}

function faceFile(dir: string, id: string, subset: string, weight: number, style: string): string | undefined {
  for (const ext of ['woff', 'woff2']) {
    const file = join(dir, 'files', `${id}-${subset}-${weight}-${style}.${ext}`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

const SLOTS: ReadonlyArray<[FontWeight, boolean, string]> = [
  ['normal', false, 'normal'],
  ['bold', true, 'normal'],
  ['italic', false, 'italic'],
  ['boldItalic', true, 'italic'],
];

/**
 * The families of the packages: per slot, the default subset's file (latin) as the face, and
 * the other subsets' files as its `siblings`, tried in metadata order for characters the first
 * lacks (Cyrillic, Greek, Vietnamese of the same design) before the engine's fallbacks.
 */
export function scanFontPackages(dirs: readonly string[]): Catalogue {
  const catalogue: Catalogue = new Map();
  for (const dir of dirs) {
    const meta = readMetadata(dir);
    if (!meta || catalogue.has(meta.family)) continue;
    const slots = new Map<FontWeight, FaceSource>();
    for (const [slot, bold, style] of SLOTS) {
      if (!meta.styles.includes(style)) continue;
      const weight = weightFor(meta.weights, bold);
      if (weight === undefined) continue;
      const order = [...new Set([meta.defSubset ?? 'latin', ...meta.subsets])];
      const files = order.map((subset) => faceFile(dir, meta.id, subset, weight, style)).filter((f): f is string => f !== undefined);
      if (files.length === 0) continue;
      const [path, ...siblings] = files as [string, ...string[]];
      slots.set(slot, siblings.length > 0 ? { path, siblings } : { path });
    }
    if (slots.size > 0) catalogue.set(meta.family, slots);
  }
  return catalogue;
}

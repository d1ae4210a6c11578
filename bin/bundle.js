// Which code a castpress process or thread starts from (issue 29). The esbuild bundles
// (dist/bundle/, `node scripts/bundle.mjs`, run by `npm run build` and `npm test`) start
// several times faster than the sources through tsx or tsc's dist/ (hundreds of files).
// In a checkout they are used only while they are newer than every file they are built
// from, so an edited, pulled or checked-out source always runs as it is now.
// CommonJS, as all of bin/ (bin/package.json, bin/castpress.js).
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const root = join(__dirname, '..');

/** What a bundle is built from besides src/: a change to any of them makes it stale. */
const INPUTS = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'scripts/bundle.mjs',
  'scripts/bundle-seams.mjs',
];

/**
 * The file URL of dist/bundle/<name> when it may run: always in an installed package (no src/), in a
 * checkout only when it is newer than every file it was built from. Undefined otherwise.
 * Those files are the sources the build read (dist/bundle/<name>.sources, written with the bundle from
 * esbuild's list of its inputs) and INPUTS: an edited source the bundle holds makes it stale, one it
 * does not (a server file, for the fill's file) does not, and a source it holds that is gone, or no
 * list at all (an older build), makes it stale too. Statting those files only, rather than every file
 * under src/, runs before every command: a cold fill's freshness check cost 28 M instructions
 * walking src/ (bench/README.md, session 11).
 */
function freshBundle(name) {
  const file = join(root, 'dist', 'bundle', name);
  if (!existsSync(file)) return undefined;
  if (!existsSync(join(root, 'src'))) return pathToFileURL(file).href;
  let sources;
  try {
    sources = readFileSync(`${file}.sources`, 'latin1').split('\n');
  } catch {
    return undefined;
  }
  const built = statSync(file).mtimeMs;
  for (const input of INPUTS) {
    const stats = statSync(join(root, input), { throwIfNoEntry: false });
    if (stats && stats.mtimeMs > built) return undefined;
  }
  // Paths joined as strings (path.join normalises each one, half of a walk's time in an earlier profile).
  for (const source of sources) {
    if (source === '') continue;
    const stats = statSync(`${root}/${source}`, { throwIfNoEntry: false });
    if (!stats || stats.mtimeMs > built) return undefined;
  }
  return pathToFileURL(file).href;
}

/**
 * Commands with a CommonJS file of their own, dist/bundle/castpress-<command>.cjs: `fill`, the command
 * run once per process (half the size of the whole CLI's file, its code cache a sixth smaller: a cold
 * W-9 fill -10 % CPU, bench/README.md), and `worker`, started often (a deployment scales workers
 * up and down), whose file also holds BullMQ and ioredis so that its code cache covers them (scripts/bundle.mjs).
 * Here because the bin ships without scripts/; scripts/bundle.mjs, which builds the files, reads it from here.
 */
const OWN_SCRIPT_COMMANDS = ['fill', 'worker'];

exports.freshBundle = freshBundle;
exports.OWN_SCRIPT_COMMANDS = OWN_SCRIPT_COMMANDS;

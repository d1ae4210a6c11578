// Which code a castpress process or thread starts from (issue 29). The esbuild bundles
// (dist/bundle/, `node scripts/bundle.mjs`, run by `npm run build` and `npm test`) start
// several times faster than the sources through tsx or tsc's dist/ (hundreds of files).
// In a checkout they are used only while they are newer than every file they are built
// from, so an edited, pulled or checked-out source always runs as it is now.
// CommonJS, as all of bin/ (bin/package.json, bin/castpress.js).
'use strict';
const { existsSync, readdirSync, statSync } = require('node:fs');
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

function newestSource(src) {
  let newest = 0;
  // Runs before every command: paths joined as strings (path.join normalises each one, half
  // of this walk's time in a profile of `castpress fill`), only the files a bundle is built from.
  for (const entry of readdirSync(src, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(?:[cm]?[jt]s|json)$/.test(entry.name)) continue;
    const mtime = statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  for (const file of INPUTS) {
    const full = join(root, file);
    if (existsSync(full)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The file URL of dist/bundle/<name> when it may run: always in an installed package (no src/),
 * in a checkout only when it is newer than every source. Undefined otherwise.
 */
function freshBundle(name) {
  const file = join(root, 'dist', 'bundle', name);
  if (!existsSync(file)) return undefined;
  const src = join(root, 'src');
  if (existsSync(src) && statSync(file).mtimeMs < newestSource(src)) return undefined;
  return pathToFileURL(file).href;
}

/**
 * Commands with a CommonJS file of their own, dist/bundle/castpress-<command>.cjs: `fill`, the command
 * run once per process. Half the size of the whole CLI's file, its code cache is a sixth smaller: a
 * cold W-9 fill -10 % CPU (bench/README.md, h-cold9). Here because the bin ships without scripts/;
 * scripts/bundle.mjs, which builds the files, reads it from here.
 */
const OWN_SCRIPT_COMMANDS = ['fill'];

exports.freshBundle = freshBundle;
exports.OWN_SCRIPT_COMMANDS = OWN_SCRIPT_COMMANDS;

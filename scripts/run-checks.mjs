#!/usr/bin/env node
/**
 * `npm test`'s checks before vitest, run side by side. Each check is single-threaded (tsc,
 * prettier, TypeDoc, dependency-cruiser), so one after the other they would leave a core idle for
 * about a minute of every run. Here as many run at once as the machine has cores; each one's output is printed
 * whole when it ends (never interleaved), and the run fails, naming them, if any check failed. The
 * order below is the order they start in: the longest first, so the last to end is a short one.
 *   node scripts/run-checks.mjs            all checks
 *   node scripts/run-checks.mjs --list     the checks' names and commands
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** [name, command, args]: the checks, longest first (CPU seconds at idle, 28 Nov 2026, in the comments). */
export const CHECKS = [
  ['tsc', 'tsc', ['-p', 'tsconfig.json', '--noEmit']], // ~24 s: sources, tests, bench, scripts
  ['format:check', 'prettier', ['--check', '--log-level', 'warn', '.']], // ~19 s
  ['docs:check', 'typedoc', ['--emit', 'none']], // ~10 s (type errors are tsc's: skipErrorChecking)
  ['lint:deps', 'depcruise', ['src', '--config', '.dependency-cruiser.cjs']], // ~5 s: the floors
  ['tsc page', 'tsc', ['-p', 'tsconfig.page.json']], // ~4 s: code that runs in browser pages
  ['bundle', 'node', ['scripts/bundle.mjs']], // the CLI's bundles, which tests run
  ['page code', 'node', ['scripts/generate-page-code.mjs', '--check']], // generated page bundles up to date
  ['test clock', 'bash', ['scripts/check-test-clock.sh']], // no absolute-time assertion in test/
];

function runOne([name, command, args]) {
  return new Promise((resolve) => {
    const started = performance.now();
    // The project's own tools first on PATH, as npm scripts have them (this also runs outside npm).
    const PATH = [path.join(root, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter);
    const child = spawn(command, args, { cwd: root, env: { ...process.env, PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    const done = (code, error) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString() + (error ? `${error.message}\n` : '');
      resolve({ name, ok: code === 0, seconds, text });
    };
    child.on('error', (error) => done(1, error));
    child.on('close', (code) => done(code));
  });
}

async function main() {
  if (process.argv.includes('--list')) {
    for (const [name, command, args] of CHECKS) console.log(`${name}: ${command} ${args.join(' ')}`);
    return;
  }
  const lanes = Math.max(1, Math.min(CHECKS.length, os.availableParallelism()));
  const queue = [...CHECKS];
  const failed = [];
  const lane = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      const result = await runOne(check);
      if (result.text.trim()) process.stdout.write(`\n--- ${result.name} ---\n${result.text}`);
      console.log(`checks: ${result.name} ${result.ok ? 'passed' : 'FAILED'} (${result.seconds} s)`);
      if (!result.ok) failed.push(result.name);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failed.length > 0) {
    console.error(`checks: failed: ${failed.join(', ')}`);
    process.exit(1);
  }
}

await main();

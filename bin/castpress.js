#!/usr/bin/env node
// The castpress command. Runs the build (dist/, made by `npm run build`, which
// scripts/setup.sh runs); in a checkout without it, the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli/index.js', import.meta.url);
let main;
if (existsSync(built)) {
  ({ main } = await import(built.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(new URL('../src/cli/index.ts', import.meta.url).href));
}
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;

#!/usr/bin/env node
// The castpress command. In a checkout (src/ is present) it runs the TypeScript
// sources through tsx, so an edited src/ is what runs, whatever an old dist/ holds.
// An installed package ships no src/ and runs its build (dist/, `npm run build`).
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/index.ts', import.meta.url);
let main;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import(new URL('../dist/cli/index.js', import.meta.url).href));
}
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;

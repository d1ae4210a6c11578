// tsc compiles .ts only: copy the plain-JS worker bootstrap beside the compiled worker.
import { copyFileSync, mkdirSync } from 'node:fs';
mkdirSync(new URL('../dist/batch/', import.meta.url), { recursive: true });
copyFileSync(
  new URL('../src/batch/worker-entry.mjs', import.meta.url),
  new URL('../dist/batch/worker-entry.mjs', import.meta.url),
);

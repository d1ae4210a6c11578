// Preloaded with `node --import` (test/cli-startup.test.ts): writes every module the process
// loads to the file named by CASTPRESS_MODULE_LOG, one URL or path a line: ES modules as the
// loader hooks see them load, CommonJS files from require's cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const log = process.env.CASTPRESS_MODULE_LOG;
if (log) {
  register(new URL('./module-log-hooks.mjs', import.meta.url), { data: { log } });
  const require = createRequire(import.meta.url);
  process.on('exit', () =>
    appendFileSync(
      log,
      Object.keys(require.cache)
        .map((f) => `${f}\n`)
        .join(''),
    ),
  );
}

// Preloaded with `node --import` (test/cli-startup.test.ts): writes the names of Node's built-in
// modules the process loaded (`net`, `internal/…`), however they were loaded (require, import, or by
// Node itself), to the file named by CASTPRESS_BUILTINS_LOG when it exits. Apart from
// module-log.mjs, whose loader hooks start a thread that loads `net` itself when stderr is a pipe.
import { writeFileSync } from 'node:fs';

const log = process.env.CASTPRESS_BUILTINS_LOG;
if (log)
  process.on('exit', () =>
    writeFileSync(
      log,
      process.moduleLoadList
        .filter((m) => m.startsWith('NativeModule '))
        .map((m) => `${m.slice('NativeModule '.length)}\n`)
        .join(''),
    ),
  );

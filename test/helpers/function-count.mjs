// Preloaded with `node --import` (test/cli-once-schemas.test.ts): counts the functions the process
// makes from source text at run time (`new Function(...)`, `Function(...)`, as zod's compiled parsers
// are made) and writes the count to the file named by CASTPRESS_FUNCTION_COUNT when the process exits.
import { writeFileSync } from 'node:fs';

const file = process.env.CASTPRESS_FUNCTION_COUNT;
if (file) {
  let made = 0;
  const counted = new Proxy(Function, {
    construct(target, args, newTarget) {
      made++;
      return Reflect.construct(target, args, newTarget === counted ? target : newTarget);
    },
    apply(target, self, args) {
      made++;
      return Reflect.apply(target, self, args);
    },
  });
  globalThis.Function = counted;
  process.on('exit', () => writeFileSync(file, String(made)));
}

// Loader hooks of test/helpers/module-log.mjs: each ES module's URL, as it loads.
import { appendFileSync } from 'node:fs';

let log;
export function initialize(data) {
  log = data.log;
}

export async function load(url, context, next) {
  appendFileSync(log, `${url}\n`);
  return next(url, context);
}

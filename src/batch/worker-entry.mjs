// Worker bootstrap of every castpress pool (batch, queue worker, the server's render pool).
// It loads, in this order: the esbuild bundle dist/bundle/worker-entry.mjs when it is newer
// than every source (bin/bundle.js; a thread then starts from one file and a few chunks);
// beside the compiled build (dist/batch/), the compiled worker; from the TypeScript sources
// (tests, `tsx`), the sources through tsx, registered in this thread.
const here = new URL('.', import.meta.url);
const { freshBundle } = await import(new URL('../../bin/bundle.js', here).href);
const bundle = freshBundle('worker-entry.mjs');
let mod;
if (bundle) {
  mod = await import(bundle);
} else {
  try {
    mod = await import(new URL('./worker.js', here).href);
  } catch {
    const { register } = await import('tsx/esm/api');
    register();
    mod = await import(new URL('./worker.ts', here).href);
  }
}
export default mod.default;
export const closeWorker = mod.closeWorker;
export const warm = mod.warm;
export const render = mod.render;
export const request = mod.request;
export const packet = mod.packet;
export const json = mod.json;
export const template = mod.template;

// Worker bootstrap: from the TypeScript sources (tests, `tsx`) register tsx in
// this thread before loading the worker; from the build, load the compiled one.
const here = new URL('.', import.meta.url);
const compiled = new URL('./worker.js', here);
let mod;
try {
  mod = await import(compiled.href);
} catch {
  const { register } = await import('tsx/esm/api');
  register();
  mod = await import(new URL('./worker.ts', here).href);
}
export default mod.default;
export const closeWorker = mod.closeWorker;
export const warm = mod.warm;
export const render = mod.render;
export const request = mod.request;
export const packet = mod.packet;
export const json = mod.json;

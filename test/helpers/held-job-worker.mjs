// Worker module for RenderPool's `workerFile` option (src/server/pool/render-pool.ts): jobs the test controls
// (test/helpers/held-jobs.ts). Every request with a title reports its start on a BroadcastChannel (with its
// thread's id); one whose title is `held:<mode>:<id>` (or a packet assembly whose packet is named so) reports it
// under `id`, then:
//   - `spin`: keeps its core busy forever, as a runaway layout would; only the pool ending its thread stops it;
//   - `wait`: waits (idle) until the test posts `{ release: id }`, then renders its body for real.
// Every other job goes to the real worker entry, which each thread loads as it starts and then reports as
// `{ ready: threadId }` (a test waits for that event, not for a number of seconds, before giving a job a short
// deadline). Plain JavaScript: a pool thread loads this module without tsx.
import { threadId } from 'node:worker_threads';

export const HELD_CHANNEL = 'castpress-held-jobs';

const channel = new BroadcastChannel(HELD_CHANNEL);
channel.unref();

/** @type {Promise<Record<string, (task: unknown) => Promise<unknown>>> | undefined} */
let real;
const entry = () => (real ??= import(new URL('../../src/batch/worker-entry.mjs', import.meta.url).href));
// Loaded before the thread takes its first job: an idle piscina thread waits for work in Atomics.wait, its
// event loop stopped, so a load left to run in the background would not progress. Reported once done.
await entry();
channel.postMessage({ ready: threadId });

/** @param {unknown} title */
function held(title) {
  if (typeof title !== 'string' || !title.startsWith('held:')) return undefined;
  const [, mode, id] = title.split(':');
  return { mode, id };
}

/**
 * Resolves once the test posts `{ release: id }`. Its channel is open when this returns: a BroadcastChannel
 * gets only the messages posted after it was made, so a job makes it before it reports its start.
 */
function released(id) {
  const listener = new BroadcastChannel(HELD_CHANNEL);
  return new Promise((resolve) => {
    listener.onmessage = (event) => {
      if (event.data?.release !== id) return;
      listener.close();
      resolve(undefined);
    };
  });
}

/**
 * Reports a held job's start, then holds it: `spin` never returns, `wait` returns once released. A `wait` job
 * listens for its release before it reports its start, since the test releases it as soon as it sees the start.
 */
async function hold(job) {
  const release = job.mode === 'wait' ? released(job.id) : undefined;
  channel.postMessage({ started: job.id, threadId });
  if (job.mode === 'spin') for (;;);
  await release;
}

export async function request(task) {
  // A generate job carries the request the server validated (`request`) or a body (`body`).
  const title = (task?.request ?? task?.body)?.title;
  const job = held(title);
  // Every titled job reports its start (a test can wait for a real job to be running, too).
  if (job) await hold(job);
  else if (typeof title === 'string') channel.postMessage({ started: title, threadId });
  return (await entry()).request(task);
}

/** A packet's assembly is held when the packet's name is `held:<mode>:<id>` (`heldPacketName`); other steps run. Other named assemblies report their start under the name. */
export async function packet(task) {
  const name = task?.step === 'assemble' ? task?.body?.name : undefined;
  const job = held(name);
  if (job) await hold(job);
  // Every named assembly reports its start, as titled requests do.
  else if (typeof name === 'string') channel.postMessage({ started: name, threadId });
  return (await entry()).packet(task);
}

export async function json(task) {
  return (await entry()).json(task);
}

export async function template(task) {
  return (await entry()).template(task);
}

export default async function runTask(task) {
  return (await entry()).default(task);
}

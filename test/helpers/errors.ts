import { CastpressError } from '../../src/errors/index.js';

/** Runs `fn` and returns the castpress error it throws; fails the test when it throws nothing or something else. */
export function errorOf<E extends CastpressError = CastpressError>(fn: () => unknown): E {
  try {
    fn();
  } catch (e) {
    if (e instanceof CastpressError) return e as E;
    throw e;
  }
  throw new Error('expected a castpress error');
}

/** Awaits `p` and returns the castpress error it rejects with; fails the test when it resolves or rejects with something else. */
export async function rejectionOf<E extends CastpressError = CastpressError>(p: Promise<unknown>): Promise<E> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CastpressError) return e as E;
    throw e;
  }
  throw new Error('expected a castpress error');
}

/** The status and first property of what `p` settles to: 200 when it resolves (font and catalogue tests compare many at once). */
export async function statusOf(p: Promise<unknown>): Promise<{ status: number; property?: string }> {
  try {
    await p;
    return { status: 200 };
  } catch (e) {
    if (!(e instanceof CastpressError)) throw e;
    return { status: e.status, property: e.fields[0]?.property };
  }
}

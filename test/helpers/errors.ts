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

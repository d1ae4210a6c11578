/**
 * Which keys a cache admits: a key offered for the second time. Keys seen once are
 * remembered as 32-bit hashes in a fixed table, so remembering them allocates nothing
 * for the garbage collector; a key whose slot another key took since is seen once again,
 * and a hash collision admits a key early. Both only keep or drop one value early.
 */
export class SecondSight {
  readonly #slots: Uint32Array;

  /** `slots`: how many keys are remembered at most, rounded up to a power of two. */
  constructor(slots = 1 << 14) {
    this.#slots = new Uint32Array(2 ** Math.ceil(Math.log2(Math.max(2, slots))));
  }

  /** Whether `key` was offered before (and its slot still holds it); remembers it either way. */
  seen(key: string): boolean {
    const h = fnv1a(key);
    const slot = h & (this.#slots.length - 1);
    if (this.#slots[slot] === h) return true;
    this.#slots[slot] = h;
    return false;
  }
}

/** 32-bit FNV-1a of the string's UTF-16 units, never 0 (0 marks an empty slot). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}

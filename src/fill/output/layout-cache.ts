import { SecondSight, type LaidLine, type TextStyle } from '../../text/index.js';

/**
 * Laid-out lines do not depend on the document they are drawn into (runs name
 * their face by registry id), so an engine keeps them across fills: repeated
 * values (check marks, digits, labels) are shaped once per engine, not per fill.
 * Bounded; least recently used entries go first.
 *
 * A value is kept on its second sight only. Most of what a server fills is seen
 * once (names, amounts, dates): kept, each would live until evicted thousands of
 * fills later, long enough for V8 to move it to the old generation, where dead
 * entries pile up until a full GC and the heap's committed size grows by tens of
 * MB (bench/memory.ts). Seen-once keys are remembered as hashes (SecondSight) instead.
 */
export class LayoutCache {
  readonly #lines = new Map<string, LaidLine[]>();
  readonly #seen = new SecondSight();
  readonly #max: number;

  constructor(maxEntries = 4096) {
    this.#max = maxEntries;
  }

  /** Values kept. */
  get size(): number {
    return this.#lines.size;
  }

  get(text: string, style: TextStyle, maxWidth: number | undefined, compute: () => LaidLine[]): LaidLine[] {
    const key = `${style.fontFamily}\u0000${style.fontWeight}\u0000${style.fontSize}\u0000${maxWidth ?? ''}\u0000${text}`;
    const hit = this.#lines.get(key);
    if (hit) {
      this.#lines.delete(key);
      this.#lines.set(key, hit);
      return hit;
    }
    const lines = compute();
    if (!this.#seen.seen(key)) return lines;
    this.#lines.set(key, lines);
    if (this.#lines.size > this.#max) this.#lines.delete(this.#lines.keys().next().value as string);
    return lines;
  }
}

/** Field ids: unique in a template, readable (`signature1`, `date2`), never reused while the old one is there. */

/** The first of `base1`, `base2`, ... (digits at the end of `base` dropped first) that `taken` does not hold. */
export function freeId(base: string, taken: ReadonlySet<string>): string {
  const stem = base.replace(/\d+$/, '') || 'field';
  for (let n = 1; ; n++) {
    const id = `${stem}${n}`;
    if (!taken.has(id)) return id;
  }
}

/** `wanted` when free, else the next free id like it. */
export function keepOrFree(wanted: string, taken: ReadonlySet<string>): string {
  return wanted !== '' && !taken.has(wanted) ? wanted : freeId(wanted, taken);
}

/**
 * A value built by its first caller and kept: schemas only some requests need are built
 * on first use rather than when the module is imported (a process pays at start only for
 * what it runs). The value is a constant of the program, not state: building it
 * twice would give an equal one.
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

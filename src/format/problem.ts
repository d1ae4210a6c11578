/** The message of the `kind` error `compile` throws, or undefined when it throws none; other errors pass. */
export function problemOf(compile: () => unknown, kind: new (message: string) => Error): string | undefined {
  try {
    compile();
    return undefined;
  } catch (e) {
    if (e instanceof kind) return e.message;
    throw e;
  }
}

/**
 * What the event loop parsed: a server started in the test's process parses its JSON with this process's
 * `JSON.parse`, which the spy wraps while `work` runs (a worker thread has its own JSON, not seen here).
 */
export async function longestJsonParsed<T>(work: () => Promise<T>): Promise<{ longest: number; value: T }> {
  const lengths: number[] = [];
  const parse = JSON.parse;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    lengths.push(typeof text === 'string' ? text.length : 0);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const value = await work();
    return { longest: Math.max(0, ...lengths), value };
  } finally {
    JSON.parse = parse;
  }
}

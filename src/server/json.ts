/**
 * JSON.parse for request bodies. `__proto__` keys are removed so a body cannot
 * give an object a prototype when later code copies it by assignment. Done as a
 * walk rather than a reviver: core-js's JSON.parse polyfill (loaded by pdfjs'
 * legacy build, for one) accepts malformed JSON when a reviver is passed.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (text.includes('__proto__')) dropProtoKeys(value);
  return value;
}

function dropProtoKeys(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Object.hasOwn(v, '__proto__')) delete (v as Record<string, unknown>)['__proto__'];
    for (const child of Object.values(v)) stack.push(child);
  }
}

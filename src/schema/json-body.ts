/**
 * Request bodies' JSON, for the server's event loop and its worker threads alike.
 *
 * JSON.parse for request bodies. `__proto__` keys are removed so a body cannot
 * give an object a prototype when later code copies it by assignment. Done as a
 * walk rather than a reviver: core-js's JSON.parse polyfill (loaded by pdfjs'
 * legacy build, for one) accepts malformed JSON when a reviver is passed.
 *
 * Nesting is bounded (`MAX_JSON_DEPTH`) by a scan of the text before it is parsed:
 * V8's JSON.parse is iterative, but what reads the value afterwards (zod, JSON.stringify
 * when a signer's inputs are stored, structuredClone) recurses, and a key nested
 * 20,000 levels deep would overflow the stack there (an untyped 500).
 */
import { PayloadTooLargeError, ValidationError } from '../errors/index.js';

/** Arrays and objects inside one another; no request the server takes comes near it. */
const MAX_JSON_DEPTH = 64;

export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  checkDepth(text, maxDepth);
  const value: unknown = JSON.parse(text);
  if (text.includes('__proto__')) dropProtoKeys(value);
  return value;
}

/**
 * Throws when brackets outside strings nest deeper than `max`. One pass, strings skipped with
 * `indexOf` (a base64 upload is one long string); malformed text is left to JSON.parse to report.
 */
function checkDepth(text: string, max: number): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c /* \ */) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) throw new Error(`Nested deeper than ${max} levels of arrays and objects`);
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
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

/**
 * How many values (objects, arrays, strings, numbers, booleans, nulls) `value` holds, counting
 * stopped once past `max`: a parsed body is walked without recursion, so depth costs no stack.
 */
function countJsonValues(value: unknown, max: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= max) {
    const v = stack.pop();
    count++;
    if (typeof v !== 'object' || v === null) continue;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
  }
  return count;
}

/**
 * A request body's JSON as the server takes it: a typed 400 naming `property` when it is not
 * JSON, a 413 when it holds more than `maxValues` values (a bound for bodies handed from a
 * worker thread to the event loop, whose cost grows with their number of values).
 */
export function parseJsonBody(text: string, property: string, maxValues = Number.POSITIVE_INFINITY): unknown {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (e) {
    throw ValidationError.of(property, `Invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (Number.isFinite(maxValues) && countJsonValues(value, maxValues) > maxValues) {
    throw new PayloadTooLargeError(
      `A JSON body this large may hold at most ${maxValues.toLocaleString('en-US')} values (large bodies are for uploads); send fewer fields or rows`,
      property,
    );
  }
  return value;
}

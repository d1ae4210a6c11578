import { readFile } from 'node:fs/promises';
import { ValidationError } from '../errors/index.js';

/**
 * A command's JSON argument (a file, or "-" for stdin), parsed. A missing or unreadable file and
 * text that is not JSON are typed errors on the argument (exit 2), never a stack trace; the latter
 * says where the text breaks (`data.json: not valid JSON at line 3, column 12: Expected ',' or '}'
 * after property value`), since JSON.parse gives an offset at best.
 */
export async function readJsonArg(file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw ValidationError.of(
      file,
      code === 'ENOENT' ? `${file}: no such file` : `${file} cannot be read (${String(code ?? e)})`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const reason = (e instanceof Error ? e.message : String(e))
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ after JSON at position \d+.*$/s, ' after the JSON value')
      .replace(/, ".*" is not valid JSON$/s, '');
    const { line, column } = lineAndColumn(text, jsonErrorOffset(text));
    // The property is the file's name: the error's message reads `data.json: not valid JSON at line 3, …`.
    throw ValidationError.of(file, `not valid JSON at line ${line}, column ${column}: ${reason}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** 1-based line and column (in UTF-16 units, as editors count them for most text) of an offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  const line = (before.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
  return { line, column: offset - lineStart + 1 };
}

/**
 * The offset of the first character where `text` stops being JSON (RFC 8259), or its length when it
 * ends too early. Only called on text JSON.parse refused: V8's messages give an offset for some
 * mistakes and not for others (`Unexpected token 'x', "..." is not valid JSON`), so this reads the
 * text once itself, by the grammar, iteratively (no recursion on deep nesting).
 */
function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string): boolean => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return false;
    return true;
  };
  const string = (): boolean => {
    i++; // the opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return (i++, true);
      if (c < 0x20) return false;
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) return ((i += k), false);
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else return false;
      } else i++;
    }
    return false;
  };
  const number = (): boolean => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) {
      if (text[i] === '-') i++;
      return false;
    }
    i += m[0].length;
    return true;
  };
  // What comes next: a value, or after a value in an object or array, a separator or the close.
  const stack: Array<'{' | '['> = [];
  for (;;) {
    ws();
    // A value.
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      ws();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
      } else if (c === '{') {
        if (text[i] !== '"' || !string()) return i;
        ws();
        if (text[i++] !== ':') return i - 1;
        continue;
      } else continue;
    } else if (c === '"') {
      if (!string()) return i;
    } else if (c === 't' || c === 'f' || c === 'n') {
      if (!literal(c === 't' ? 'true' : c === 'f' ? 'false' : 'null')) return i;
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      if (!number()) return i;
    } else return i;
    // After a value: close what is open, or go on with the next element or member.
    for (;;) {
      ws();
      const open = stack[stack.length - 1];
      if (open === undefined) return i; // text after a complete value (or the end, which JSON.parse would have taken)
      const close = open === '{' ? '}' : ']';
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return i;
      i++;
      ws();
      if (open === '{') {
        if (text[i] !== '"' || !string()) return i;
        ws();
        if (text[i++] !== ':') return i - 1;
      }
      break;
    }
  }
}

import { PDFDict, PDFName, PDFRawStream, PDFStream } from '@cantoo/pdf-lib';
import { decodeCapped, PDF } from '../../pdf/index.js';

/**
 * Whether a form's own appearance stream can draw at all. Layout programs
 * write streams no viewer can render (`/ 12 Tf`: a font with no name; a font
 * missing from the resources; operators that are not PDF's); keeping one while
 * NeedAppearances is cleared leaves a checked box empty in every viewer. This
 * is a check, not an interpreter: operands are counted only for `Tf`, and text
 * shown with no usable font set makes the stream unusable.
 */
export function appearanceRenders(
  stream: PDFStream,
  formFonts: PDFDict | undefined | (() => PDFDict | undefined),
  checks?: AppearanceChecks,
): boolean {
  if (!(stream instanceof PDFRawStream)) return true; // streams we made ourselves
  const bytes = stream.getContents();
  const known = checks?.get(bytes);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    ok = renders(stream, typeof formFonts === 'function' ? formFonts() : formFonts);
  } catch {
    ok = false; // whatever a hostile stream does to the reader, it is not an appearance to keep
  }
  checks?.set(bytes, ok);
  return ok;
}

/**
 * Answers of appearanceRenders kept by a stream's bytes: an update session
 * copies a template's streams at every fill but shares their bytes, so with
 * one of these per template cache (the fill engine's FillCache) a template's
 * appearances are decoded and read once. Within one template the bytes
 * identify the stream, its resources and the form's /DR.
 */
export type AppearanceChecks = WeakMap<Uint8Array, boolean>;

function renders(stream: PDFRawStream, formFonts: PDFDict | undefined): boolean {
  let data: Uint8Array;
  try {
    data = decodeCapped(stream, MAX_BYTES);
  } catch {
    return false;
  }
  const fonts = fontsOf(stream, formFonts);
  const tokens = tokenize(data);
  if (!tokens) return false;
  const operands: Token[] = [];
  const fontSet: boolean[] = [false];
  for (const t of tokens) {
    if (t.kind !== 'op') {
      operands.push(t);
      continue;
    }
    const op = t.text;
    if (!OPERATORS.has(op)) return false;
    if (op === 'q') fontSet.push(fontSet[fontSet.length - 1]!);
    else if (op === 'Q') {
      if (fontSet.length > 1) fontSet.pop();
    } else if (op === 'Tf') {
      const name = operands[operands.length - 2];
      const size = operands[operands.length - 1];
      if (name?.kind !== 'name' || size?.kind !== 'number' || name.text === '' || !fonts(name.text)) return false;
      fontSet[fontSet.length - 1] = true;
    } else if (TEXT_SHOWING.has(op) && !fontSet[fontSet.length - 1]) return false;
    operands.length = 0;
  }
  return true;
}

const MAX_BYTES = 1 << 20;

const OPERATORS = new Set(
  'q Q b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k l m M MP n re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y \' "'.split(
    ' ',
  ),
);
const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);

function fontsOf(stream: PDFStream, formFonts: PDFDict | undefined): (name: string) => boolean {
  const resources = stream.dict.lookup(PDF.Resources);
  const own = resources instanceof PDFDict ? resources.lookup(PDF.Font) : undefined;
  const has = (dict: unknown, name: string) =>
    dict instanceof PDFDict && dict.lookup(PDFName.of(name)) instanceof PDFDict;
  // Viewers fall back on the form's /DR fonts when the stream has no resources of its own.
  return (name) => has(own, name) || has(formFonts, name);
}

type Token = { kind: 'op' | 'name' | 'number' | 'other'; text: string };

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

/** Content-stream tokens, or undefined when the bytes do not lex (an unclosed string, a stray delimiter). */
function tokenize(b: Uint8Array): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  const regular = (): string => {
    const start = i;
    while (i < b.length && !WHITE.has(b[i]!) && !DELIM.has(b[i]!)) i++;
    // Operators and numbers are short; a longer run cannot be one (and must not be spread into arguments).
    return i - start > 256 ? '\u0000' : String.fromCharCode(...b.subarray(start, i));
  };
  while (i < b.length) {
    const c = b[i]!;
    if (WHITE.has(c)) i++;
    else if (c === 0x25) while (i < b.length && b[i] !== 0x0a && b[i] !== 0x0d) i++;
    else if (c === 0x2f) {
      i++;
      out.push({ kind: 'name', text: regular() });
    } else if (c === 0x28) {
      let depth = 0;
      for (; i < b.length; i++) {
        if (b[i] === 0x5c) i++;
        else if (b[i] === 0x28) depth++;
        else if (b[i] === 0x29 && --depth === 0) break;
      }
      if (i >= b.length) return undefined;
      i++;
      out.push({ kind: 'other', text: '()' });
    } else if (c === 0x3c && b[i + 1] === 0x3c) {
      i += 2;
      out.push({ kind: 'other', text: '<<' });
    } else if (c === 0x3e && b[i + 1] === 0x3e) {
      i += 2;
      out.push({ kind: 'other', text: '>>' });
    } else if (c === 0x3c) {
      const end = b.indexOf(0x3e, i);
      if (end < 0) return undefined;
      i = end + 1;
      out.push({ kind: 'other', text: '<>' });
    } else if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
      i++;
      out.push({ kind: 'other', text: String.fromCharCode(c) });
    } else if (c === 0x29 || c === 0x3e) return undefined;
    else {
      const text = regular();
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) out.push({ kind: 'number', text });
      else if (text === 'true' || text === 'false' || text === 'null') out.push({ kind: 'other', text });
      else {
        out.push({ kind: 'op', text });
        if (text === 'ID') {
          // Inline image data runs to the next whitespace-delimited EI.
          let end = i;
          while (
            end < b.length &&
            !(
              b[end] === 0x45 &&
              b[end + 1] === 0x49 &&
              WHITE.has(b[end - 1] ?? 0x20) &&
              (end + 2 >= b.length || WHITE.has(b[end + 2]!))
            )
          )
            end++;
          i = end;
        }
      }
    }
  }
  return out;
}

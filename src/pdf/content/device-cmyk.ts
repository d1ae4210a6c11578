/**
 * RGB colours in content streams replaced by the DeviceCMYK colours they stand for: `r g b rg` → `c m y k k`
 * and `RG` → `K` (ISO 32000-1 §8.6.8), matched on the exact 8-bit value (a writer such as Skia prints
 * `n/255` to four decimals, which rounds back to `n`). Used for CSS `device-cmyk()`, which Chromium
 * converts to RGB before printing.
 */
import { deflateSync } from 'node:zlib';
import { PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { contentTokens, type ContentToken } from './tokens.js';
import { decodeCapped } from '../parse/decode.js';

/** Stand-in RGB (`r,g,b`, 0–255) → CMYK (0–1). */
export type CmykColours = ReadonlyMap<string, readonly [number, number, number, number]>;

const MAX_CONTENT = 64 << 20;
const OPS: Record<string, string> = { rg: 'k', RG: 'K' };

function number(v: number): string {
  return String(Math.round(v * 10000) / 10000);
}

/** `content` with each stand-in colour operator replaced, or undefined when none is there. */
export function cmykContent(content: Uint8Array, colours: CmykColours): Uint8Array | undefined {
  if (colours.size === 0) return undefined;
  const tokens = contentTokens(content);
  if (!tokens) return undefined;
  const cuts: Array<{ start: number; end: number; text: string }> = [];
  for (let i = 3; i < tokens.length; i++) {
    const op = tokens[i]!;
    const to = op.kind === 'op' ? OPS[op.op] : undefined;
    if (!to) continue;
    const operands = tokens.slice(i - 3, i) as ContentToken[];
    if (!operands.every((t) => t.kind === 'number')) continue;
    const key = operands.map((t) => Math.round((t as { value: number }).value * 255)).join(',');
    const cmyk = colours.get(key);
    if (!cmyk) continue;
    cuts.push({ start: operands[0]!.start, end: op.end, text: `${cmyk.map(number).join(' ')} ${to}` });
  }
  if (cuts.length === 0) return undefined;
  const out: Uint8Array[] = [];
  let at = 0;
  for (const c of cuts) {
    out.push(content.subarray(at, c.start), Buffer.from(c.text, 'latin1'));
    at = c.end;
  }
  out.push(content.subarray(at));
  return Buffer.concat(out);
}

/**
 * Replaces the stand-in colours in the form XObjects `pages` draw (and the ones those draw), in place:
 * each changed XObject gets new stream contents (returns how many). Page content streams themselves go
 * through `cmykContent`.
 */
export function cmykXObjects(doc: PDFDocument, pages: PDFPage[], colours: CmykColours): number {
  if (colours.size === 0) return 0;
  let changedCount = 0;
  const seen = new Set<PDFRef>();
  const visit = (resources: unknown, depth: number): void => {
    const res = resources instanceof PDFRef ? doc.context.lookup(resources) : resources;
    if (!(res instanceof PDFDict) || depth > 8) return;
    const xobjects = res.lookup(PDFName.of('XObject'));
    if (!(xobjects instanceof PDFDict)) return;
    for (const [, ref] of xobjects.entries()) {
      if (!(ref instanceof PDFRef) || seen.has(ref)) continue;
      seen.add(ref);
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream) || stream.dict.lookup(PDFName.of('Subtype')) !== PDFName.of('Form'))
        continue;
      let decoded: Uint8Array;
      try {
        decoded = decodeCapped(stream, MAX_CONTENT);
      } catch {
        continue;
      }
      const changed = cmykContent(decoded, colours);
      if (changed) {
        const dict = stream.dict.clone(doc.context);
        const data = deflateSync(changed);
        dict.delete(PDFName.of('DecodeParms'));
        dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
        dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
        doc.context.assign(ref, PDFRawStream.of(dict, data));
        changedCount++;
      }
      visit(stream.dict.get(PDFName.of('Resources')), depth + 1);
    }
  };
  for (const page of pages) visit(page.node.get(PDFName.of('Resources')), 0);
  return changedCount;
}

/**
 * The kernel is the only writer: no file under src/ outside src/pdf creates, loads or saves a
 * pdf-lib document itself. They call createPdf/savePdf/rewritePdf, loadPdf/openForUpdate and
 * UpdateSession instead, so every input goes through the hardened loader and every document gets its
 * information in one place. Scans the sources as text (the issue's own check, kept).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const KERNEL = path.join(SRC, 'pdf') + path.sep;
const WRITES = /PDFDocument\s*\.\s*(create|load)\b|\.save\(/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

describe('src/pdf is the only place that creates, loads and saves PDFs', () => {
  it('finds PDFDocument.create, PDFDocument.load and .save( nowhere else under src/', () => {
    const found: string[] = [];
    for (const file of files(SRC)) {
      if (file.startsWith(KERNEL)) continue;
      // Page bundles run in Chromium, never near pdf-lib: their sources (page/*.ts) are scanned as such,
      // and the libraries bundled with them call CanvasRenderingContext2D.save() (signature_pad).
      if (file.endsWith('.generated.ts')) continue;
      // Python source held in a string (fontTools' TTFont.save of a converted web font): no PDF.
      if (file === path.join(SRC, 'html', 'font-convert-py.ts')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (WRITES.test(line)) found.push(`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('still sees a write in the kernel (the scan is not blind)', () => {
    expect(files(KERNEL).some((f) => WRITES.test(readFileSync(f, 'utf8')))).toBe(true);
  });
});

import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { TextSetter, type TextStyle } from '../src/text/index.js';
import { readText } from './helpers/pdf.js';

const style: TextStyle = { fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: 12 };

describe('text layer smoke', () => {
  it('draws Latin, Cyrillic, Greek and Chinese and reads them back', async () => {
    const registry = new FontRegistry();
    const doc = await PDFDocument.create();
    const page = doc.addPage([400, 200]);
    const setter = new TextSetter(doc, registry);
    const width = setter.drawText(page, 'Grüße Привет Ελλάδα 你好，世界', 20, 150, style, rgb(0, 0, 0));
    expect(width).toBeGreaterThan(100);
    expect(width).toBeCloseTo(setter.measure('Grüße Привет Ελλάδα 你好，世界', style), 6);
    const bytes = await doc.save();
    const [p] = await readText(bytes);
    expect(p.items.map((i) => i.str).join('')).toBe('Grüße Привет Ελλάδα 你好，世界');
  });

  it('wraps at spaces and honours hard newlines', () => {
    const registry = new FontRegistry();
    return PDFDocument.create().then((doc) => {
      const setter = new TextSetter(doc, registry);
      const lines = setter.layout([{ text: 'one two three four five\nsix', style }], {
        maxWidth: setter.measure('one two three', style) + 0.5,
      });
      expect(lines.map((l) => l.runs.map((r) => r.text).join(''))).toEqual(['one two three', 'four five', 'six']);
    });
  });

  it('rejects an unknown family with a ValidationError on the property', () => {
    const registry = new FontRegistry({ systemDirectories: [] });
    expect(registry.hasFamily('Noto Sans')).toBe(true);
    expect(registry.hasFamily('noto sans')).toBe(false);
    try {
      registry.assertFamily('Comic Nope', 'data.x.fontFamily');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).fields).toEqual([
        { property: 'data.x.fontFamily', message: 'Unknown font "Comic Nope"' },
      ]);
    }
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument } from '@cantoo/pdf-lib';
import {
  createEngine,
  PayloadTooLargeError,
  RenderError,
  ValidationError,
  NotFoundError,
  MemoryTemplateStore,
} from '../src/index.js';

const engine = createEngine({ limits: { dataUrlTotalBytes: 1000 } });
afterAll(() => engine.close());

async function blankTemplate() {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]);
  return {
    eid: 't',
    pdf: await doc.save(),
    fields: [{ id: 'a', type: 'shortText' as const, pageNum: 0, rect: { x: 10, y: 10, width: 100, height: 20 } }],
  };
}

describe('engine', () => {
  it('answers an empty fill body with the hosted API error, before touching the template', async () => {
    const e = await engine.fill(await blankTemplate(), {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).toJSON()).toMatchObject({
      name: 'ValidationError',
      fields: [{ message: 'Required', property: 'data' }],
    });
  });

  it('names an unknown font at the property that named it', () => {
    const fields = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as ValidationError).fields;
      }
      return [];
    };
    expect(fields(() => engine.parseFill({ data: { a: 'x' }, fontFamily: 'No Such Font' }))).toEqual([
      { property: 'fontFamily', message: expect.stringMatching(/No Such Font/) },
    ]);
    expect(
      fields(() => engine.parseFill({ data: [{ a: 'x' }, { a: { value: 'y', fontFamily: 'roboto slab' } }] })),
    ).toEqual([{ property: 'data[1].a.fontFamily', message: expect.stringMatching(/roboto slab/) }]);
    expect(
      fields(() => engine.parseGenerate({ data: [{ content: 'x' }, { content: 'y', fontFamily: 'helvetica' }] })),
    ).toEqual([{ property: 'data[1].fontFamily', message: expect.stringMatching(/helvetica/) }]);
    // The spec's names are known, exactly as written.
    for (const family of ['Noto Sans', 'Helvetica', 'Courier', 'Times New Roman']) {
      expect(fields(() => engine.parseFill({ data: { a: 'x' }, fontFamily: family }))).toEqual([]);
    }
  });

  it('caps all data: URLs of one fill payload with a 413 naming the value that crossed the limit', () => {
    const url = `data:image/png;base64,${'A'.repeat(600)}`;
    try {
      engine.parseFill({ data: { a: url, b: { value: url } } });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PayloadTooLargeError);
      expect((e as PayloadTooLargeError).status).toBe(413);
      expect((e as PayloadTooLargeError).fields).toEqual([
        { property: 'data.b.value', message: expect.stringMatching(/1000/) },
      ]);
    }
    expect(() => engine.parseFill({ data: { a: url } })).not.toThrow();
  });

  it('fills by EID through its template store, 404 for unknown ones', async () => {
    const store = new MemoryTemplateStore();
    store.publish(await blankTemplate());
    const withStore = createEngine({ templates: store });
    try {
      const e = await withStore.fill('missing', { data: { a: 'x' } }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(NotFoundError);
      const noStore = await engine.fill('t', { data: { a: 'x' } }).catch((x: unknown) => x);
      // No store is an unknown template (404), with the flag named.
      expect(noStore).toBeInstanceOf(NotFoundError);
      expect((noStore as NotFoundError).fields[0].property).toBe('castEid');
      expect((noStore as NotFoundError).message).toContain('--templates');
    } finally {
      await withStore.close();
    }
  });

  it('refuses work once closed', async () => {
    const e = createEngine();
    await e.close();
    await expect(e.generate({ data: [{ content: 'x' }] })).rejects.toBeInstanceOf(RenderError);
  });
});

describe('data URL budget counts image fields only', () => {
  it('ignores a big data: string under a key no field reads and text values starting with data:, and still caps image fields', async () => {
    const small = createEngine({ limits: { dataUrlTotalBytes: 1000 } });
    try {
      const template = {
        ...(await blankTemplate()),
        fields: [
          { id: 'photo', type: 'imageFile' as const, pageNum: 0, rect: { x: 10, y: 10, width: 50, height: 50 } },
          { id: 'note', type: 'shortText' as const, pageNum: 0, rect: { x: 10, y: 80, width: 200, height: 20 } },
        ],
      };
      const big = `data:image/png;base64,${'A'.repeat(2000)}`;
      // Unknown key and a text field's value: not counted (the spec ignores the one and the other is text).
      const pdf = await small.fill(template, { data: { unknown: big, note: `data:text/plain,${'x'.repeat(2000)}` } });
      expect(pdf.length).toBeGreaterThan(500);
      const over = await small.fill(template, { data: { photo: big } }).catch((e: unknown) => e);
      expect(over).toBeInstanceOf(PayloadTooLargeError);
      expect((over as PayloadTooLargeError).fields[0]!.property).toBe('data.photo');
    } finally {
      await small.close();
    }
  });
});

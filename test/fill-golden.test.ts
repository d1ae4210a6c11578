/** Pixel goldens: every field type drawn once, and the styling and repeat features that change how a page looks. */
import { afterAll, describe, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { expectGolden } from './helpers/golden.js';
import { field, pngDataUrl, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

const r = (x: number, y: number, width = 200, height = 20) => ({ x, y, width, height });

describe('fill goldens', () => {
  it('every field type', async () => {
    const lines = [r(320, 330, 220, 16), r(320, 350, 220, 16), r(320, 370, 220, 16)];
    const fields = [
      field('shortText', { id: 'shortText', rect: r(72, 60) }),
      field('email', { id: 'email', rect: r(320, 60) }),
      field('longText', { id: 'longText', rect: r(72, 90, 200, 60) }),
      field('ssn', { id: 'ssn', rect: r(320, 90) }),
      field('ein', { id: 'ein', rect: r(320, 120) }),
      field('date', { id: 'date', rect: r(72, 160), format: 'MMMM D, YYYY' }),
      field('number', { id: 'number', rect: r(320, 160) }),
      field('integer', { id: 'integer', rect: r(72, 190) }),
      field('dollar', { id: 'dollar', rect: r(320, 190) }),
      field('percent', { id: 'percent', rect: r(72, 220) }),
      field('phone', { id: 'phone', rect: r(320, 220) }),
      field('checkbox', { id: 'checkbox', rect: r(72, 250, 20, 20) }),
      field('checkbox', { id: 'checkboxWide', rect: r(100, 250, 60, 20) }),
      field('checkbox', { id: 'checkboxSquare', rect: r(170, 250, 60, 20), square: true }),
      field('radioGroup', {
        id: 'radio',
        rect: r(320, 250, 100, 20),
        options: [
          { id: 'a', rect: r(320, 250, 20, 20) },
          { id: 'b', rect: r(350, 250, 20, 20) },
          { id: 'c', rect: r(380, 250, 20, 20) },
        ],
      }),
      field('charList', { id: 'charList', rect: r(72, 290, 160, 24), cells: 8 }),
      field('fullName', {
        id: 'fullName',
        rect: r(320, 290, 220, 20),
        parts: { firstName: r(320, 290, 90), mi: r(412, 290, 20), lastName: r(434, 290, 106) },
      }),
      field('usAddress', { id: 'usAddress', rect: r(72, 330, 220, 50) }),
      field('textWrap', { id: 'textWrap', rect: r(320, 330, 220, 56), lines }),
      field('imageFile', { id: 'imageFile', rect: r(72, 400, 120, 80) }),
    ];
    const pdf = await engine.fill(await template(fields), {
      drawDebugBoxes: true,
      borderColor: '#9999CC',
      data: {
        shortText: 'Short text',
        email: 'ada@example.com',
        longText: 'Long text wraps inside its box when it is longer than one line of the box.',
        ssn: '123456789',
        ein: '987654321',
        date: '2024-01-30',
        number: 1234.5,
        integer: 42,
        dollar: 1234.5,
        percent: 42,
        phone: { num: '2025550123', region: 'US', baseRegion: 'GB' },
        checkbox: true,
        checkboxWide: true,
        checkboxSquare: true,
        radio: 'b',
        charList: 'ABC123',
        fullName: { firstName: 'Ada', mi: 'K', lastName: 'Lovelace' },
        usAddress: { street1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
        textWrap: ['First line', 'Second line'],
        imageFile: await pngDataUrl(60, 30, { r: 30, g: 120, b: 200 }),
      },
    });
    await expectGolden('fill/all-types', pdf, { scale: 1.5 });
  });

  it('styles and repeats', async () => {
    const rows = [0, 1, 2].map((i) => r(72, 200 + 24 * i, 300, 20));
    const fields = [
      field('shortText', {
        id: 'title',
        rect: r(72, 60, 468, 40),
        style: { fontSize: 24, fontWeight: 'bold', alignment: 'center' },
      }),
      field('shortText', {
        id: 'serif',
        rect: r(72, 120, 468, 30),
        style: { fontFamily: 'Times New Roman', verticalAlignment: 'bottom' },
      }),
      field('shortText', { id: 'items', rect: rows[0]!, rows }),
      field('shortText', { id: 'footer', rect: r(72, 720, 468, 20), style: { alignment: 'right' } }),
    ];
    const pdf = await engine.fill(await template(fields), {
      textColor: '#224488',
      fontSize: 12,
      data: {
        title: { value: 'Invoice', textColor: '#CC0000' },
        serif: 'Times New Roman, bottom aligned',
        items: ['Item one', { value: 'Item two (italic)', fontWeight: 'italic' }, 'Item three', 'Item four, next page'],
        footer: 'Page {{pageNumber}} of {{totalPages}}',
      },
    });
    await expectGolden('fill/styles-repeats', pdf);
  });
});

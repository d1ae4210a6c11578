/**
 * The dashboard app's view models, without a browser: the server's typed 400 placed on the field and
 * input it names (with the engine's own paths), the visual diff's boxes and legend, the client
 * routes (no open redirect after sign-in) and where an embedded editor may post its messages.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors/index.js';
import { parseTemplate } from '../src/template/index.js';
import { DIFF_LEGEND, diffBoxes, diffSummary } from '../src/dashboard/app/model/diff-view.js';
import { parentOrigin } from '../src/dashboard/app/io/embed.js';
import { inputName, parsePath, placeErrors, problemAt } from '../src/dashboard/app/model/server-errors.js';
import type { TemplateField } from '../src/dashboard/app/model/types.js';
import { parseRoute, pathOf, type Route } from '../src/dashboard/app/io/route.js';

const rect = (x: number, y = 0) => ({ x, y, width: 20, height: 10 });
const f = (id: string, more: Partial<TemplateField> = {}): TemplateField => ({
  id,
  type: 'shortText',
  pageNum: 0,
  rect: rect(0),
  ...more,
});

describe('server errors placed on fields and inputs', () => {
  it('reads property paths, the engine’s `template.` prefix dropped', () => {
    expect(parsePath('fields[3].rect.width')).toEqual(['fields', 3, 'rect', 'width']);
    expect(parsePath('template.fields[0].options[1].rect.x')).toEqual(['fields', 0, 'options', 1, 'rect', 'x']);
    expect(inputName(['options', 1, 'rect', 'x'])).toBe('options[1].rect.x');
  });

  it('places the engine’s own 400 for a template on the field (by id) and the input', () => {
    const sent = [
      f('ok'),
      f('bad', { rect: { x: 0, y: 0, width: 0, height: 10 }, format: 'no such', type: 'date' }),
      f('ok'),
    ];
    let errors: Array<{ message: string; property: string }> = [];
    try {
      parseTemplate({ eid: 'x', pdf: new Uint8Array([1]), fields: sent, style: { fontSize: 99 } });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      errors = e.fields;
    }
    const placed = placeErrors(errors, sent);
    expect(problemAt(placed, 'bad', 'rect.width')).toMatch(/greater than 0/);
    expect(placed.fields.map((p) => [p.fieldId, p.input])).toContainEqual(['ok', 'id']);
    expect(placed.document.map((d) => d.input)).toEqual(['style.fontSize']);
    expect(placed.other).toEqual([]);
  });

  it('keeps what names no field as it came', () => {
    const placed = placeErrors(
      [
        { property: 'fields[9].id', message: 'gone' },
        { property: 'body', message: 'x' },
      ],
      [],
    );
    expect(placed.other.map((e) => e.property)).toEqual(['fields[9].id', 'body']);
  });
});

describe('visual diff', () => {
  const diff = {
    added: [f('sig', { type: 'signature', rect: rect(100) })],
    removed: [f('old', { rect: rect(200) })],
    changed: [
      { id: 'moved', before: f('moved', { rect: rect(0) }), after: f('moved', { rect: rect(50) }), keys: ['rect'] },
      { id: 'styled', before: f('styled'), after: f('styled', { alias: 'nick' }), keys: ['alias'] },
    ],
  };

  it('draws added, removed, changed (and where a moved field was), with unchanged fields for context', () => {
    const boxes = diffBoxes(diff, [f('same'), f('moved', { rect: rect(50) }), f('styled'), f('sig')]);
    expect(boxes.map((b) => [b.status, b.fieldId])).toEqual([
      ['unchanged', 'same'],
      ['removed', 'old'],
      ['moved-from', 'moved'],
      ['changed', 'moved'],
      ['changed', 'styled'],
      ['added', 'sig'],
    ]);
    expect(boxes.find((b) => b.status === 'added')!.label).toBe('Added: sig (Signature)');
    expect(boxes.find((b) => b.fieldId === 'styled')!.label).toBe('Changed: nick (Short text) — alias');
    expect(diffSummary(diff)).toBe('1 added, 1 removed, 2 changed.');
  });

  it('gives every status a mark and a word, not only a colour', () => {
    const statuses = new Set(diffBoxes(diff, [f('same')]).map((b) => b.status));
    for (const s of statuses) {
      const entry = DIFF_LEGEND.find((e) => e.status === s)!;
      expect(entry.mark.length).toBe(1);
      expect(entry.word.length).toBeGreaterThan(3);
    }
    expect(new Set(DIFF_LEGEND.map((e) => e.mark)).size).toBe(DIFF_LEGEND.length);
  });
});

describe('client routes', () => {
  it('parses each screen and writes its path back', () => {
    const routes: Route[] = [
      { name: 'templates' },
      { name: 'signIn' },
      { name: 'editor', eid: 'abc 1' },
      { name: 'versions', eid: 'abc' },
    ];
    for (const r of routes) {
      const url = new URL(pathOf(r), 'http://x');
      expect(parseRoute(url.pathname, url.search)).toEqual(r);
    }
    expect(parseRoute('/dashboard/')).toEqual({ name: 'templates' });
    expect(parseRoute('/dashboard/nope')).toEqual({ name: 'notFound', path: '/dashboard/nope' });
  });

  it('follows a sign-in’s next page only inside the dashboard', () => {
    expect(parseRoute('/dashboard/sign-in', '?next=%2Fdashboard%2Ftemplates%2Fa')).toEqual({
      name: 'signIn',
      next: '/dashboard/templates/a',
    });
    for (const next of [
      'https://evil.example/',
      '//evil.example/dashboard',
      '/dashboard//evil',
      '/dashboardx',
      '/\\evil',
    ])
      expect(parseRoute('/dashboard/sign-in', `?next=${encodeURIComponent(next)}`)).toEqual({ name: 'signIn' });
  });
});

describe('embedding', () => {
  it('posts to the parent’s origin only, never without one', () => {
    expect(parentOrigin(false, ['https://app.example'], '')).toBeUndefined();
    expect(parentOrigin(true, ['https://app.example'], 'https://other.example/x')).toBe('https://app.example');
    expect(parentOrigin(true, [], 'https://app.example/page?q=1')).toBe('https://app.example');
    expect(parentOrigin(true, [], '')).toBeUndefined();
    expect(parentOrigin(true, ['null'], 'about:blank')).toBeUndefined();
  });
});

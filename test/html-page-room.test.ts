// HTML page options whose margins leave no room are the same 400 as Markdown,
// not a silent fall back to Letter.
import { describe, expect, it } from 'vitest';
import { pageOptionsCss } from '../src/html/index.js';
import { ValidationError } from '../src/errors/index.js';
import { errorOf } from './helpers/errors.js';

describe('HTML page options: room for content', () => {
  it('a 1in page with 0.5in margins is a 400 on page, worded as in Markdown', () => {
    const e = errorOf<ValidationError>(() => pageOptionsCss({ width: '1in', height: '1in', margin: '0.5in' }));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.status).toBe(400);
    expect(e.fields).toEqual([{ property: 'page', message: 'The margins leave no room for content (0 × 0 pt)' }]);
    expect(() => pageOptionsCss({ height: '100px', marginTop: '60px', marginBottom: '50px' })).toThrow(/leave no room/);
  });

  it('pages with room still give their @page rule', () => {
    expect(pageOptionsCss({ width: '5in', height: '5in', margin: '10mm' })).toContain('size: 5in 5in');
    expect(pageOptionsCss()).toContain('size: 8.5in 11in');
  });
});

import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { parseFillRequest } from '../src/schema/index.js';
import { encryptDataString, decryptDataString } from '../src/crypto/index.js';
import { errorOf as castpressErrorOf } from './helpers/errors.js';
import type { ValidationError } from '../src/errors/index.js';

const errorOf = (fn: () => unknown) => castpressErrorOf<ValidationError>(fn);

const ok = { data: { name: 'Ada' } };

describe('fill request validation', () => {
  it('an empty body is exactly the hosted API error', () => {
    for (const body of [undefined, {}, null, '']) {
      const e = errorOf(() => parseFillRequest(body));
      expect(e.status).toBe(400);
      expect(e.name).toBe('ValidationError');
      expect(e.fields).toEqual([{ message: 'Required', property: 'data' }]);
      expect(JSON.parse(JSON.stringify(e))).toEqual({
        name: 'ValidationError',
        message: expect.any(String),
        fields: [{ message: 'Required', property: 'data' }],
      });
    }
  });

  it('a body that is not an object is rejected', () => {
    expect(errorOf(() => parseFillRequest([1, 2])).fields).toEqual([
      { property: '(body)', message: 'Expected a JSON object' },
    ]);
  });

  // One bad value for every property of the fill request table, with the path it must be reported at.
  const bad: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['data (number)', { data: 42 }, 'data', /Expected an object/],
    ['data (empty array)', { data: [] }, 'data', /at least 1/],
    ['data (array of non-objects)', { data: [{ a: 1 }, 'x'] }, 'data[1]', /Expected object, received string/],
    ['title', { title: 5 }, 'title', /Expected string/],
    ['fontFamily', { fontFamily: '' }, 'fontFamily', /empty/],
    ['fontSize too small', { fontSize: 4 }, 'fontSize', /at least 5/],
    ['fontSize too big', { fontSize: 31 }, 'fontSize', /at most 30/],
    ['fontSize not integer', { fontSize: 10.5 }, 'fontSize', /integer/],
    ['textColor', { textColor: 'red' }, 'textColor', /6-digit hex/],
    ['textColor 3 digits', { textColor: '#fff' }, 'textColor', /6-digit hex/],
    ['alignment', { alignment: 'justify' }, 'alignment', /one of: "left", "center", "right"/],
    ['fontWeight', { fontWeight: 'heavy' }, 'fontWeight', /one of/],
    ['borderColor', { borderColor: '#12345G' }, 'borderColor', /6-digit hex/],
    ['verticalAlignment', { verticalAlignment: 'baseline' }, 'verticalAlignment', /one of: "top", "middle", "bottom"/],
    ['defaultCheckboxCharacter', { defaultCheckboxCharacter: '' }, 'defaultCheckboxCharacter', /empty/],
    [
      'defaultMakeCheckboxSquare',
      { defaultMakeCheckboxSquare: 'yes' },
      'defaultMakeCheckboxSquare',
      /Expected boolean/,
    ],
    ['useInteractiveFields', { useInteractiveFields: 1 }, 'useInteractiveFields', /Expected boolean/],
    ['defaultReadOnly', { defaultReadOnly: 'no' }, 'defaultReadOnly', /Expected boolean/],
    ['drawDebugBoxes', { drawDebugBoxes: {} }, 'drawDebugBoxes', /Expected boolean/],
    ['stripAnnotations', { stripAnnotations: [] }, 'stripAnnotations', /Expected boolean/],
    ['outputFormat', { outputFormat: 'png' }, 'outputFormat', /one of: "pdf", "url"/],
    // value objects: styling of one value
    ['value fontSize', { data: { name: { value: 'x', fontSize: 99 } } }, 'data.name.fontSize', /at most 30/],
    ['value textColor', { data: { name: { value: 'x', textColor: 'blue' } } }, 'data.name.textColor', /6-digit hex/],
    ['value alignment', { data: { name: { value: 'x', alignment: 'middle' } } }, 'data.name.alignment', /one of/],
    ['value fontWeight', { data: { name: { value: 'x', fontWeight: 700 } } }, 'data.name.fontWeight', /one of/],
    ['value fontFamily', { data: { name: { value: 'x', fontFamily: 3 } } }, 'data.name.fontFamily', /Expected string/],
    ['value readOnly', { data: { name: { value: 'x', readOnly: 'sure' } } }, 'data.name.readOnly', /Expected boolean/],
    [
      'styled array element',
      { data: { rows: ['a', { data: 'b', textColor: 'nope' }] } },
      'data.rows[1].textColor',
      /6-digit hex/,
    ],
    [
      'per-fill data in an array',
      { data: [{ a: 1 }, { b: { value: 1, fontSize: 2 } }] },
      'data[1].b.fontSize',
      /at least 5/,
    ],
    ['non-finite number', { data: { n: Number.NaN } }, 'data.n', /finite/],
    ['odd key', { data: { 'first name': { value: 'x', fontSize: 0 } } }, 'data["first name"].fontSize', /at least 5/],
  ];

  it.each(bad)('%s → typed error at its path', (_label, body, property, message) => {
    const e = errorOf(() => parseFillRequest({ ...ok, ...body }));
    expect(e.status).toBe(400);
    expect(e.fields).toContainEqual({ property, message: expect.stringMatching(message) });
  });

  it('reports every bad property at once', () => {
    const e = errorOf(() => parseFillRequest({ data: { a: 1 }, fontSize: 99, textColor: 'x', alignment: 'up' }));
    expect(e.fields.map((f) => f.property).sort()).toEqual(['alignment', 'fontSize', 'textColor']);
  });

  it('accepts the spellings real clients send and normalises them', () => {
    const r = parseFillRequest({
      data: [{ a: 'x' }, { a: { value: 'y', textColor: 'cc0000', fontSize: '12' } }],
      fontSize: '11',
      textColor: '#3e3e57',
      verticalAlignment: 'center',
      useInteractiveFields: 'true',
    });
    expect(r.fontSize).toBe(11);
    expect(r.textColor).toBe('#3E3E57');
    expect(r.verticalAlignment).toBe('middle');
    expect(r.useInteractiveFields).toBe(true);
    expect(r.dataWasArray).toBe(true);
    expect(r.data[1].a).toEqual({ value: 'y', textColor: '#CC0000', fontSize: 12 });
  });

  it('keeps complex values and arrays as they are, and styled array elements as value objects', () => {
    const r = parseFillRequest({
      data: {
        name: { firstName: 'Ada', mi: 'K', lastName: 'Lovelace' },
        rows: [['a', 'b'], ['c']],
        styled: ['a', { data: 'b', fontWeight: 'bold' }],
        none: null,
      },
    });
    expect(r.dataWasArray).toBe(false);
    expect(r.data).toHaveLength(1);
    expect(r.data[0].name).toEqual({ firstName: 'Ada', mi: 'K', lastName: 'Lovelace' });
    expect(r.data[0].rows).toEqual([['a', 'b'], ['c']]);
    expect(r.data[0].styled).toEqual(['a', { value: 'b', fontWeight: 'bold' }]);
    expect(r.data[0].none).toBeNull();
  });
});

describe('encrypted data', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const other = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const decrypt = (s: string) => decryptDataString(s, privateKey);

  it('has the hosted format: base64 key : 32 hex IV : hex ciphertext', () => {
    const parts = encryptDataString('{"a":1}', publicKey).split(':');
    expect(parts).toHaveLength(3);
    expect(parts[0]).toHaveLength(344);
    expect(parts[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(parts[2]).toMatch(/^[0-9a-f]+$/);
  });

  it('decrypts data (UTF-8 intact) and validates what it holds', () => {
    const data = encryptDataString(JSON.stringify({ name: 'Zoë 東京', n: { value: 1, fontSize: 12 } }), publicKey);
    const r = parseFillRequest({ data }, { decrypt });
    expect(r.data[0]).toEqual({ name: 'Zoë 東京', n: { value: 1, fontSize: 12 } });
    const bad = encryptDataString(JSON.stringify({ n: { value: 1, fontSize: 99 } }), publicKey);
    expect(errorOf(() => parseFillRequest({ data: bad }, { decrypt })).fields).toEqual([
      { property: 'data.n.fontSize', message: 'Must be at most 30' },
    ]);
  });

  it('a wrong key, garbage or no key is a 400 on data, never a crash', () => {
    const forOther = encryptDataString('{"a":1}', other.publicKey);
    for (const [data, msg] of [
      [forOther, /not encrypted for this key/],
      ['not-encrypted', /Not in the encrypted data format/],
      ['AAAA:zz:zz', /Not in the encrypted data format/],
    ] as const) {
      const e = errorOf(() => parseFillRequest({ data }, { decrypt }));
      expect(e.status).toBe(400);
      expect(e.fields).toEqual([{ property: 'data', message: expect.stringMatching(msg) }]);
    }
    expect(errorOf(() => parseFillRequest({ data: forOther })).fields[0]).toEqual({
      property: 'data',
      message: expect.stringMatching(/private key: start with --private-key FILE/),
    });
  });
});

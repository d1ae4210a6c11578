/**
 * `updateEtchPacket`'s payload rule as a pure function: replaced, or merged per file and
 * per field; a null file or field value removes it; filenames kept only when merging; the
 * current payload is never changed in place; malformed updates are a ValidationError on their path.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors/index.js';
import { mergePayload, type PacketRecord } from '../src/packets/index.js';

const current = (): PacketRecord['payload'] => ({
  nda: { data: { name: 'Ann', amount: 10 }, filename: 'nda-ann.pdf' },
  terms: { data: { city: 'Oslo' } },
});

describe('mergePayload', () => {
  it('replaces: only the update’s files and fields remain, without the old filenames', () => {
    expect(mergePayload(current(), { nda: { data: { amount: 20 } } }, false)).toEqual({
      nda: { data: { amount: 20 } },
    });
  });

  it('merges per file and field: other files and fields stay, the update’s values win, the filename is kept', () => {
    expect(mergePayload(current(), { nda: { data: { amount: 20, date: '2026-01-05' } } }, true)).toEqual({
      nda: { data: { name: 'Ann', amount: 20, date: '2026-01-05' }, filename: 'nda-ann.pdf' },
      terms: { data: { city: 'Oslo' } },
    });
  });

  it('a new filename replaces the old one in both modes; a file new to the payload is added', () => {
    expect(mergePayload(current(), { nda: { data: {}, filename: 'v2.pdf' }, extra: { data: { a: 1 } } }, true)).toEqual(
      {
        nda: { data: { name: 'Ann', amount: 10 }, filename: 'v2.pdf' },
        terms: { data: { city: 'Oslo' } },
        extra: { data: { a: 1 } },
      },
    );
    expect(mergePayload(current(), { nda: { data: {}, filename: 'v2.pdf' } }, false)).toEqual({
      nda: { data: {}, filename: 'v2.pdf' },
    });
  });

  it('null removes: a field value null removes the field, a file null removes the file', () => {
    expect(mergePayload(current(), { nda: { data: { amount: null } }, terms: null }, true)).toEqual({
      nda: { data: { name: 'Ann' }, filename: 'nda-ann.pdf' },
    });
  });

  it('treats a file without data as an empty change', () => {
    expect(mergePayload(current(), { terms: {} }, true)).toEqual(current());
    expect(mergePayload(current(), { terms: {} }, false)).toEqual({ terms: { data: {} } });
  });

  it('never changes the current payload in place', () => {
    const before = current();
    mergePayload(before, { nda: { data: { amount: null, name: 'Bo' } }, terms: null }, true);
    expect(before).toEqual(current());
  });

  it('refuses malformed entries with the path of the bad value', () => {
    const refused = (update: Record<string, unknown>) => {
      try {
        mergePayload(current(), update, true);
      } catch (e) {
        return e instanceof ValidationError ? e.fields : e;
      }
      return 'accepted';
    };
    expect(refused({ nda: 'text' })).toEqual([{ property: 'payload.nda', message: 'Expected {data, filename?}' }]);
    expect(refused({ nda: [1] })).toEqual([{ property: 'payload.nda', message: 'Expected {data, filename?}' }]);
    expect(refused({ nda: { data: [1, 2] } })).toEqual([
      { property: 'payload.nda.data', message: 'Expected an object of field values' },
    ]);
    expect(refused({ nda: { data: 'x' } })).toEqual([
      { property: 'payload.nda.data', message: 'Expected an object of field values' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/index.js';
import { mergePlan, parsePacketRequest, planSigners, type PlacedField } from '../src/packets/index.js';
import { errorOf } from './helpers/errors.js';

const rect = (y: number) => ({ x: 10, y, width: 50, height: 10 });
const req = (signers: unknown[]) =>
  parsePacketRequest({
    name: 'p',
    files: [
      { id: 'a', file: 'JVBERi0=', fields: [] },
      { id: 'b', file: 'JVBERi0=', fields: [] },
    ],
    signers,
  });
const tag = (
  fileId: string,
  fieldId: string,
  type: PlacedField['type'],
  y: number,
  taggedSigner?: string,
): PlacedField => ({
  fileId,
  fieldId,
  type,
  pageNum: 0,
  rect: rect(y),
  source: 'tag',
  taggedSigner,
  tagText: `{{ ${type} }}`,
});

describe('planSigners', () => {
  it('merges tags and lists, keeps routing order stable, reports unassigned signing fields', () => {
    const request = req([
      {
        id: 's1',
        name: 'A',
        email: 'a@example.com',
        routingOrder: 2,
        fields: [{ fileId: 'b', fieldId: 'signature1' }],
      },
      { id: 's2', name: 'B', email: 'b@example.com', routingOrder: 1 },
      { id: 's3', name: 'C', email: 'c@example.com', routingOrder: 1 },
    ]);
    const plan = planSigners(request, [
      [
        tag('a', 'email1', 'email', 300, 's2'),
        tag('a', 'signature1', 'signature', 100, 's1'),
        tag('a', 'shortText1', 'shortText', 50),
      ],
      [tag('b', 'signature1', 'signature', 10), tag('b', 'initial1', 'initial', 20)],
    ]);
    expect(plan.signers.map((s) => [s.signerId, s.fields.map((f) => `${f.fileId}/${f.fieldId}`)])).toEqual([
      ['s2', ['a/email1']],
      ['s3', []],
      ['s1', ['a/signature1', 'b/signature1']],
    ]);
    expect(plan.unassigned.map((f) => `${f.fileId}/${f.fieldId}`)).toEqual(['b/initial1']);
    // Document order within a file: top to bottom.
    expect(plan.fields.filter((f) => f.fileId === 'a').map((f) => f.fieldId)).toEqual([
      'shortText1',
      'signature1',
      'email1',
    ]);
  });

  it('a field belongs to one signer; tags name existing signers and attachable kinds', () => {
    const request = req([
      { id: 's1', name: 'A', email: 'a@example.com', fields: [{ fileId: 'a', fieldId: 'signature1' }] },
      { id: 's2', name: 'B', email: 'b@example.com' },
    ]);
    const e = errorOf<ValidationError>(() =>
      planSigners(request, [
        [
          tag('a', 'signature1', 'signature', 1, 's2'),
          tag('a', 'x', 'shortText', 2, 's1'),
          tag('a', 'y', 'initial', 3, 'ghost'),
        ],
        [],
      ]),
    );
    expect(e.fields.map((f) => f.property)).toEqual(['files[0]', 'files[0]', 'signers[0].fields[0].fieldId']);
    expect(e.fields.map((f) => f.message)).toEqual([
      expect.stringContaining('shortText field cannot be given to a signer'),
      expect.stringContaining('names signer "ghost"'),
      expect.stringContaining('already given to signer "s2"'),
    ]);
  });
});

describe('mergePlan', () => {
  it('moves pages past earlier files and keeps ids unique', () => {
    const f = (fileId: string, fieldId: string, pageNum: number) => ({
      fileId,
      fieldId,
      type: 'signature' as const,
      pageNum,
      rect: rect(0),
      source: 'tag' as const,
    });
    const merged = mergePlan(
      [f('a', 'sig', 0), f('a', 'only', 1), f('b', 'sig', 0), f('b', 'a.sig', 2)],
      ['a', 'b'],
      [2, 3],
    );
    expect(merged.map((m) => [m.mergedFieldId, m.mergedPageNum])).toEqual([
      ['a.sig', 0],
      ['only', 1],
      ['b.sig', 2],
      ['b.a.sig_2', 4],
    ]);
  });
});

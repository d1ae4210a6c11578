/**
 * What the signing page must collect before a signer's submission is signed, without a
 * store or server: each signature/initials box accepted (by its id in its document: the merged
 * PDF's ids when the packet was merged), the name/email asked on opening, and the boxes the
 * page is given to place. Stored fields are `DocumentField`s: each says whose ids and pages it carries.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors/index.js';
import { mergePlan, type DocumentField, type PlannedField } from '../src/packets/index.js';
import { acceptsEachField, checkAccepted, detailsRequired } from '../src/packets/lifecycle/core/acceptance.js';
import { fieldIdOf, fieldPageOf, fileFields, mergedFields } from '../src/packets/lifecycle/state/document-fields.js';
import { sessionOf } from '../src/packets/lifecycle/core/session.js';
import { packetRecord, signerRecord, storedSigner } from './helpers/workflow-records.js';

const rect = { x: 72, y: 100, width: 200, height: 30 };
const planned = (
  fileId: string,
  fieldId: string,
  type: PlannedField['type'],
  pageNum: number,
  signerId?: string,
): PlannedField => ({
  fileId,
  fieldId,
  type,
  pageNum,
  rect,
  source: 'request',
  ...(signerId ? { signerId } : {}),
});

// Two files that both have a field `sig`: merged, the second becomes `b.sig`, its page moves past a's two pages.
const plan = [
  planned('a', 'sig', 'signature', 0, 'ann'),
  planned('a', 'date', 'signatureDate', 1, 'ann'),
  planned('b', 'sig', 'signature', 0, 'bob'),
  planned('b', 'ini', 'initial', 1, 'ann'),
];
const merged = mergedFields(mergePlan(plan, ['a', 'b'], [2, 3]));
const perFile = [fileFields(plan.filter((f) => f.fileId === 'a')), fileFields(plan.filter((f) => f.fileId === 'b'))];

describe('document fields', () => {
  it('read a field by its id and page in its own document: the merged PDF’s for a merged packet, the file’s otherwise', () => {
    expect(merged.map((f) => [f.kind, fieldIdOf(f), fieldPageOf(f)])).toEqual([
      ['merged', 'a.sig', 0],
      ['merged', 'date', 1],
      ['merged', 'b.sig', 2],
      ['merged', 'ini', 3],
    ]);
    expect(perFile[1]!.map((f) => [f.kind, fieldIdOf(f), fieldPageOf(f)])).toEqual([
      ['file', 'sig', 0],
      ['file', 'ini', 1],
    ]);
  });
});

describe('checkAccepted', () => {
  const mergedDoc = [{ index: 0, fields: merged }];

  it('passes when exactly the signer’s signature and initials boxes were accepted (dates and other signers’ boxes are not clicked)', () => {
    expect(() =>
      checkAccepted(mergedDoc, 'ann', [
        { document: 0, fieldId: 'a.sig' },
        { document: 0, fieldId: 'ini' },
      ]),
    ).not.toThrow();
    expect(() => checkAccepted(mergedDoc, 'bob', [{ document: 0, fieldId: 'b.sig' }])).not.toThrow();
  });

  it('refuses a skipped box and a box that is not the signer’s, in one ValidationError on `accepted`', () => {
    const e = (() => {
      try {
        checkAccepted(mergedDoc, 'ann', [
          { document: 0, fieldId: 'a.sig' },
          { document: 0, fieldId: 'b.sig' },
        ]);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).fields).toEqual([
      { property: 'accepted', message: "Field 0:b.sig is not one of this signer's signature or initials boxes" },
      {
        property: 'accepted',
        message: 'Field 0:ini was not accepted: each signature and initials box must be clicked',
      },
    ]);
  });

  it('uses the merged id: a merged packet’s box named by its file id is not accepted', () => {
    expect(() =>
      checkAccepted(mergedDoc, 'ann', [
        { document: 0, fieldId: 'sig' },
        { document: 0, fieldId: 'ini' },
      ]),
    ).toThrow(ValidationError);
  });

  it('keys boxes by document when the files are signed separately (the same id in two documents is two boxes)', () => {
    const docs = perFile.map((fields, index) => ({ index, fields }));
    expect(() =>
      checkAccepted(docs, 'ann', [
        { document: 0, fieldId: 'sig' },
        { document: 1, fieldId: 'ini' },
      ]),
    ).not.toThrow();
    expect(() =>
      checkAccepted(docs, 'ann', [
        { document: 1, fieldId: 'sig' },
        { document: 1, fieldId: 'ini' },
      ]),
    ).toThrow(ValidationError);
  });
});

describe('signer options', () => {
  it('accepts each field by default; acceptEachField false or signBeforeReviewing signs all at once', () => {
    expect(acceptsEachField({ acceptEachField: true, signatureExperience: 'signWhileReviewing' })).toBe(true);
    expect(acceptsEachField({ acceptEachField: false, signatureExperience: 'signWhileReviewing' })).toBe(false);
    expect(acceptsEachField({ acceptEachField: true, signatureExperience: 'signBeforeReviewing' })).toBe(false);
  });

  it('asks for the name/email on opening until the signer entered them', () => {
    expect(detailsRequired({})).toEqual({ name: false, email: false });
    expect(detailsRequired({ requireNameOnLoad: true, requireEmailOnLoad: true })).toEqual({ name: true, email: true });
    expect(detailsRequired({ requireNameOnLoad: true, requireEmailOnLoad: true, nameEnteredAt: 5 })).toEqual({
      name: false,
      email: true,
    });
    expect(
      detailsRequired({ requireNameOnLoad: true, requireEmailOnLoad: true, nameEnteredAt: 5, emailEnteredAt: 6 }),
    ).toEqual({ name: false, email: false });
  });
});

describe('the signing session', () => {
  it('gives the page the signer’s own boxes with their ids and pages in the merged document', () => {
    const s = signerRecord('sgn_ann', 1, 'viewed', {
      aliasId: 'ann',
      signer: storedSigner('ann', { acceptEachField: false, redirectURL: 'https://example.test/done' }),
    });
    const documents = [
      {
        packetEid: 'pkt',
        index: 0,
        fileId: 'merged',
        filename: 'p.pdf',
        title: 'P',
        pageCount: 5,
        assembledHash: '',
        currentHash: '',
        fields: merged,
      },
    ];
    const session = sessionOf({ packet: packetRecord('partial'), signers: [s], documents }, s);
    expect(session.boxes).toEqual([
      { document: 0, fieldId: 'a.sig', type: 'signature', page: 0, rect },
      { document: 0, fieldId: 'date', type: 'signatureDate', page: 1, rect },
      { document: 0, fieldId: 'ini', type: 'initial', page: 3, rect },
    ]);
    expect(session.documents[0]!.fields.map((f: DocumentField) => f.signerId)).toEqual(['ann', 'ann', 'ann']);
    expect(session).toMatchObject({
      acceptEachField: false,
      detailsRequired: { name: false, email: false },
      redirectURL: 'https://example.test/done',
    });
    expect(session.event).toEqual({
      action: 'signerLoad',
      signerStatus: 'viewed',
      signerEid: 'sgn_ann',
      documentGroupStatus: 'partial',
      documentGroupEid: 'grp',
      etchPacketEid: 'pkt',
    });
  });
});

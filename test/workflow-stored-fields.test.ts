/**
 * Stored document fields are typed `DocumentField`s: what the workflow writes carries
 * its `kind`, and rows written before fields had one (a merged document's fields were told
 * apart by their `mergedFieldId`) read back with the kind their shape says, on the real SQLite store.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type DocumentRecord, type PacketStore } from '../src/packets/index.js';
import { fieldIdOf, fieldPageOf } from '../src/packets/lifecycle/state/document-fields.js';
import { tempDir } from './helpers/signing.js';
import { packetRecord } from './helpers/workflow-records.js';

let tmp: { dir: string; remove: () => Promise<void> };
let store: PacketStore;

beforeAll(async () => {
  tmp = await tempDir('castpress-stored-fields-');
  store = await openSqliteStore({ dir: path.join(tmp.dir, 'store') });
  await store.transaction((tx) => tx.insertPacket(packetRecord('sent')));
});

afterAll(async () => {
  await store?.close();
  await tmp?.remove();
});

const rect = { x: 1, y: 2, width: 3, height: 4 };
const doc = (index: number, fileId: string, fields: unknown[]): DocumentRecord =>
  // The JSON as an older version wrote it: no `kind`.
  ({
    packetEid: 'pkt',
    index,
    fileId,
    filename: `${fileId}.pdf`,
    title: null,
    pageCount: 3,
    assembledHash: 'h',
    currentHash: 'h',
    fields: fields as DocumentRecord['fields'],
  });

describe('stored document fields', () => {
  it('reads rows written before fields had a kind: merged by shape, otherwise the file’s own ids and pages', async () => {
    await store.transaction((tx) =>
      tx.putDocuments('pkt', [
        doc(0, 'merged', [
          {
            fileId: 'b',
            fieldId: 'sig',
            type: 'signature',
            pageNum: 0,
            rect,
            source: 'request',
            signerId: 'ann',
            mergedFieldId: 'b.sig',
            mergedPageNum: 2,
          },
        ]),
        doc(1, 'b', [
          { fileId: 'b', fieldId: 'sig', type: 'signature', pageNum: 1, rect, source: 'tag', signerId: 'ann' },
        ]),
      ]),
    );
    const [merged, file] = await store.documents('pkt');
    expect(merged!.fields.map((f) => [f.kind, fieldIdOf(f), fieldPageOf(f)])).toEqual([['merged', 'b.sig', 2]]);
    expect(file!.fields.map((f) => [f.kind, fieldIdOf(f), fieldPageOf(f)])).toEqual([['file', 'sig', 1]]);
  });

  it('reads rows written now as they were written, kind included', async () => {
    await store.transaction((tx) =>
      tx.putDocuments('pkt', [
        doc(0, 'a', [
          { kind: 'file', fileId: 'a', fieldId: 'x', type: 'initial', pageNum: 2, rect, source: 'request' },
        ]),
      ]),
    );
    const [a] = await store.documents('pkt');
    expect(a!.fields).toEqual([
      { kind: 'file', fileId: 'a', fieldId: 'x', type: 'initial', pageNum: 2, rect, source: 'request' },
    ]);
  });
});

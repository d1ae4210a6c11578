import { PDFStreamWriter, PDFWriter, type PDFContext, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';

type DocumentSnapshot = Parameters<typeof PDFWriter.forContextWithSnapshot>[2];

/** Every object of the context is new or replaces one of the base file: all are written. */
function snapshotOver(base: Uint8Array, startXRef: number): DocumentSnapshot {
  const unused = (): never => {
    throw new Error('not used for appended updates');
  };
  return {
    pdfSize: base.byteLength,
    prevStartXRef: startXRef,
    deletedCount: 0,
    shouldSave: () => true,
    markRefForSave: (_ref: PDFRef) => undefined,
    markRefsForSave: (_refs: PDFRef[]) => undefined,
    markObjForSave: (_obj: PDFObject) => undefined,
    markObjsForSave: (_objs: PDFObject[]) => undefined,
    markDeletedRef: (_ref: PDFRef) => undefined,
    markDeletedObj: (_obj: PDFObject) => undefined,
    deletedRef: unused,
  };
}

/** Objects never yield to the event loop while being written: an update is small. */
const OBJECTS_PER_TICK = Number.MAX_SAFE_INTEGER;

/**
 * Writes the context's objects as an incremental update appended to `base`
 * (PDF 32000 §7.5.6): the template's bytes are copied, never re-serialised.
 * The update uses the same kind of cross-reference section as the base's last one.
 */
export async function appendUpdate(ctx: PDFContext, base: Uint8Array, startXRef: number, xrefStream: boolean): Promise<Uint8Array> {
  const snapshot = snapshotOver(base, startXRef);
  const writer = xrefStream
    ? PDFStreamWriter.forContextWithSnapshot(ctx, OBJECTS_PER_TICK, snapshot)
    : PDFWriter.forContextWithSnapshot(ctx, OBJECTS_PER_TICK, snapshot);
  const update = await writer.serializeToBuffer();
  const out = new Uint8Array(base.byteLength + update.byteLength);
  out.set(base, 0);
  out.set(update, base.byteLength);
  return out;
}

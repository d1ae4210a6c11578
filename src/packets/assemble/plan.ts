/**
 * Who signs what: the fields each signer is given by the request's lists and
 * by text tags (`{{ type:::signerId }}`), merged, checked and ordered. Pure.
 */
import { ValidationError, type FieldError } from '../../errors/index.js';
import { formatPath } from '../../schema/index.js';
import { isAttachableType, isSigningType, type PacketFieldType } from '../request/field.js';
import type { PacketRequest, Signer } from '../request/request.js';

export interface PlacedField {
  fileId: string;
  /** The field's id within its file (unique there). */
  fieldId: string;
  type: PacketFieldType;
  /** 0-based page of its file. */
  pageNum: number;
  /** Points from the displayed page's top-left corner. */
  rect: { x: number; y: number; width: number; height: number };
  alias?: string;
  label?: string;
  /** The field's `format` (signatureDate: the date format), when it has one. */
  format?: string;
  /** Where it came from: the request's field list, the template, or a text tag. */
  source: 'request' | 'template' | 'tag';
  /** The signer a text tag named, before the plan checks it. */
  taggedSigner?: string;
  /** For a tag: page shown in errors. */
  tagText?: string;
}

export interface PlannedField extends Omit<PlacedField, 'taggedSigner' | 'tagText'> {
  signerId?: string;
}

export interface SignerPlan {
  signerId: string;
  routingOrder: number;
  signer: Signer;
  /** In document order: file order, then page, then top to bottom, left to right. */
  fields: PlannedField[];
}

export interface PacketPlan {
  signers: SignerPlan[];
  /** Every field of every file, with its signer when it has one. */
  fields: PlannedField[];
  /** Signing fields (signature, initial, signatureDate) no signer was given. */
  unassigned: PlannedField[];
}

/** `fieldsByFile` in the request's file order; the index is the file's place in `files`. */
export function planSigners(request: PacketRequest, fieldsByFile: PlacedField[][]): PacketPlan {
  const errors: FieldError[] = [];
  const owner = new Map<string, string>();
  const key = (fileId: string, fieldId: string) => `${fileId}\u0000${fieldId}`;
  const signerIds = new Set(request.signers.map((s) => s.id));
  const byKey = new Map<string, PlacedField>();
  for (const list of fieldsByFile) for (const f of list) byKey.set(key(f.fileId, f.fieldId), f);

  // Tags first: they name their signer inside the document.
  fieldsByFile.forEach((list, i) => {
    for (const f of list) {
      if (f.taggedSigner === undefined) continue;
      const where = `Text tag ${JSON.stringify(f.tagText)} on page ${f.pageNum + 1}`;
      if (!signerIds.has(f.taggedSigner))
        errors.push({
          property: formatPath(['files', i]),
          message: `${where} names signer "${f.taggedSigner}", who is not in signers`,
        });
      else if (!isAttachableType(f.type))
        errors.push({
          property: formatPath(['files', i]),
          message: `${where}: a ${f.type} field cannot be given to a signer`,
        });
      else owner.set(key(f.fileId, f.fieldId), f.taggedSigner);
    }
  });

  request.signers.forEach((s, i) => {
    s.fields.forEach((ref, j) => {
      const at = formatPath(['signers', i, 'fields', j]);
      const f = byKey.get(key(ref.fileId, ref.fieldId));
      if (!request.files.some((file) => file.id === ref.fileId)) return; // reported while parsing
      if (!f) {
        errors.push({
          property: `${at}.fieldId`,
          message: `File "${ref.fileId}" has no field "${ref.fieldId}" (neither in its fields, its template nor its text tags)`,
        });
        return;
      }
      if (!isAttachableType(f.type)) {
        // Explicit fields of the request were reported while parsing; this is a template's or a tag's.
        if (f.source !== 'request')
          errors.push({
            property: `${at}.fieldId`,
            message: `Field "${ref.fieldId}" is a ${f.type} field; signers take only signature, initial, signatureDate, fullName and email fields`,
          });
        return;
      }
      const previous = owner.get(key(ref.fileId, ref.fieldId));
      if (previous !== undefined && previous !== s.id) {
        errors.push({
          property: `${at}.fieldId`,
          message: `Field "${ref.fieldId}" of file "${ref.fileId}" is already given to signer "${previous}"`,
        });
        return;
      }
      owner.set(key(ref.fileId, ref.fieldId), s.id);
    });
  });
  if (errors.length > 0) throw new ValidationError(errors);

  // Document order: file, page, then top to bottom and left to right (what a signer steps through).
  const fields: PlannedField[] = fieldsByFile.flatMap((list) =>
    [...list]
      .sort((a, b) => a.pageNum - b.pageNum || a.rect.y - b.rect.y || a.rect.x - b.rect.x)
      .map(({ taggedSigner: _t, tagText: _x, ...f }) => {
        const signerId = owner.get(key(f.fileId, f.fieldId));
        return signerId === undefined ? f : { ...f, signerId };
      }),
  );
  const signers = request.signers
    .map((signer) => ({
      signerId: signer.id,
      routingOrder: signer.routingOrder,
      signer,
      fields: fields.filter((f) => f.signerId === signer.id),
    }))
    // Stable: equal routing orders keep the request's order.
    .sort((a, b) => a.routingOrder - b.routingOrder);
  return { signers, fields, unassigned: fields.filter((f) => f.signerId === undefined && isSigningType(f.type)) };
}

export interface MergedField extends PlannedField {
  /** Unique in the merged document: the field's own id, or `<fileId>.<fieldId>` when two files share it. */
  mergedFieldId: string;
  /** 0-based page in the merged document. */
  mergedPageNum: number;
}

/** The merged document's fields: pages moved past the earlier files' pages, ids kept unique. */
export function mergePlan(fields: PlannedField[], fileOrder: string[], pageCounts: number[]): MergedField[] {
  const offsets = new Map<string, number>();
  let total = 0;
  fileOrder.forEach((id, i) => {
    offsets.set(id, total);
    total += pageCounts[i] ?? 0;
  });
  const count = new Map<string, number>();
  for (const f of fields) count.set(f.fieldId, (count.get(f.fieldId) ?? 0) + 1);
  const used = new Set<string>();
  return fields.map((f) => {
    let id = (count.get(f.fieldId) ?? 0) > 1 ? `${f.fileId}.${f.fieldId}` : f.fieldId;
    for (let n = 2; used.has(id); n++) id = `${f.fileId}.${f.fieldId}_${n}`;
    used.add(id);
    return { ...f, mergedFieldId: id, mergedPageNum: (offsets.get(f.fileId) ?? 0) + f.pageNum };
  });
}

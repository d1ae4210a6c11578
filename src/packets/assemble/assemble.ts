/**
 * createEtchPacket, document side: each file becomes a PDF (templates filled,
 * uploads read or converted from DOCX, HTML and Markdown generated), text tags
 * become fields, fill fields are filled from `data.payloads`, and the fields
 * each signer must sign are planned.
 *
 * Two steps belong to the PDF kernel: writing the signature and initial fields
 * as empty /Sig widgets (src/acroform, an appended update), and merging the
 * files (`mergePDFs`, src/pdf). Both are the kernel's by default; `hooks` can
 * replace them.
 */
import { decryptDataString } from '../../crypto/index.js';
import { uniquePdfFileNames } from '../../format/index.js';
import { formatPath } from '../../schema/index.js';
import type { Template, TemplateInput } from '../../template/index.js';
import { fillInto, withoutLoadedText } from './fields.js';
import { keepsSignedBytes, signedUploadChanged } from './signed.js';
import {
  AssembleCallOptions,
  AssembleOptions,
  AssembledFile,
  AssembledPacket,
  kernelMerge,
  kernelSigningFields,
  signatureFields,
} from './assembled.js';
import { isSigningType } from '../request/field.js';
import { scanPdf } from '../tags/find.js';
import { assemblyBudgets, checkFileCount, checkUploadBytes, type PacketLimits } from '../request/limits.js';
import { mergePlan, planSigners, type PlannedField } from './plan.js';
import type { PacketEngine } from './port.js';
import { ignoredPageOptions } from '../request/page-options.js';
import { parsePacketRequest } from '../request/request.js';
import { buildFile, pdfName, type BuildContext, type TemplateScanner } from './build-file.js';

export type { TemplateScanner } from './build-file.js';

/** Fields a signer fills while signing, written by the kernel rather than filled from data. */
const isSignerFilled = (f: PlannedField) => isSigningType(f.type) || f.signerId !== undefined;

/** One packet, nothing kept: `new PacketAssembler(engine, options).assemble(body)` reuses template scans. */
export function assemblePacket(
  engine: PacketEngine,
  body: unknown,
  options: AssembleOptions = {},
): Promise<AssembledPacket> {
  return assembleWith(engine, body, options, scanPdf);
}

/** One assembly; `scanTemplate` reads a template's tags (PacketAssembler's reuses them). */
export async function assembleWith(
  engine: PacketEngine,
  body: unknown,
  options: AssembleOptions,
  scanTemplate: TemplateScanner,
  call: AssembleCallOptions = {},
): Promise<AssembledPacket> {
  const key = options.privateKey;
  const limits: PacketLimits = { ...engine.limits, ...options.limits };
  checkFileCount(body, limits);
  // The options' key, else the engine's (as engine.fill decrypts a fill's `data`).
  const decrypt = key ? (s: string) => decryptDataString(s, key) : engine.decryptData;
  const request = parsePacketRequest(body, decrypt ? { decrypt } : {});
  checkUploadBytes(request, limits);
  const failed = new AbortController();
  const context: BuildContext = {
    options,
    scanTemplate,
    // Each file's own signature fields are counted here, before any file is read.
    budgets: assemblyBudgets(limits, request),
    signal: failed.signal,
    ...(call.generated ? { generated: call.generated } : {}),
    ...(call.templates ? { templates: call.templates } : {}),
  };
  const built = await Promise.all(
    request.files.map((file, i) =>
      buildFile(engine, request, file, i, context).catch((e: unknown) => {
        failed.abort(e);
        throw e;
      }),
    ),
  );
  // A merge makes one new file of all: an upload's signature would no longer cover anything.
  const signedMerged = request.mergePDFs ? built.findIndex((b) => b.signed) : -1;
  if (signedMerged >= 0) throw signedUploadChanged(signedMerged, 'merged with the other files into one (mergePDFs)');
  const plan = planSigners(
    request,
    built.map((b) => b.placed),
  );

  const write = options.hooks?.writeSigningFields ?? kernelSigningFields;
  // Separate files with the kernel's writer: each file's fill writes its signature fields in its own update.
  const sigsInFill = !request.mergePDFs && !options.hooks?.writeSigningFields;
  const files: AssembledFile[] = [];
  const textLeftOut: string[] = [];
  for (const [i, b] of built.entries()) {
    const file = request.files[i]!;
    const fields = plan.fields.filter((f) => f.fileId === file.id);
    // Fields a signer was given are the signer's to fill, even fill types (fullName, email).
    const fillFields = fields
      .filter((f) => !isSignerFilled(f))
      .map((f) => b.fieldInputs.get(f.fieldId))
      .filter((f): f is TemplateInput['fields'][number] => !!f);
    const signing = fields.filter(isSignerFilled);
    const inFill = sigsInFill ? signatureFields(signing) : [];
    // A value people typed never fills an image field (it would be loaded as the image's URL).
    const { payload, dropped } = withoutLoadedText(
      request.payloads[file.id],
      [...(b.template?.fields ?? []), ...fillFields],
      file.id,
    );
    textLeftOut.push(...dropped);
    let pdf = b.pdf;
    let written = false;
    if (b.template) {
      // The template's own fields and the fill-type tags found on it, in one fill.
      const template: TemplateInput | Template =
        fillFields.length > 0 ? { ...b.template, fields: [...b.template.fields, ...fillFields] } : b.template;
      pdf = await fillInto(engine, template, payload, file.title, inFill, file, i);
      written = true;
    } else if (fillFields.length > 0) {
      pdf = await fillInto(
        engine,
        { eid: `packet-file:${file.id}`, pdf, fields: fillFields },
        payload,
        file.title,
        inFill,
        file,
        i,
      );
      written = true;
    }
    // An upload nobody fills keeps its own form: its signature fields are appended to it as they are.
    if (signing.length > 0 && !request.mergePDFs && !(written && sigsInFill)) pdf = await write(pdf, signing);
    // The fill engine draws page content and rewrites the form (its signature field dropped): beyond
    // form filling for the upload's signature, which castpress would then no longer see.
    if (b.signed && written)
      throw signedUploadChanged(i, 'fields to fill on it, which the fill engine draws as page content');
    // Anything else must only append to the signed bytes.
    if (b.signed && !keepsSignedBytes(b.pdf, pdf)) throw signedUploadChanged(i, 'its bytes rewritten');
    files.push({
      id: file.id,
      kind: file.kind,
      filename: b.filename,
      title: b.title,
      pdf,
      pageCount: b.pageCount,
      fields,
      ...(b.template && file.kind === 'template'
        ? { template: { castEid: file.castEid, versionNumber: b.template.versionNumber ?? 0 } }
        : {}),
    });
  }

  // Unique within the packet (numbered as the zip numbers them), so each download URL names one document.
  uniquePdfFileNames(files.map((f) => f.filename)).forEach((name, k) => (files[k]!.filename = name));

  const merge = options.hooks?.mergePdfs ?? kernelMerge;
  let merged: AssembledPacket['merged'];
  if (request.mergePDFs) {
    const mergedFields = mergePlan(
      plan.fields,
      files.map((f) => f.id),
      files.map((f) => f.pageCount),
    );
    let pdf = await merge(files.map((f) => f.pdf));
    pdf = await write(pdf, mergedFields.filter(isSignerFilled));
    merged = {
      filename: pdfName(request.name),
      pdf,
      pageCount: files.reduce((n, f) => n + f.pageCount, 0),
      fields: mergedFields,
    };
  }
  const warnings = [
    ...ignoredPageOptions(body).map((p) => `${p}: not an option castpress knows; ignored`),
    ...textLeftOut.map((p) => `${p}: typed text cannot fill an image field; left empty`),
    ...built.flatMap((b, i) =>
      b.removed.length > 0
        ? [`${formatPath(['files', i, 'file'])}: removed active content: ${b.removed.join(', ')}`]
        : [],
    ),
    ...built.flatMap((b) => b.tagWarnings),
    ...built.flatMap((b, i) =>
      b.decrypted
        ? [
            `${formatPath(['files', i, 'file'])}: encrypted (no password needed to open it): decrypted, its permissions no longer apply`,
          ]
        : [],
    ),
  ];
  return { request, files, merged, plan, warnings };
}

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
import { InvalidPdfError, ValidationError, type FieldError } from '../../errors/index.js';
import { safePdfFileName, uniquePdfFileNames } from '../../format/index.js';
import { stripActiveContent } from '../../pdf/index.js';
import { formatPath } from '../../schema/index.js';
import type { Template, TemplateInput } from '../../template/index.js';
import { asFillField, fillInto, placedField, remapErrors, tagFieldId, withoutLoadedText } from './fields.js';
import { carriesSignature, keepsSignedBytes, signedUploadChanged } from './signed.js';
import {
  AssembleCallOptions,
  AssembleOptions,
  AssembledFile,
  AssembledPacket,
  kernelMerge,
  kernelSigningFields,
  signatureFields,
} from './assembled.js';
import { DocxConverter, convertDocxToPdf, sniffUpload } from '../docx/convert.js';
import { isSigningType } from '../request/field.js';
import { scanGeneratedPdf, scanPdf, type FoundTag, type ScannedPdf, type TagSource } from '../tags/find.js';
import {
  assemblyBudgets,
  checkFileCount,
  checkUploadBytes,
  signatureFieldCount,
  type AssemblyBudgets,
  type PacketLimits,
} from '../request/limits.js';
import { mergePlan, planSigners, type PlacedField, type PlannedField } from './plan.js';
import type { PacketEngine } from './port.js';
import { ignoredPageOptions } from '../request/page-options.js';
import { parsePacketRequest, type PacketRequest } from '../request/request.js';
import { remapMarkdownErrors, requestFieldIndex, type PacketFile } from '../request/files.js';
import { markupWithTitle } from '../request/generated-title.js';
import { hideTextTags } from './hide-tags.js';

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

export type TemplateScanner = (pdf: Uint8Array, source: TagSource) => Promise<ScannedPdf>;

interface BuildContext {
  options: AssembleOptions;
  scanTemplate: TemplateScanner;
  budgets: AssemblyBudgets;
  /** Aborted when one file fails: the other files' scans stop at their next page. */
  signal: AbortSignal;
  generated?: ReadonlyMap<number, Uint8Array>;
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

interface BuiltFile {
  /** The file's PDF before any fill (a template's own PDF: templates are filled once the plan is known). */
  pdf: Uint8Array;
  /** A template file's template. */
  template?: Template;
  pageCount: number;
  filename: string;
  title?: string;
  placed: PlacedField[];
  /** The fill engine's field object for each fill field, by id. */
  fieldInputs: Map<string, TemplateInput['fields'][number]>;
  /** Active content removed from an upload (src/pdf `stripActiveContent`). */
  removed: string[];
  /** An encrypted upload (empty user password) whose decrypted rewrite the packet signs. */
  decrypted?: boolean;
  /** A PDF upload that carries a signature: assembly may only append to its bytes. */
  signed?: boolean;
  /** Text tags left printed although hiding them was asked for, and why. */
  tagWarnings: string[];
}

/** A document's name: `name` with `.docx`/`.html`/`.md` replaced by `.pdf`, made safe (src/format: no separators, `..`, controls or bidi characters, ≤ 255 bytes). */
function pdfName(name: string, fallback = 'document'): string {
  return safePdfFileName(name.replace(/\.(docx?|html?|md)$/i, ''), fallback);
}

async function buildFile(
  engine: PacketEngine,
  request: PacketRequest,
  file: PacketFile,
  i: number,
  context: BuildContext,
): Promise<BuiltFile> {
  const { options, scanTemplate, budgets } = context;
  const at = formatPath(['files', i]);
  const payload = request.payloads[file.id];
  let base: Uint8Array;
  let tagSource: Uint8Array;
  let templateFields: TemplateInput['fields'] = [];
  let title: string | undefined;
  let nameFallback: string;
  let template: Template | undefined;
  let removed: string[] = [];
  let decrypted = false;
  let signed = false;

  switch (file.kind) {
    case 'template': {
      template = await remapErrors(() => engine.template(file.castEid, file.versionNumber), file, i);
      // The template's own signature boxes count as an upload's listed fields do, before any page is read.
      budgets.signing.count(i, signatureFieldCount(template.fields));
      // Tags are read from the template as authored: a filled value spelling `{{ signature }}` must not become a field.
      base = template.pdf;
      tagSource = template.pdf;
      templateFields = template.fields;
      title = file.title ?? template.title;
      nameFallback = file.filename ?? template.title ?? file.id;
      break;
    }
    case 'upload': {
      const kind = sniffUpload(file.bytes);
      if (kind === 'unknown') throw new InvalidPdfError('The upload is neither a PDF nor a DOCX file', `${at}.file`);
      const docx = options.docx;
      base =
        kind === 'pdf'
          ? file.bytes
          : docx instanceof DocxConverter
            ? await docx.convert(file.bytes, `${at}.file`)
            : await convertDocxToPdf(file.bytes, { ...docx, property: `${at}.file` });
      signed = kind === 'pdf' && (await carriesSignature(base));
      // Active content (scripts, launch and automatic actions, embedded files, XFA) is removed before anything is built on the upload.
      const stripped = await stripActiveContent(base, `${at}.file`);
      // Removing it rewrites the file: a signature it carries would no longer cover it.
      if (signed && stripped.removed.length > 0)
        throw signedUploadChanged(i, `active content to remove: ${stripped.removed.join(', ')}`);
      // An encrypted upload is signed decrypted (src/pdf stripActiveContent): that rewrite breaks a signature it carries.
      if (signed && stripped.decrypted) throw signedUploadChanged(i, 'its encryption to remove');
      ({ pdf: base, removed, decrypted } = stripped);
      // Counted as soon as known: a file or packet over its pages is refused before it is scanned.
      budgets.pages.count(i, stripped.pages);
      tagSource = base;
      title = file.title;
      nameFallback = file.filename ?? file.id;
      break;
    }
    case 'html':
      base =
        context.generated?.get(i) ??
        (await engine.generate({ type: 'html', title: file.title, data: markupWithTitle(file.title, file.markup) }));
      tagSource = base;
      title = file.title;
      nameFallback = file.filename;
      break;
    case 'markdown':
      try {
        base = await engine.generate(file.generate);
      } catch (e) {
        if (e instanceof ValidationError)
          throw new ValidationError(remapMarkdownErrors(e.fields, ['files', i], file.blockIndexes));
        throw e;
      }
      tagSource = base;
      title = file.title;
      nameFallback = file.filename;
      break;
  }

  const source = { fileId: file.id, property: at };
  // Pages counted once the PDF is open, signature tags from every page's text before any glyphs are read,
  // then exactly, page by page: a limit passed stops the scan there.
  const scan = {
    pageCount: (pages: number) => budgets.pages.count(i, pages),
    textSignatureTags: (n: number, pageNum: number) => budgets.signingText.count(i, n, pageNum),
    tags: (found: FoundTag[], pageNum: number) => budgets.signing.count(i, signatureFieldCount(found), pageNum),
    signal: context.signal,
  };
  const scanned = await (file.kind === 'template'
    ? scanTemplate(tagSource, source)
    : file.kind === 'markdown'
      ? scanGeneratedPdf(tagSource, source, file.generate, scan)
      : scanPdf(tagSource, source, scan));
  // A template's scan is shared between packets (PacketAssembler): its counts are taken here.
  budgets.pages.count(i, scanned.pages.length);
  if (file.kind === 'template') budgets.signing.count(i, signatureFieldCount(scanned.tags));
  const hidden = await hideTextTags(base, scanned, file, options, signed, file.kind === 'upload' ? `${at}.file` : at);
  base = hidden.pdf;
  const placed: PlacedField[] = [];
  const fieldInputs = new Map<string, TemplateInput['fields'][number]>();
  const errors: FieldError[] = [];

  for (const f of templateFields) {
    placed.push(placedField(file.id, f, 'template'));
  }
  if (file.kind !== 'template') {
    file.fields.forEach((f, j) => {
      if (f.pageNum >= scanned.pages.length) {
        errors.push({
          property: formatPath(['files', i, 'fields', requestFieldIndex(file, j), 'pageNum']),
          message: `The document has ${scanned.pages.length} page${scanned.pages.length === 1 ? '' : 's'} (pageNum counts from 0)`,
        });
        return;
      }
      placed.push(placedField(file.id, f, 'request'));
      const input = asFillField(f);
      if (input) fieldInputs.set(f.id, input);
    });
  }
  if (errors.length > 0) throw new ValidationError(errors);

  const taken = new Set(placed.map((p) => p.fieldId));
  const counters = new Map<string, number>();
  for (const tag of scanned.tags) {
    const id = tagFieldId(tag, taken, counters);
    taken.add(id);
    placed.push({
      fileId: file.id,
      fieldId: id,
      type: tag.type,
      pageNum: tag.pageNum,
      rect: tag.rect,
      alias: tag.alias,
      label: tag.label,
      source: 'tag',
      taggedSigner: tag.signerId,
      tagText: tag.text,
    });
    const input = asFillField({ id, type: tag.type, pageNum: tag.pageNum, rect: tag.rect, alias: tag.alias });
    // A template's own fields were filled with it; tag fields of a template are filled over its output.
    if (input) fieldInputs.set(id, input);
  }

  return {
    pdf: base,
    ...(template ? { template } : {}),
    removed,
    ...(decrypted ? { decrypted } : {}),
    ...(signed ? { signed } : {}),
    tagWarnings: hidden.warnings,
    pageCount: scanned.pages.length,
    filename: pdfName(payload?.filename ?? nameFallback, file.id),
    title,
    placed,
    fieldInputs,
  };
}

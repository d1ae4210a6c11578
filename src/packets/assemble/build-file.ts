/** One file of a packet request as a PDF with its placed fields: a template, an upload (PDF or DOCX), generated HTML or Markdown. */
import { InvalidPdfError, NotFoundError, ValidationError, type FieldError } from '../../errors/index.js';
import { safePdfFileName } from '../../format/index.js';
import { stripActiveContent } from '../../pdf/index.js';
import { formatPath } from '../../schema/index.js';
import type { Template, TemplateInput } from '../../template/index.js';
import { asFillField, placedField, remapErrors, tagFieldId } from './fields.js';
import { carriesSignature, signedUploadChanged } from './signed.js';
import { AssembleCallOptions, AssembleOptions } from './assembled.js';
import { DocxConverter, convertDocxToPdf, sniffUpload } from '../docx/convert.js';
import { scanGeneratedPdf, scanPdf, type FoundTag, type ScannedPdf, type TagSource } from '../tags/find.js';
import { signatureFieldCount, type AssemblyBudgets } from '../request/limits.js';
import { type PlacedField } from './plan.js';
import type { PacketEngine } from './port.js';
import { type PacketRequest } from '../request/request.js';
import { remapMarkdownErrors, requestFieldIndex, type PacketFile } from '../request/files.js';
import { markupWithTitle } from '../request/generated-title.js';
import { hideTextTags } from './hide-tags.js';

export type TemplateScanner = (pdf: Uint8Array, source: TagSource) => Promise<ScannedPdf>;

export interface BuildContext {
  options: AssembleOptions;
  scanTemplate: TemplateScanner;
  budgets: AssemblyBudgets;
  /** Aborted when one file fails: the other files' scans stop at their next page. */
  signal: AbortSignal;
  generated?: ReadonlyMap<number, Uint8Array>;
  templates?: AssembleCallOptions['templates'];
}

export interface BuiltFile {
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
export function pdfName(name: string, fallback = 'document'): string {
  return safePdfFileName(name.replace(/\.(docx?|html?|md)$/i, ''), fallback);
}

export async function buildFile(
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
      const own = context.templates?.get(i);
      template = await remapErrors(
        async () => {
          if (!own) return engine.template(file.castEid, file.versionNumber);
          if ('missing' in own) throw new NotFoundError(own.missing);
          return own.template;
        },
        file,
        i,
      );
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

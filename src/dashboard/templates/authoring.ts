/**
 * Making a template from an upload, shared by the dashboard's upload and GraphQL `createCast`:
 * the bytes told apart (PDF or DOCX, converted by LibreOffice as packets' uploads are), active
 * content removed, the pages measured, fields detected. What is detected is returned as proposals;
 * the caller says whether they become the working version's fields.
 */
import { prepareTemplatePdf, type TemplateOutcome, type TemplateTask } from '../../batch/index.js';
import { InvalidPdfError } from '../../errors/index.js';
import { DocxConverter, sniffUpload, type DocxConverterOptions } from '../../packets/index.js';
import { fieldSchemaProblem, uniqueFieldIds } from './fields.js';
import {
  templateName,
  type TemplateCatalogue,
  type TemplateContent,
  type TemplateRecord,
} from '../../template/index.js';
import { formFieldProposals, type DetectFields, type Proposal } from './detect.js';

/** Prepares an upload's PDF (active content removed, pages measured, form fields read), for `organization`. */
export type PrepareTemplatePdf = (task: TemplateTask, organization: string) => Promise<TemplateOutcome & { ok: true }>;

export interface AuthoringOptions {
  catalogue: () => Promise<TemplateCatalogue>;
  /** Field detection; default the PDF's own form fields (detect.ts), read by `prepare`. */
  detect?: DetectFields;
  /** Where the PDF is prepared: the server passes its render pool's threads; default in-process. */
  prepare?: PrepareTemplatePdf;
  /** The LibreOffice converter's options for DOCX uploads (the server's `engine.docx`). */
  docx?: DocxConverterOptions;
  /** Pages a template may have (413 beyond; the server passes the engine's `packetPagesPerFile`). */
  maxPages: number;
}

export interface Upload {
  bytes: Uint8Array;
  /** The uploaded file's name: the template's name when none is given. */
  filename?: string;
  /** What errors about the file name (`file`, `variables.file`). */
  property: string;
}

export interface UploadOptions {
  name?: string;
  /** The working version's title (the filled PDF's title; default the template's name). */
  title?: string;
  /** Run detection (default true). */
  detect?: boolean;
  /** The proposals become the working version's fields (createCast, which has no step to accept them). */
  accept?: boolean;
  at: number;
}

/** A name from a file name: its last path part without the extension. */
function nameOfFile(filename: string | undefined): string | undefined {
  const base = filename
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.(pdf|docx)$/i, '')
    .trim();
  return base ? base : undefined;
}

export class TemplateAuthoring {
  readonly #options: AuthoringOptions;
  readonly #prepareOn: PrepareTemplatePdf;
  #docx?: DocxConverter;

  constructor(options: AuthoringOptions) {
    this.#options = options;
    this.#prepareOn = options.prepare ?? ((task) => prepareTemplatePdf(task));
  }

  /**
   * The upload as a PDF ready to be a template: converted, active content removed, pages measured,
   * and its own form fields read when they are the detection (no `detect` given) and it is asked for.
   */
  async #prepare(upload: Upload, organization: string, detect: boolean): Promise<TemplateOutcome & { ok: true }> {
    const kind = sniffUpload(upload.bytes);
    if (kind === 'unknown') throw new InvalidPdfError('The upload is neither a PDF nor a DOCX file', upload.property);
    let pdf = upload.bytes;
    if (kind === 'docx') {
      this.#docx ??= new DocxConverter(this.#options.docx);
      pdf = await this.#docx.convert(upload.bytes, upload.property);
    }
    return this.#prepareOn(
      {
        bytes: pdf,
        property: upload.property,
        maxPages: this.#options.maxPages,
        formFields: detect && !this.#options.detect,
      },
      organization,
    );
  }

  /** Detection's proposals for a prepared PDF, each a field the template schema accepts (ids made unique). */
  async #proposals(prepared: TemplateOutcome & { ok: true }): Promise<Proposal[]> {
    const detect = this.#options.detect;
    const all = detect ? await detect(prepared.pdf) : formFieldProposals(prepared.formFields);
    const found = all.filter((p) => !fieldSchemaProblem(p.field, prepared.pages.length));
    const fields = uniqueFieldIds(found.map((p) => p.field));
    return found.map((p, i) => ({ ...p, field: fields[i]! }));
  }

  async fromUpload(
    organization: string,
    upload: Upload,
    options: UploadOptions,
  ): Promise<{ template: TemplateRecord; proposals: Proposal[] }> {
    const name = templateName(options.name ?? nameOfFile(upload.filename) ?? 'Untitled template');
    const detect = options.detect !== false;
    const prepared = await this.#prepare(upload, organization, detect);
    const { pdf, pages } = prepared;
    const proposals = detect ? await this.#proposals(prepared) : [];
    const content: TemplateContent = {
      ...(options.title !== undefined ? { title: options.title } : {}),
      fields: options.accept ? proposals.map((p) => p.field) : [],
    };
    const catalogue = await this.#options.catalogue();
    const template = await catalogue.create(organization, { name, pdf, pages, content }, options.at);
    return { template, proposals };
  }

  /** Detection run again on a template's PDF. */
  async proposals(organization: string, eid: string): Promise<Proposal[]> {
    const catalogue = await this.#options.catalogue();
    const pdf = await catalogue.pdf(organization, eid);
    return this.#proposals(await this.#prepare({ bytes: pdf, property: 'pdf' }, organization, true));
  }

  /** An exported template made again (a new EID): its PDF checked as an upload is, its content as a save is. */
  async fromExport(
    organization: string,
    input: { name: string; pdf: Uint8Array; content: (pageCount: number) => TemplateContent },
    at: number,
  ): Promise<TemplateRecord> {
    if (sniffUpload(input.pdf) !== 'pdf') throw new InvalidPdfError('Must be the bytes of a PDF', 'pdf');
    const { pdf, pages } = await this.#prepare({ bytes: input.pdf, property: 'pdf' }, organization, false);
    const content = input.content(pages.length);
    const catalogue = await this.#options.catalogue();
    return catalogue.create(organization, { name: input.name, pdf, pages, content }, at);
  }

  /** Ends the DOCX converter (LibreOffice processes): queued conversions fail. */
  close(): void {
    this.#docx?.close();
  }
}

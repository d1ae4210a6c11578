/**
 * Making a template from an upload, shared by the dashboard's upload and GraphQL `createCast`:
 * the bytes told apart (PDF or DOCX, converted by LibreOffice as packets' uploads are), active
 * content removed, the pages measured, fields detected. What is detected is returned as proposals;
 * the caller says whether they become the working version's fields.
 */
import { InvalidPdfError, PayloadTooLargeError } from '../errors/index.js';
import { DocxConverter, sniffUpload, type DocxConverterOptions } from '../packets/index.js';
import { displayedPageSizes, stripActiveContent } from '../pdf/index.js';
import { fieldSchemaProblem, uniqueFieldIds } from './fields.js';
import { templateName, type TemplateCatalogue, type TemplateContent, type TemplateRecord } from '../template/index.js';
import { acroformProposals, type DetectFields, type Proposal } from './detect.js';

export interface AuthoringOptions {
  catalogue: () => Promise<TemplateCatalogue>;
  /** Field detection; default the PDF's own form fields (detect.ts). */
  detect?: DetectFields;
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
  readonly #detect: DetectFields;
  #docx?: DocxConverter;

  constructor(options: AuthoringOptions) {
    this.#options = options;
    this.#detect = options.detect ?? acroformProposals;
  }

  /** The upload as a PDF ready to be a template: converted, active content removed, pages measured. */
  async #prepare(upload: Upload): Promise<{ pdf: Uint8Array; pages: Array<{ width: number; height: number }> }> {
    const kind = sniffUpload(upload.bytes);
    if (kind === 'unknown') throw new InvalidPdfError('The upload is neither a PDF nor a DOCX file', upload.property);
    let pdf = upload.bytes;
    if (kind === 'docx') {
      this.#docx ??= new DocxConverter(this.#options.docx);
      pdf = await this.#docx.convert(upload.bytes, upload.property);
    }
    const stripped = await stripActiveContent(pdf, upload.property);
    if (stripped.pages > this.#options.maxPages)
      throw new PayloadTooLargeError(
        `A template may have at most ${this.#options.maxPages} pages; this file has ${stripped.pages}`,
        upload.property,
      );
    return { pdf: stripped.pdf, pages: await displayedPageSizes(stripped.pdf, upload.property) };
  }

  /** Detection's proposals for a PDF, each a field the template schema accepts (ids made unique). */
  async #proposals(pdf: Uint8Array, pageCount: number): Promise<Proposal[]> {
    const found = (await this.#detect(pdf)).filter((p) => !fieldSchemaProblem(p.field, pageCount));
    const fields = uniqueFieldIds(found.map((p) => p.field));
    return found.map((p, i) => ({ ...p, field: fields[i]! }));
  }

  async fromUpload(
    organization: string,
    upload: Upload,
    options: UploadOptions,
  ): Promise<{ template: TemplateRecord; proposals: Proposal[] }> {
    const name = templateName(options.name ?? nameOfFile(upload.filename) ?? 'Untitled template');
    const { pdf, pages } = await this.#prepare(upload);
    const proposals = options.detect === false ? [] : await this.#proposals(pdf, pages.length);
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
    const record = await catalogue.record(organization, eid);
    return this.#proposals(await catalogue.pdf(organization, eid), record.pages.length);
  }

  /** An exported template made again (a new EID): its PDF checked as an upload is, its content as a save is. */
  async fromExport(
    organization: string,
    input: { name: string; pdf: Uint8Array; content: (pageCount: number) => TemplateContent },
    at: number,
  ): Promise<TemplateRecord> {
    if (sniffUpload(input.pdf) !== 'pdf') throw new InvalidPdfError('Must be the bytes of a PDF', 'pdf');
    const { pdf, pages } = await this.#prepare({ bytes: input.pdf, property: 'pdf' });
    const content = input.content(pages.length);
    const catalogue = await this.#options.catalogue();
    return catalogue.create(organization, { name: input.name, pdf, pages, content }, at);
  }

  /** Ends the DOCX converter (LibreOffice processes): queued conversions fail. */
  close(): void {
    this.#docx?.close();
  }
}

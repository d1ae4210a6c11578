/** What assembly is given and gives back (assemble.ts): its hooks into the kernel, options and the assembled packet. */
import { appendSignatureFieldsOnDisplay, type SignatureFieldSpec } from '../acroform/index.js';
import { type KeyInput } from '../crypto/index.js';
import type { FillSignatureField } from '../fill/index.js';
import { mergePDFs } from '../pdf/index.js';
import { DocxConverter, type DocxConvertOptions } from './docx.js';
import { type PacketLimits } from './limits.js';
import { type MergedField, type PacketPlan, type PlannedField } from './plan.js';
import { type PacketFile } from './request-files.js';
import { type PacketRequest } from './request.js';
import type { Template } from '../template/index.js';

/** Kernel hook: writes `fields` (signing kinds: signature, initial, signatureDate, and signer-filled fullName/email) as empty widgets. */
export type SigningFieldWriter = (
  pdf: Uint8Array,
  fields: ReadonlyArray<PlannedField | MergedField>,
) => Promise<Uint8Array>;
/** Kernel hook: one PDF of all `pdfs`, pages in order. */
export type PdfMerger = (pdfs: ReadonlyArray<Uint8Array>) => Promise<Uint8Array>;

export interface PacketHooks {
  /** Default: `kernelSigningFields` (src/acroform's /Sig field writer). */
  writeSigningFields?: SigningFieldWriter;
  /** Default: src/pdf's `mergePDFs`. */
  mergePdfs?: PdfMerger;
}

/**
 * The kernel's signing-field writer: every `signature` and `initial` field becomes an
 * empty /Sig field with its widget, appended as an incremental update. The other
 * fields a signer fills (signatureDate, fullName, email and fill types given to a
 * signer) stay in the plan and are drawn when the signer signs. Field names are the
 * field ids (merged ids with `.` as `_`: a /Sig name may not hold a period).
 */
export const kernelSigningFields: SigningFieldWriter = async (pdf, fields) => {
  const specs: SignatureFieldSpec[] = signatureFields(fields).map(({ pageNum, ...f }) => ({
    ...f,
    pageIndex: pageNum,
  }));
  return specs.length === 0 ? pdf : appendSignatureFieldsOnDisplay(pdf, specs);
};

/**
 * The signature and initial fields among `fields`, named and placed as the kernel writes them:
 * the field id (merged id and page in a merged packet), `.` as `_` (a /Sig name may not hold a period).
 */
export function signatureFields(fields: ReadonlyArray<PlannedField | MergedField>): FillSignatureField[] {
  return fields.flatMap((f) => {
    if (f.type !== 'signature' && f.type !== 'initial') return [];
    const merged = 'mergedFieldId' in f;
    return [
      {
        name: (merged ? f.mergedFieldId : f.fieldId).replaceAll('.', '_'),
        kind: f.type,
        pageNum: merged ? f.mergedPageNum : f.pageNum,
        rect: f.rect,
      },
    ];
  });
}

export const kernelMerge: PdfMerger = async (pdfs) => (await mergePDFs(pdfs)).pdf;

export interface AssembleOptions {
  /** RSA private key for an encrypted `data` string (the fill format); default the engine's (`decryptData`). */
  privateKey?: KeyInput;
  /** A converter bounding LibreOffice processes (shared by the caller across packets), or options for one-off conversions. */
  docx?: DocxConverter | Omit<DocxConvertOptions, 'property' | 'signal'>;
  hooks?: PacketHooks;
  /** Files, pages and upload bytes of one packet; default: the engine's `limits`. */
  limits?: Partial<PacketLimits>;
  /**
   * Text tags of uploads and generated files removed from their page content (default true); a file's own
   * `hideTextTags` wins. Templates and uploads that carry a signature keep theirs.
   */
  hideTextTags?: boolean;
}

/** What one assembly is given besides the body. */
export interface AssembleCallOptions {
  /**
   * PDFs of the request's HTML files already generated, by index in `files`: the server renders
   * HTML on its main engine (Chromium) and assembles the rest on a worker thread with these.
   */
  generated?: ReadonlyMap<number, Uint8Array>;
  /**
   * Template files whose template the caller looked up itself (the organization's own templates,
   * src/packets/workflow/own-templates.ts), by index in `files`: a template, or why the version
   * asked for is missing. Other template files are looked up with the engine.
   */
  templates?: ReadonlyMap<number, OwnTemplate>;
}

/** A template the caller found for a file, or the message of the 404 it met (plain data: it crosses to worker threads). */
export type OwnTemplate = { template: Template } | { missing: string };

export interface AssembledFile {
  id: string;
  kind: PacketFile['kind'];
  /** Output name: the payload's `filename`, else the file's, else the template's title, else its id; always `.pdf`. */
  filename: string;
  title?: string;
  pdf: Uint8Array;
  pageCount: number;
  /** Every field of the file (fill and signing), from the request, the template and text tags. */
  fields: PlannedField[];
  /** A template file: the template and the version it was made from (templates by reference, #32). */
  template?: { castEid: string; versionNumber: number };
}

export interface AssembledPacket {
  request: PacketRequest;
  files: AssembledFile[];
  /** With `mergePDFs`: the one PDF signers sign, and every field placed in it. */
  merged?: { filename: string; pdf: Uint8Array; pageCount: number; fields: MergedField[] };
  plan: PacketPlan;
  /** What the caller should know about the documents: active content removed from uploads, one line per file (`files[i].file: removed …`). */
  warnings: string[];
}

import { CastpressError } from '../../errors/index.js';

/**
 * 422: a text tag in a document is malformed (unknown type, too many arguments,
 * unclosed). Names the file (its id and its place in `files`) and the page (0-based).
 */
export class TextTagError extends CastpressError {
  readonly fileId: string;
  readonly pageNum: number;
  readonly tag: string;

  constructor(fileId: string, property: string, pageNum: number, tag: string, problem: string) {
    const message = `File "${fileId}", page ${pageNum + 1}: text tag ${JSON.stringify(tag)}: ${problem}`;
    super('TextTagError', 422, message, [{ property, message }]);
    this.fileId = fileId;
    this.pageNum = pageNum;
    this.tag = tag;
  }
}

/**
 * A DOCX upload that could not become a PDF: 503 when the converter (LibreOffice) is
 * missing (the message says what to install) or passed its deadline, 422 when it
 * could not convert the file.
 */
export class ConversionError extends CastpressError {
  constructor(message: string, status: number, property: string, options?: { cause?: unknown }) {
    super('ConversionError', status, message, [{ message, property }], options);
  }
}

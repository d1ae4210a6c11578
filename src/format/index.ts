export type { DateTimeFields, DateNames, DatePart, DateToken } from './date.js';
export {
  DEFAULT_DATE_FORMAT,
  DateFormatError,
  compileDateFormat,
  dateFormatProblem,
  dateNames,
  fieldsInZone,
  formatDateTime,
  parseIsoDateTime,
} from './date.js';
export type { NumberPattern } from './number.js';
export {
  DEFAULT_PATTERNS,
  compileNumberFormat,
  formatNumber,
  numberFormatProblem,
  parseNumberPattern,
} from './number.js';
export { safeBaseName, safePdfFileName, uniquePdfFileNames } from './file-name.js';
export { cleanTypedText, replaceControls, withoutInvisibles } from './safe-text.js';
export { formatPhone, isSupportedPhoneRegion } from './phone.js';
export { escapeHtml } from './html.js';
export {
  VALUE_MARKED_CONTENT,
  escapeMarkdown,
  fillSlots,
  holdsSlot,
  literalPieces,
  literalText,
  slotLiterals,
  withoutLiteralMarks,
} from './literal-text.js';
export type { TextPiece } from './literal-text.js';

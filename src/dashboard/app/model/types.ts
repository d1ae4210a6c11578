/**
 * The shapes the dashboard's JSON API sends and takes (DASHBOARD-API.md), written out for the browser:
 * the engine's schemas (src/fields, src/template) pull zod and Node-side code the page does not need.
 * test/dashboard-model.test.ts holds these to the engine's own (field types, keys, assignability).
 */

/** The fill types of the spec's table (src/fields FIELD_TYPES), in its order. */
export const FILL_TYPES = [
  'shortText',
  'longText',
  'email',
  'ssn',
  'ein',
  'date',
  'radioGroup',
  'imageFile',
  'checkbox',
  'number',
  'decimalNumber',
  'dollar',
  'integer',
  'percent',
  'charList',
  'textWrap',
  'fullName',
  'usAddress',
  'phone',
] as const;

/** What a signer fills while signing a packet made from the template (src/packets SIGNING_TYPES). */
export const SIGNING_TYPES = ['signature', 'initial', 'signatureDate'] as const;

export type FillType = (typeof FILL_TYPES)[number];
export type SigningType = (typeof SIGNING_TYPES)[number];
export type FieldType = FillType | SigningType;

/** Points from the page's top-left corner as shown. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Alignment = 'left' | 'center' | 'right';
export type FontWeight = 'normal' | 'bold' | 'italic' | 'boldItalic';
export type VerticalAlignment = 'top' | 'middle' | 'bottom';

/** The styling a template sets for one field or the whole document (levels 2 and 4 of the precedence). */
export interface FieldStyle {
  fontFamily?: string;
  fontSize?: number;
  textColor?: string;
  alignment?: Alignment;
  fontWeight?: FontWeight;
  verticalAlignment?: VerticalAlignment;
}

export interface RadioOption {
  id: string;
  rect: Rect;
  exportValue?: string;
}

export interface TemplateField {
  id: string;
  alias?: string;
  type: FieldType;
  /** 0-based page index. */
  pageNum: number;
  rect: Rect;
  format?: string;
  style?: FieldStyle;
  cells?: number;
  lines?: Rect[];
  options?: RadioOption[];
  parts?: Record<string, Rect>;
  rows?: Rect[];
  readOnly?: boolean;
  name?: string;
  maxLength?: number;
  square?: boolean;
  rotation?: 0 | 90 | 180 | 270;
  acroFieldName?: string;
}

/** The engine's template JSON without the PDF bytes. */
export interface TemplateJson {
  title?: string;
  fields: TemplateField[];
  style?: FieldStyle;
}

export interface TemplateSummary {
  eid: string;
  name: string;
  updatedAt: string;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  fieldCount: number;
}

export interface VersionInfo {
  versionNumber: number;
  publishedAt: string;
  publishedBy: string;
}

export interface PageSize {
  width: number;
  height: number;
}

export interface TemplateDetail {
  eid: string;
  name: string;
  pages: PageSize[];
  working: TemplateJson;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  versions: VersionInfo[];
  updatedAt: string;
}

export type ProposalSource = 'acroform' | 'tag' | 'box' | 'underline' | 'comb' | 'checkbox';

export interface Proposal {
  field: TemplateField;
  source: ProposalSource;
  confidence: number;
  label?: string;
}

export interface ChangedField {
  id: string;
  before: TemplateField;
  after: TemplateField;
  keys: string[];
}

export interface FieldDiff {
  added: TemplateField[];
  removed: TemplateField[];
  changed: ChangedField[];
}

export interface Session {
  organization: string;
  keyLabel: string;
  csrfToken: string;
  /** Set when an embed link opened the session: it edits this template only. */
  templateEid?: string;
}

/** One problem of a typed error: `property` is a path such as `fields[3].rect.width`. */
export interface ErrorField {
  message: string;
  property: string;
}

export interface ErrorBody {
  name: string;
  message: string;
  fields: ErrorField[];
}

/**
 * Templates an organization makes and edits (the dashboard, GraphQL `createCast`): the contract
 * every editable store keeps, and the rules they share. The stores themselves are
 * `MemoryTemplateCatalogue` (memory.ts) and the server database's (src/packets/store).
 */
import { randomBytes } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors/index.js';
import { formatPath, parseWith } from '../schema/index.js';
import { templateSchema, type Template, type TemplateField, type TemplateStyle } from './model.js';
import { LATEST_PUBLISHED, WORKING_VERSION } from './store.js';

/** What a template version holds besides its PDF: the engine's template JSON without the bytes. */
export interface TemplateContent {
  title?: string;
  fields: TemplateField[];
  style?: TemplateStyle;
}

/** One published version: its number, when and by whom (an API key's label) it was published. */
export interface PublishedVersion {
  versionNumber: number;
  publishedAt: number;
  publishedBy: string;
}

export interface PageSize {
  width: number;
  height: number;
}

/** A template as its organization's people see it. Times are epoch milliseconds. */
export interface TemplateRecord {
  eid: string;
  organization: string;
  name: string;
  pages: PageSize[];
  /** The working version (`versionNumber=-1`): what the editor saves. */
  working: TemplateContent;
  /** The latest published version's number; null before the first publish. */
  publishedVersion: number | null;
  /** The working version differs from the latest published one (or nothing is published yet). */
  hasUnpublishedChanges: boolean;
  /** Oldest first. */
  versions: PublishedVersion[];
  createdAt: number;
  updatedAt: number;
}

/** One line of an organization's list. */
export interface TemplateListing {
  eid: string;
  name: string;
  updatedAt: number;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  fieldCount: number;
}

export interface NewTemplate {
  name: string;
  /** The PDF, its active content already removed (the caller's job: it knows where the bytes came from). */
  pdf: Uint8Array;
  pages: PageSize[];
  /** The first working version; default no fields. */
  content?: TemplateContent;
}

/** Templates by organization, as fills and packets look them up. */
export interface OrganizationTemplates {
  /**
   * The template `eid` of `organization` in the version a fill asks for (omitted or -2: the latest
   * published, -1: the working version, N: that version); undefined when the organization has no
   * template `eid` (another organization's is not its own). A template without that version is a
   * NotFoundError.
   */
  find(organization: string, eid: string, versionNumber?: number): Promise<Template | undefined>;
}

/**
 * An editable, versioned store of organizations' templates. Every call names the organization:
 * another organization's EID is a NotFoundError, never a different answer.
 */
export interface TemplateCatalogue extends OrganizationTemplates {
  create(organization: string, template: NewTemplate, at: number): Promise<TemplateRecord>;
  record(organization: string, eid: string): Promise<TemplateRecord>;
  /** Newest change first; `q` keeps the names holding it (case-insensitive). */
  list(organization: string, q?: string): Promise<TemplateListing[]>;
  /** A version's content: -1 the working version, N a published one. */
  content(organization: string, eid: string, versionNumber: number): Promise<TemplateContent>;
  /** The template's PDF (the working version's). */
  pdf(organization: string, eid: string): Promise<Uint8Array>;
  /** Replaces the working version (content already checked: `parseTemplateContent`). */
  saveWorking(organization: string, eid: string, content: TemplateContent, at: number): Promise<TemplateRecord>;
  rename(organization: string, eid: string, name: string, at: number): Promise<TemplateRecord>;
  /** The working version becomes the next published one; its number. */
  publish(organization: string, eid: string, publishedBy: string, at: number): Promise<number>;
  /** A new template (new EID) with the same PDF and working version, and no published version. */
  duplicate(organization: string, eid: string, name: string, at: number): Promise<TemplateRecord>;
  remove(organization: string, eid: string): Promise<void>;
}

/** EIDs of made templates: URL- and path-safe (`[A-Za-z0-9]`), 96 random bits. */
export function newTemplateEid(): string {
  return `tpl${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export function templateNotFound(eid: string, versionNumber?: number): NotFoundError {
  const v = versionNumber === undefined ? '' : ` version ${versionNumber}`;
  return new NotFoundError(`No template "${eid}"${v}`);
}

/** The published number a fill's `versionNumber` picks among `published` (ascending), or 'working'; undefined for none. */
export function pickPublished(
  published: readonly number[],
  versionNumber: number | undefined,
): number | 'working' | undefined {
  if (versionNumber === WORKING_VERSION) return 'working';
  if (versionNumber === undefined || versionNumber === 0 || versionNumber === LATEST_PUBLISHED)
    return published.length > 0 ? published[published.length - 1] : undefined;
  return published.includes(versionNumber) ? versionNumber : undefined;
}

/** Why a version a fill asked for is missing: "nothing published yet" says what to do. */
export function versionNotFound(eid: string, versionNumber: number | undefined, anyPublished: boolean): NotFoundError {
  if (!anyPublished && (versionNumber === undefined || versionNumber === 0 || versionNumber === LATEST_PUBLISHED))
    return new NotFoundError(
      `Template "${eid}" has no published version yet: publish it, or fill its working version (versionNumber=-1)`,
    );
  return templateNotFound(eid, versionNumber);
}

/** The engine's template of one version. The title is the version's own, else the template's name. */
export function templateOf(
  eid: string,
  name: string,
  pdf: Uint8Array,
  content: TemplateContent,
  versionNumber: number,
): Template {
  return parseWith(templateSchema, {
    eid,
    pdf,
    versionNumber,
    title: content.title ?? name,
    fields: content.fields,
    ...(content.style ? { style: content.style } : {}),
  });
}

/** Two contents the same (stored JSON compared: key order as validation leaves it). */
export function sameContent(a: TemplateContent | undefined, b: TemplateContent | undefined): boolean {
  return a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** The list's search: every word of `q` in the name, case-insensitive. */
export function nameMatches(name: string, q: string | undefined): boolean {
  if (!q?.trim()) return true;
  const lower = name.toLocaleLowerCase();
  return q
    .toLocaleLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '')
    .every((w) => lower.includes(w));
}

/** A template name: trimmed, 1–200 characters, no control characters. */
export function templateName(raw: unknown, property = 'name'): string {
  if (typeof raw !== 'string') throw ValidationError.of(property, 'Must be a string');
  // Control characters (line breaks, bidi overrides) would break the list's one line per template.
  const name = raw.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, ' ').trim();
  if (name.length < 1 || name.length > 200) throw ValidationError.of(property, 'Must be 1 to 200 characters');
  return name;
}

/**
 * A version's content as the engine validates a template (every problem at once, paths such as
 * `fields[3].rect.width`), plus each field's page within the PDF's `pageCount`. Unknown keys are
 * dropped, as the template schema drops them.
 */
export function parseTemplateContent(input: unknown, pageCount: number): TemplateContent {
  const raw = (typeof input === 'object' && input !== null && !Array.isArray(input) ? input : undefined) as
    Record<string, unknown> | undefined;
  if (!raw) throw ValidationError.of('(body)', 'Expected a template object: {title?, fields, style?}');
  // The schema wants an EID and a PDF: stand-ins, neither is part of the content.
  const parsed = parseWith(templateSchema, { ...raw, eid: 'content', pdf: new Uint8Array(1) });
  const pages = parsed.fields.flatMap((f, i) =>
    f.pageNum >= pageCount
      ? [
          {
            property: formatPath(['fields', i, 'pageNum']),
            message: `The PDF has ${pageCount} page${pageCount === 1 ? '' : 's'} (pageNum counts from 0)`,
          },
        ]
      : [],
  );
  if (pages.length > 0) throw new ValidationError(pages);
  return {
    ...(parsed.title !== undefined ? { title: parsed.title } : {}),
    fields: parsed.fields,
    ...(parsed.style !== undefined ? { style: parsed.style } : {}),
  };
}

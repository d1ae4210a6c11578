/**
 * `castpress serve --org FILE`: reading and checking the organization settings file (at start, and
 * on every reload of store.ts). A logo given as a file path (relative to the settings file) is read
 * here and kept as a data URL.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError, type FieldError } from '../../errors/index.js';
import {
  LOGO_DATA_URL,
  LOGO_MAX_BYTES,
  parseOrganizationFile,
  type OrganizationDirectory,
  type OrganizationSettings,
} from '../../packets/index.js';

const LOGO_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** The file's problems in one typed error: its message names the file and each property. */
function refused(file: string, fields: FieldError[]): ValidationError {
  const list = fields.map((f) => `${f.property}: ${f.message}`).join('; ');
  return new ValidationError(fields, `Invalid organization file ${file}: ${list}`);
}

async function logoDataUrl(logo: string, dir: string, property: string): Promise<string> {
  if (logo.startsWith('data:')) {
    checkLogoDataUrl(logo, property);
    return logo;
  }
  const type = LOGO_TYPES[path.extname(logo).toLowerCase()];
  if (!type) throw ValidationError.of(property, `Must be a ${Object.keys(LOGO_TYPES).join(', ')} file or a data URL`);
  let bytes: Buffer;
  try {
    bytes = await readFile(path.resolve(dir, logo));
  } catch (e) {
    throw ValidationError.of(property, `Cannot read ${logo}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (bytes.byteLength > LOGO_MAX_BYTES) throw ValidationError.of(property, `Must be at most ${LOGO_MAX_BYTES} bytes`);
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** The file as last read: its text, its parsed JSON and the settings (logos as data URLs). */
export interface OrganizationFileContent {
  text: string;
  json: unknown;
  directory: OrganizationDirectory;
}

/** The settings of `{organizations: {…}}` or of a one-organization file, with the property prefix of each. */
function settingsEntries(json: unknown, directory: OrganizationDirectory): Array<[string, OrganizationSettings]> {
  return isMultiOrganization(json)
    ? Object.keys(json.organizations).map((id) => [`organizations.${id}.`, directory(id)!])
    : [['', directory('')!]];
}

/** Whether parsed settings JSON is the `{organizations: {<id>: settings}}` form. */
export function isMultiOrganization(json: unknown): json is { organizations: Record<string, unknown> } {
  return typeof json === 'object' && json !== null && 'organizations' in json;
}

/** Checks settings text as read from `file`; a ValidationError naming the file and each property. */
export async function parseOrganizationText(file: string, text: string): Promise<OrganizationFileContent> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw refused(file, [{ property: '(file)', message: e instanceof Error ? e.message : String(e) }]);
  }
  try {
    const directory = parseOrganizationFile(json);
    // Logos: file paths become data URLs now, so a missing file is refused at load, not in a mail.
    const dir = path.dirname(path.resolve(file));
    for (const [prefix, settings] of settingsEntries(json, directory))
      if (settings.logo) settings.logo = await logoDataUrl(settings.logo, dir, `${prefix}logo`);
    return { text, json, directory };
  } catch (e) {
    if (e instanceof ValidationError) throw refused(file, e.fields);
    throw e;
  }
}

/** Reads and checks the settings file; throws a ValidationError naming the file and the property. */
export async function readOrganizationFile(file: string): Promise<OrganizationFileContent> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw refused(file, [{ property: '(file)', message: e instanceof Error ? e.message : String(e) }]);
  }
  return parseOrganizationText(file, text);
}

/** A logo given through the API: an image data URL within the size limit (a file path only in the file itself). */
export function checkLogoDataUrl(logo: string, property: string): void {
  if (!logo.startsWith('data:'))
    throw ValidationError.of(
      property,
      'Must be an image data URL (a file path can be given only in the settings file)',
    );
  if (!LOGO_DATA_URL.test(logo))
    throw ValidationError.of(property, 'Must be a base64 image data URL (png, jpeg, gif, webp, svg)');
  if (Buffer.byteLength(logo) > (LOGO_MAX_BYTES * 4) / 3 + 64)
    throw ValidationError.of(property, `Must be at most ${LOGO_MAX_BYTES} bytes`);
}

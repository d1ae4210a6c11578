/**
 * `castpress serve --org FILE`: the organization settings file, read once at start (a change
 * needs a restart: the settings reach the packet workflow, the signing routes and the mail
 * composer, and a half-applied reload would let them disagree). A logo given as a file path
 * (relative to the settings file) is read here and kept as a data URL.
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
    if (!LOGO_DATA_URL.test(logo))
      throw ValidationError.of(property, 'Must be a base64 image data URL (png, jpeg, gif, webp, svg)');
    if (Buffer.byteLength(logo) > (LOGO_MAX_BYTES * 4) / 3 + 64)
      throw ValidationError.of(property, `Must be at most ${LOGO_MAX_BYTES} bytes`);
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

/** Reads and checks the settings file; throws a ValidationError naming the file and the property. */
export async function loadOrganizationFile(file: string): Promise<OrganizationDirectory> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw refused(file, [{ property: '(file)', message: e instanceof Error ? e.message : String(e) }]);
  }
  try {
    const directory = parseOrganizationFile(json);
    // Logos: file paths become data URLs now, so a missing file is refused at start, not in a mail.
    const dir = path.dirname(path.resolve(file));
    const multi = typeof json === 'object' && json !== null && 'organizations' in json;
    const entries: Array<[string, OrganizationSettings]> = multi
      ? Object.keys((json as { organizations: Record<string, unknown> }).organizations).map((id) => [
          `organizations.${id}.`,
          directory(id)!,
        ])
      : [['', directory('')!]];
    for (const [prefix, settings] of entries)
      if (settings.logo) settings.logo = await logoDataUrl(settings.logo, dir, `${prefix}logo`);
    return directory;
  } catch (e) {
    if (e instanceof ValidationError) throw refused(file, e.fields);
    throw e;
  }
}

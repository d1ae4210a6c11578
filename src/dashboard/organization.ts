/**
 * The organization's settings page's routes (`/dashboard/api/organization`): the signed-in key's
 * organization's settings, read and replaced through the server's own settings access (the rules of
 * `PUT /api/organization`: production keys only, the store's checks and its one writer), and the
 * logo as an upload. The logo is kept as an image data URL inside the settings file itself, never
 * as a path: an upload cannot name a file on the server's disk, and whatever reads the file (a
 * reload, a second instance) gets the same image.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../errors/index.js';
import { LOGO_MAX_BYTES, type OrganizationSettings } from '../packets/index.js';
import type { Session } from './sessions/index.js';
import { readFileParts, type UploadLimits } from './templates/index.js';

/** What the dashboard is given of the server's settings (src/server/org `organizationSettingsAccess`). */
export interface OrganizationSettingsAccess {
  read(caller: { organization: string; kind: 'development' | 'production' }): OrganizationSettings;
  write(
    caller: { organization: string; kind: 'development' | 'production' },
    body: unknown,
  ): Promise<OrganizationSettings>;
}

export interface OrganizationApiContext {
  /** Undefined: the server has no settings file (`--org`), the page says so. */
  settings: OrganizationSettingsAccess | undefined;
  sessionOf: (request: FastifyRequest) => Session;
  multipart: UploadLimits;
}

/** The answer of every route: the settings (null before the file has any for the organization) and whether this key may change them. */
function view(settings: OrganizationSettings | null, session: Session) {
  return { settings, editable: session.key.kind === 'production', logoMaxBytes: LOGO_MAX_BYTES };
}

const LOGO_FORMATS: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** The upload as a data URL, its type read from the bytes by decoding them (sharp), not from the name. */
async function logoDataUrl(bytes: Uint8Array): Promise<string> {
  if (bytes.byteLength > LOGO_MAX_BYTES) throw ValidationError.of('logo', `Must be at most ${LOGO_MAX_BYTES} bytes`);
  const { default: sharp } = await import('sharp');
  const format = await sharp(bytes, { limitInputPixels: 4096 * 4096, failOn: 'error' })
    .metadata()
    .then((m) => m.format as string | undefined)
    .catch(() => undefined);
  const type = format && LOGO_FORMATS[format];
  if (!type) throw ValidationError.of('logo', 'Must be a PNG, JPEG, GIF, WebP or SVG image');
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

export function organizationApi(api: FastifyInstance, ctx: OrganizationApiContext): void {
  const accessOf = (): OrganizationSettingsAccess => {
    if (!ctx.settings)
      throw new NotFoundError(
        'This server keeps no organization settings: start it with --org FILE to edit them here',
        'organization',
      );
    return ctx.settings;
  };
  /** The settings in force, or null when the file has none for the organization yet. */
  const current = (session: Session): OrganizationSettings | null => {
    try {
      return accessOf().read(session.key);
    } catch (e) {
      if (e instanceof NotFoundError && ctx.settings) return null;
      throw e;
    }
  };

  api.get('/organization', async (request) => view(current(ctx.sessionOf(request)), ctx.sessionOf(request)));

  api.put('/organization', async (request) => {
    const session = ctx.sessionOf(request);
    return view(await accessOf().write(session.key, request.body), session);
  });

  api.put('/organization/logo', async (request) => {
    const session = ctx.sessionOf(request);
    const access = accessOf();
    const { file } = await readFileParts(request, ctx.multipart, 'the logo image');
    const logo = await logoDataUrl(file.bytes);
    const settings = current(session);
    if (!settings) throw ValidationError.of('name', "Save the organization's name before its logo");
    return view(await access.write(session.key, { ...settings, logo }), session);
  });

  api.delete('/organization/logo', async (request) => {
    const session = ctx.sessionOf(request);
    const access = accessOf();
    const settings = current(session);
    if (!settings) return view(null, session);
    const { logo: _removed, ...rest } = settings;
    return view(await access.write(session.key, rest), session);
  });
}

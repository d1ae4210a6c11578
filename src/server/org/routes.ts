/**
 * `GET /api/organization` and `PUT /api/organization`: the settings of the organization of the API
 * key that asks (never another's: the key decides, nothing in the request names an organization).
 * Registered inside the server's authenticated scope (API key, concurrency slot, media type), so
 * they answer as the other API routes do. The dashboard's settings page reads and writes through
 * the same `organizationSettingsAccess`: one writer, one set of rules.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CastpressError, UnsupportedMediaTypeError } from '../../errors/index.js';
import type { OrganizationSettings } from '../../packets/index.js';
import { OrganizationSettingsConflictError, type OrganizationSettingsStore } from './store.js';

/** Who asks: the organization and kind of the API key (or of the dashboard session's key). */
export interface SettingsCaller {
  organization: string;
  kind: 'development' | 'production';
}

export interface OrganizationRoutesOptions {
  settings: OrganizationSettingsStore;
  /** The organization and kind of the key the request authenticated with. */
  keyOf(request: FastifyRequest): SettingsCaller;
  /** The organizations the server's keys belong to: a one-organization file shared by several is not written here. */
  organizations(): readonly string[];
}

/** Reading and changing one organization's settings, with the rules every writer follows. */
export interface OrganizationSettingsAccess {
  /** The caller's organization's settings (no `webhook.hmacSecret`); NotFoundError when the file has none for it. */
  read(caller: SettingsCaller): OrganizationSettings;
  /** Replaces them (see the store's `update`); 403 for a development key, 409 for a file several organizations share. */
  write(caller: SettingsCaller, body: unknown): Promise<OrganizationSettings>;
}

export function organizationSettingsAccess(
  options: Pick<OrganizationRoutesOptions, 'settings' | 'organizations'>,
): OrganizationSettingsAccess {
  const { settings } = options;
  return {
    read: (caller) => settings.read(caller.organization),
    write: async (caller, body) => {
      // Changing what every signer and receiver of the organization sees is a production credential's act.
      if (caller.kind !== 'production') {
        const message = "A development key cannot change the organization's settings";
        throw new CastpressError('ForbiddenError', 403, message, [{ message, property: 'authorization' }]);
      }
      // One settings object for every organization: a change by one would be a change for the others.
      if (settings.shared && options.organizations().some((o) => o !== caller.organization))
        throw new OrganizationSettingsConflictError(
          'The settings file holds one set of settings for every organization of this server; ' +
            'give it the {"organizations": {…}} form to change one organization',
        );
      return settings.update(caller.organization, body);
    },
  };
}

export function organizationRoutes(app: FastifyInstance, options: OrganizationRoutesOptions): void {
  const access = organizationSettingsAccess(options);

  app.get('/api/organization', async (request, reply) => {
    return reply.type('application/json; charset=utf-8').send(access.read(options.keyOf(request)));
  });

  app.put('/api/organization', async (request, reply) => {
    const caller = options.keyOf(request);
    if (request.isMultipart() && caller.kind === 'production') throw new UnsupportedMediaTypeError();
    const saved = await access.write(caller, request.body);
    return reply.type('application/json; charset=utf-8').send(saved);
  });
}

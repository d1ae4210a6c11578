/**
 * `GET /api/organization` and `PUT /api/organization`: the settings of the organization of the API
 * key that asks (never another's: the key decides, nothing in the request names an organization).
 * The dashboard's way to read and change them; registered inside the server's authenticated scope
 * (API key, concurrency slot, media type), so they answer as the other API routes do.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CastpressError, UnsupportedMediaTypeError } from '../../errors/index.js';
import { OrganizationSettingsConflictError, type OrganizationSettingsStore } from './store.js';

export interface OrganizationRoutesOptions {
  settings: OrganizationSettingsStore;
  /** The organization and kind of the key the request authenticated with. */
  keyOf(request: FastifyRequest): { organization: string; kind: 'development' | 'production' };
  /** The organizations the server's keys belong to: a one-organization file shared by several is not written here. */
  organizations(): readonly string[];
}

export function organizationRoutes(app: FastifyInstance, options: OrganizationRoutesOptions): void {
  const { settings } = options;

  app.get('/api/organization', async (request, reply) => {
    const { organization } = options.keyOf(request);
    return reply.type('application/json; charset=utf-8').send(settings.read(organization));
  });

  app.put('/api/organization', async (request, reply) => {
    const { organization, kind } = options.keyOf(request);
    // Changing what every signer and receiver of the organization sees is a production credential's act.
    if (kind !== 'production') {
      const message = "A development key cannot change the organization's settings";
      throw new CastpressError('ForbiddenError', 403, message, [{ message, property: 'authorization' }]);
    }
    if (request.isMultipart()) throw new UnsupportedMediaTypeError();
    // One settings object for every organization: a change by one would be a change for the others.
    if (settings.shared && options.organizations().some((o) => o !== organization))
      throw new OrganizationSettingsConflictError(
        'The settings file holds one set of settings for every organization of this server; ' +
          'give it the {"organizations": {…}} form to change one organization',
      );
    const saved = await settings.update(organization, request.body);
    return reply.type('application/json; charset=utf-8').send(saved);
  });
}

/** The dashboard face (`/dashboard`): sessions, the templates' JSON API, the page shell and its files. */
export { dashboardRoutes, dashboardSessions, DEFAULT_SIGN_IN_LIMIT } from './routes.js';
export type { DashboardOptions } from './routes.js';
export { TemplateAuthoring } from './templates/index.js';
export type { AuthoringOptions, PrepareTemplatePdf, Upload, UploadOptions } from './templates/index.js';
export { detectAll, formFieldProposals } from './templates/index.js';
export type { DetectFields, Proposal } from './templates/index.js';
export { CSRF_HEADER, DEFAULT_SESSION_TTL_MS, EMBED_COOKIE, SESSION_COOKIE, TOKEN_SHAPE } from './sessions/index.js';
export type { DashboardKey, DashboardKeys, Sessions } from './sessions/index.js';
export { EmbedLinks, EMBED_TYPE, DEFAULT_EMBED_VALID_SECONDS, MAX_EMBED_VALID_SECONDS } from './sessions/index.js';
export type { EmbedUrl } from './sessions/index.js';
export type { OrganizationSettingsAccess } from './organization.js';
export type { AppFiles } from './shell.js';
export type { PacketDesk } from './packet-desk/routes.js';

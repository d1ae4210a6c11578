/** The REST server: the hosted API's fill and generate-pdf operations over a castpress engine. */
export { buildApp } from './app.js';
export { LazyPacketStore } from './graphql/index.js';
export type { DashboardSettings } from './templates.js';
export type { AppFiles, DetectFields, Proposal } from '../dashboard/index.js';
export type { ServerOptions } from './app.js';
export { startServer } from './start.js';
export type { StartOptions, RunningServer } from './start.js';
export { loadServerConfig, parseServerConfig, DEFAULT_RATE_LIMIT } from './keys.js';
export type { ApiKey, KeyKind, ServerConfig } from './keys.js';
export { DEFAULT_MULTIPART_LIMITS } from './http/multipart.js';
export type { MultipartLimits } from './http/multipart.js';
export { URL_LIFETIME_MS, LinkExpiredError } from './replies/url-store.js';
export { WATERMARK_TEXT, watermarkPdf } from './replies/watermark.js';
export { RESOURCE_WARNING_HEADER } from './replies/resource-warnings.js';
// What `castpress serve` parses its flags with (src/cli imports the server only through this door).
export { DEFAULT_DATA_DIR, parseHostPort, tsaUrlOf } from './graphql/open.js';
export { cspOrigin } from './replies/stylesheet-origin.js';
export { DEFAULT_FORM_RATE_LIMITS, parseFormRateLimits } from './http/form-limits.js';
export type { FormRateLimits } from './http/form-limits.js';

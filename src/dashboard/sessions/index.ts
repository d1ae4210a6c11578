/** Who is signed in: dashboard sessions (cookie, CSRF, sign-in by key) and the single-use embed links that open one. */
export {
  CSRF_HEADER,
  DEFAULT_SESSION_TTL_MS,
  EMBED_COOKIE,
  MemorySessions,
  SESSION_COOKIE,
  sessionCookie,
  Sessions,
  TOKEN_SHAPE,
} from './sessions.js';
export type { DashboardKey, DashboardKeys, Session } from './sessions.js';
export {
  checkEmbeddedApi,
  DEFAULT_EMBED_VALID_SECONDS,
  EMBED_TYPE,
  EmbedLinks,
  embeddedPageAllowed,
  embedLanding,
  MAX_EMBED_VALID_SECONDS,
  outsideEmbed,
} from './embed.js';
export type { EmbedUrl } from './embed.js';

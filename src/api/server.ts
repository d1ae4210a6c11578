/**
 * `castpress/server`: the REST and GraphQL server over an engine. Exactly the names the README's
 * "Entry points" section lists (test/package.test.ts); the CLI imports src/server itself.
 */
export { buildApp, startServer, parseServerConfig, loadServerConfig, LazyPacketStore } from '../server/index.js';
export type {
  ServerOptions,
  StartOptions,
  RunningServer,
  ServerConfig,
  ApiKey,
  DashboardSettings,
  DetectFields,
  Proposal,
  AppFiles,
} from '../server/index.js';

/** The packet operations over HTTP: GraphQL, downloads (the workflow itself is src/packets, without HTTP). */
export { packetRoutes } from './routes.js';
export type { PacketRoutesOptions } from './routes.js';
export { LazyPacketBackend, LazyPacketStore } from './backend.js';
export type { PacketBackend } from './backend.js';
export { packetSchema } from './contract/index.js';
export { openPacketBackend, openPacketDatabase } from './open.js';
export type { PacketDataOptions } from './open.js';

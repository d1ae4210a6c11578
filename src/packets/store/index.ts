/** Persistence of packets: records, the store contract, SQLite (default) and PostgreSQL. */
export type { PacketStore, PacketQueries, PacketWrites, BlobStore } from './store.js';
export type * from './records.js';
export { DEFAULT_ORGANIZATION, MAX_AUDIT_VIEWS } from './records.js';
export { openSqliteStore } from './sqlite.js';
export type { SqliteStoreOptions } from './sqlite.js';
export { openPostgresStore } from './postgres.js';
export type { PostgresStoreOptions } from './postgres.js';
export { hashOf } from './blobs.js';
export type * from './workflow-run-records.js';
export type { EmbedTokenRecord, SessionRecord, SessionRecords } from './sql-sessions.js';

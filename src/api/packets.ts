/**
 * `castpress/packets`: signature packets. The document side (assemble, a signer's inputs, the
 * certificate of completion and seal) and the workflow service with its stores and mailers.
 * Exactly the names the README's "Entry points" section lists (test/package.test.ts).
 *
 * @module castpress/packets
 */
export {
  assemblePacket,
  createPacketAssembler,
  applySignerInputs,
  completeDocument,
  sha256Of,
  TextTagError,
  ConversionError,
} from '../packets/index.js';
export type {
  AssembleOptions,
  AssembledPacket,
  AssembledFile,
  PacketRequest,
  SignerInputs,
  ApplySignerOptions,
  CompletionCertificate,
  CompleteOptions,
} from '../packets/index.js';
export { createPacketWorkflow, PacketService, SignerError, PacketStateError } from '../packets/index.js';
export type {
  PacketWorkflow,
  PacketWorkflowOptions,
  SigningSubmission,
  SigningSession,
  EtchPacketView,
  CreateEtchPacketOptions,
} from '../packets/index.js';
export { openSqliteStore, openPostgresStore } from '../packets/index.js';
export type {
  PacketStore,
  SqliteStoreOptions,
  PostgresStoreOptions,
  SessionRecords,
  SessionRecord,
  EmbedTokenRecord,
} from '../packets/index.js';
export { smtpMailer, folderMailer, webhookSignature } from '../packets/index.js';
export type { Mailer, MailMessage, SmtpOptions } from '../packets/index.js';

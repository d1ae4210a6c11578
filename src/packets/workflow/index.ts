/** The packet workflow: states, routing, tokens, events (no HTTP). */
export { PacketService } from './service.js';
export { mergePayload } from './payload.js';
export { signingUrl, downloadUrl, downloadZipUrl } from './urls.js';
export type { PacketServiceOptions, SigningSubmission, SignerEvent, SigningSession } from './service.js';
export type { AcceptedField } from './acceptance.js';
export { visibleTo } from './scope.js';
export type { PacketScope } from './scope.js';
export { createPacketWorkflow } from './create.js';
export { inProcessWork } from './work.js';
export { signDocuments, completeDocuments } from './documents.js';
export type { PacketWork, SignDocs, CompleteDocs } from './work.js';
export type { PacketWorkflowOptions, PacketWorkflow } from './create.js';
export { SignerError, PacketStateError } from './errors.js';
export type { SignerErrorType } from './errors.js';
export { route, packetStatus, redirectGroupStatus } from './routing.js';
export type { Routing, RoutedSigner } from './routing.js';
export type { EtchPacketView, SignerView, SignerTokenView } from './views.js';

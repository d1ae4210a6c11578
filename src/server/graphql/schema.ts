/**
 * The packet operations' GraphQL schema (spec: Endpoints). Argument names and
 * types follow what `@anvilco/anvil`'s default mutations declare, so its query
 * text validates unchanged; arguments the engine does not use
 * (`organizationEid`, `signatureProvider`, `createCastTemplatesFromUploads`,
 * `enableEmails` at packet level, `waitForDocumentGroupUpdate`) are accepted and
 * ignored. `EtchFile` is a scalar: a file object is checked by the packet
 * request's own validation (zod), which reports every property path.
 */
import { buildSchema, type GraphQLSchema } from 'graphql';

const SCHEMA_SDL = /* GraphQL */ `
  scalar JSON
  scalar EtchFile
  scalar Upload

  type SignerToken {
    eid: String!
    type: String
    validUntil: String
    valid: Boolean
    invalidatedAt: String
    hasSigned: Boolean
    signedAt: String
  }

  type Signer {
    id: String
    eid: String!
    aliasId: String
    routingOrder: Int
    name: String
    email: String
    status: String
    signerType: String
    signActionType: String
    signerTokens: [SignerToken!]
  }

  type DocumentGroup {
    id: String
    eid: String!
    status: String
    files: JSON
    downloadZipURL: String
    signers: [Signer!]
  }

  type EtchPacket {
    id: String
    eid: String!
    name: String
    status: String
    isTest: Boolean
    allowUpdates: Boolean
    numberRemainingSigners: Int
    detailsURL: String
    webhookURL: String
    payload: JSON
    completedAt: String
    archivedAt: String
    createdAt: String
    updatedAt: String
    "What castpress changed in the documents it was given: active content removed from uploads (#28)."
    warnings: [String!]
    documentGroup: DocumentGroup
  }

  type ExpiredSignerTokens {
    signerEid: String!
    expired: Int!
  }

  type WeldData {
    id: String
    eid: String
    isTest: Boolean
    "Every forge of the run is submitted."
    isComplete: Boolean
    "Not modelled: always null (the client's forgeSubmit selects it)."
    agents: JSON
    status: String
    createdAt: String
    displayTitle: String
    completionPercentage: Float
    "Why the run's packet could not be made (retried until status failed): {name, message, fields}."
    lastError: JSON
  }

  type Weld {
    eid: String
    title: String
    weldDatas: [WeldData!]
  }

  type Forge {
    eid: String
    slug: String
    name: String
  }

  type SubmissionSigner {
    eid: String
    name: String
    email: String
    status: String
    routingOrder: Int
  }

  "A forge's submission (forgeSubmit)."
  type Submission {
    id: String
    eid: String
    status: String
    "The submitted forge's party goes on here: its next form, or its done page."
    continueURL: String
    payloadValue: JSON
    resolvedPayload: JSON
    currentStep: Int
    completedAt: String
    createdAt: String
    updatedAt: String
    forge: Forge
    signer: SubmissionSigner
    weldData: WeldData
  }

  type Query {
    etchPacket(eid: String!): EtchPacket
    weld(eid: String, slug: String, organizationSlug: String): Weld
  }

  type Mutation {
    createEtchPacket(
      name: String
      organizationEid: String
      files: [EtchFile!]
      isDraft: Boolean
      isTest: Boolean
      signatureEmailSubject: String
      signatureEmailBody: String
      signatureProvider: String
      signaturePageOptions: JSON
      signers: [JSON!]
      data: JSON
      webhookURL: String
      replyToName: String
      replyToEmail: String
      enableEmails: JSON
      createCastTemplatesFromUploads: Boolean
      duplicateCasts: Boolean
      mergePDFs: Boolean
      allowUpdates: Boolean
    ): EtchPacket
    sendEtchPacket(eid: String!): EtchPacket
    generateEtchSignURL(signerEid: String!, clientUserId: String!): String
    updateEtchPacket(
      eid: String!
      name: String
      payload: JSON
      mergePayloads: Boolean
      waitForDocumentGroupUpdate: Boolean
    ): EtchPacket
    updateSigner(eid: String!, name: String, email: String, activateIfPending: Boolean): Signer
    expireSignerTokens(signerEid: String!): ExpiredSignerTokens
    forgeSubmit(
      forgeEid: String!
      weldDataEid: String
      submissionEid: String
      payload: JSON!
      enforcePayloadValidOnCreate: Boolean
      currentStep: Int
      complete: Boolean
      isTest: Boolean
      timezone: String
      webhookURL: String
      groupArrayId: String
      groupArrayIndex: Int
    ): Submission
  }
`;

/** Built once per app (schemas hold no request state). */
export function packetSchema(): GraphQLSchema {
  return buildSchema(SCHEMA_SDL);
}

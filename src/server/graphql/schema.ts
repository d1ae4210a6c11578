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
    "What castpress changed in the documents it was given: active content removed from uploads."
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

  type CastVersion {
    versionNumber: Int!
    publishedAt: String
    "The label of the API key that published it (the keys file's label)."
    publishedBy: String
  }

  "A template (castpress's store, the one the dashboard edits)."
  type Cast {
    id: String
    eid: String!
    name: String
    title: String
    isTemplate: Boolean
    "The version fields are of: -1 is the working version."
    versionNumber: Int
    "The latest published version; null before the first publish."
    latestVersionNumber: Int
    hasUnpublishedChanges: Boolean
    "The template fields of that version (the engine's template JSON)."
    fields: JSON
    "{fields}: the same fields."
    fieldInfo: JSON
    versions: [CastVersion!]
    createdAt: String
    updatedAt: String
  }

  type EmbedURL {
    url: String
    "The link's public id (not its token)."
    requestTokenEid: String
    "When the link stops working unused (ISO 8601)."
    expiresAt: String
  }

  type Query {
    etchPacket(eid: String!): EtchPacket
    "versionNumber: omitted the latest published version (the working one before the first publish), -1 the working version."
    cast(eid: String!, versionNumber: Int): Cast
    weld(eid: String, slug: String, organizationSlug: String): Weld
  }

  type Mutation {
    "A template from an uploaded PDF or DOCX; published as version 1. organizationEid, isTemplate and allowedAliasIds are accepted and ignored."
    createCast(
      organizationEid: String
      name: String
      title: String
      file: Upload!
      isTemplate: Boolean
      detectFields: Boolean
      advancedDetectFields: Boolean
      allowedAliasIds: [String]
    ): Cast
    "The working version becomes the next published version."
    publishCast(eid: String!): Cast
    "A short-lived, single-use URL of one template's editor (type edit-pdf-template) to open in a frame; metadata and options are accepted and not used."
    generateEmbedURL(eid: String!, type: String!, validForSeconds: Int, metadata: JSON, options: JSON): EmbedURL
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

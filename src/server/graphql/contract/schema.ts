/**
 * The packet operations' GraphQL schema (spec: Endpoints). Argument names and
 * types follow what `@anvilco/anvil`'s default mutations declare, so its query
 * text validates unchanged; arguments the engine does not use
 * (`organizationEid`, `signatureProvider`, `createCastTemplatesFromUploads`,
 * `enableEmails` at packet level, `waitForDocumentGroupUpdate`) are accepted and
 * ignored. Files and signers are input types (`EtchFile`, `EtchSigner`,
 * `SignerField`): GraphQL refuses a key they do not list, with its path, before
 * the packet request's own validation (zod) checks the values. Where the hosted
 * API takes `JSON` and the value is free-form or tolerates unknown keys (`data`,
 * payloads, `signaturePageOptions`, `enableEmails`, a file's `fields`), it stays `JSON`.
 */
import { buildSchema, type GraphQLSchema } from 'graphql';

const SCHEMA_SDL = /* GraphQL */ `
  scalar JSON
  "A file: a multipart file part, the base64 form {data, filename, mimetype}, or a base64 string."
  scalar Upload

  """
  A document of a packet. Its kind is given by the keys it has: castEid (a template), file (an upload:
  PDF or DOCX), markup (generated from HTML) or fields alone (generated from Markdown).
  """
  input EtchFile {
    "Chosen by the caller; signers' fields and data.payloads refer to it."
    id: String!
    "Encoded in the PDF; for generated files also the page header."
    title: String
    "Template: the template's EID."
    castEid: String
    "Template: the version to fill (castpress only); default the latest published."
    versionNumber: Int
    "Upload: the PDF or DOCX."
    file: Upload
    "Generated from HTML: {html, css}."
    markup: JSON
    "Field objects {id, type, pageNum, rect, format}; in a Markdown file mixed with content blocks {heading, label, content, table}."
    fields: [JSON!]
    "The file's name in the packet (generated files, or a template's override)."
    filename: String
    "Markdown: the text's size (5-30)."
    fontSize: Int
    "Markdown: the text's colour (#RRGGBB)."
    textColor: String
    "false keeps the file's text tags printed (castpress only); default removed."
    hideTextTags: Boolean
    "Accepted and ignored (the hosted API's generated-file option)."
    includeTimestamp: Boolean
    "Accepted and ignored (the hosted API's generated-file option)."
    logo: JSON
    "Accepted and ignored (the hosted API's generated-file option)."
    page: JSON
    "Accepted and ignored (the hosted API's)."
    pageSizes: [JSON!]
  }

  "A field of a file that a signer signs or fills while signing."
  input SignerField {
    fileId: String!
    fieldId: String!
  }

  "A signer of a packet (the spec's signer object)."
  input EtchSigner {
    "Chosen by the caller, unique in the packet; returned as the signer's aliasId."
    id: String!
    "May be omitted for a pending signer."
    name: String
    "May be omitted for a pending signer."
    email: String
    "email (default), embedded, in-person, inline or in-person-inline."
    signerType: String
    "draw (default) or text."
    signatureMode: String
    "signWhileReviewing (default) or signBeforeReviewing."
    signatureExperience: String
    "1-based; default the position in the list."
    routingOrder: Int
    acceptEachField: Boolean
    showFinishSigningButton: Boolean
    "true (default), false, or a list of email names (etchComplete)."
    enableEmails: JSON
    redirectURL: String
    fields: [SignerField!]
    "At most 86400; default 14 days for email signers, 2 hours for the others."
    tokenValidForMinutes: Int
    "A signer named later (updateSigner); needs allowUpdates."
    isPending: Boolean
    allowNameChange: Boolean
    allowEmailChange: Boolean
    requireNameOnLoad: Boolean
    requireEmailOnLoad: Boolean
  }

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
      signers: [EtchSigner!]
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

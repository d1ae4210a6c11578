/**
 * The addresses the workflow hands out: the signing page and the document-group downloads. One place,
 * so what a webhook, a GraphQL answer and an email carry are the same addresses the server routes
 * (`src/server/graphql/routes.ts`).
 */

export function signingUrl(baseUrl: string, signerEid: string, token: string): string {
  return `${baseUrl}/sign/${encodeURIComponent(signerEid)}?token=${encodeURIComponent(token)}`;
}

/**
 * A signer's own download of the completed documents (a download token, or the token they signed
 * with): the zip, or the single PDF when the group has one document; `index` names one document.
 */
export function signerDownloadUrl(baseUrl: string, signerEid: string, token: string, index?: number): string {
  const at = index === undefined ? '' : `/${index}`;
  return `${baseUrl}/download/signer/${encodeURIComponent(signerEid)}${at}?token=${encodeURIComponent(token)}`;
}

export function downloadUrl(baseUrl: string, groupEid: string, filename: string): string {
  return `${baseUrl}/api/document-group/${encodeURIComponent(groupEid)}/${encodeURIComponent(filename)}`;
}

export function downloadZipUrl(baseUrl: string, groupEid: string): string {
  return `${baseUrl}/api/document-group/${encodeURIComponent(groupEid)}.zip`;
}

/**
 * The addresses the workflow hands out: the signing page and the document-group downloads. One place,
 * so what a webhook, a GraphQL answer and an email carry are the same addresses the server routes
 * (`src/server/graphql/routes.ts`).
 */

export function signingUrl(baseUrl: string, signerEid: string, token: string): string {
  return `${baseUrl}/sign/${encodeURIComponent(signerEid)}?token=${encodeURIComponent(token)}`;
}

export function downloadUrl(baseUrl: string, groupEid: string, filename: string): string {
  return `${baseUrl}/api/document-group/${encodeURIComponent(groupEid)}/${encodeURIComponent(filename)}`;
}

export function downloadZipUrl(baseUrl: string, groupEid: string): string {
  return `${baseUrl}/api/document-group/${encodeURIComponent(groupEid)}.zip`;
}

/** PEM text ⇄ DER bytes for certificates and keys (Node's own parsers do the ASN.1). */
import { X509Certificate } from 'node:crypto';

export function toPem(der: Uint8Array, label: 'CERTIFICATE' | 'PRIVATE KEY'): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Every certificate in a PEM text, in order, as DER; throws when one does not parse. */
export function certificatesFromPem(text: string): Uint8Array[] {
  return (text.match(CERT_BLOCK) ?? []).map((block) => new Uint8Array(new X509Certificate(block).raw));
}

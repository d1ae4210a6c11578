/** PEM text ⇄ DER bytes for certificates and keys (Node's own parsers do the ASN.1), and DER's order of a SET OF. */
import { X509Certificate } from 'node:crypto';

export function toPem(der: Uint8Array, label: 'CERTIFICATE' | 'PRIVATE KEY'): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/**
 * Every certificate in a PEM text, in order, as DER; throws when one does not parse. Blocks are found
 * with indexOf, and a BEGIN without an END ends the search (no later one has an END either): the
 * pattern /BEGIN[\s\S]*?END/g scanned to the end once per BEGIN, 1 MB of them took 20 s.
 */
export function certificatesFromPem(text: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = text.indexOf(BEGIN); at >= 0;) {
    const end = text.indexOf(END, at + BEGIN.length);
    if (end < 0) break;
    out.push(new Uint8Array(new X509Certificate(text.slice(at, end + END.length)).raw));
    at = text.indexOf(BEGIN, end + END.length);
  }
  return out;
}

/**
 * `items` in the order DER writes the elements of a SET OF (X.690 §11.6: ascending by their
 * encodings, as bytes): a CMS's certificates are a SET OF, and OpenSSL, pyHanko and other strict
 * readers re-encode what they check.
 */
export function inDerSetOrder<T>(items: readonly T[], encoding: (item: T) => Uint8Array): T[] {
  return items
    .map((item) => ({ item, der: Buffer.from(encoding(item)) }))
    .sort((a, b) => Buffer.compare(a.der, b.der))
    .map((e) => e.item);
}

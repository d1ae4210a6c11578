/**
 * @libpdf/core 0.4 gathers validation data with a chain builder that, for a certificate that is not
 * self-signed and names its issuer's address (AIA caIssuers), fetches that issuer with
 * `globalThis.fetch` — even when the issuer is carried — and offers no option to stop it. The
 * engine makes no network call of its own, so before a DSS is written every signature and
 * timestamp token is looked at the way libpdf will, and a document that would make it fetch is
 * refused (or, when the level was not asked for, sealed without the DSS).
 */
import { X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import { attribute, certificatesOf, findSignerCertificate, OID, parseSignedData } from '../cms/integrity.js';
import { findRawSignatures } from '../validation/find.js';

function selfSigned(cert: X509Certificate): boolean {
  return cert.subject === cert.issuer;
}

/** The certificate libpdf starts its issuer search from fetches, or undefined when it would not. */
function fetchedFrom(signer: X509Certificate, others: X509Certificate[]): X509Certificate | undefined {
  const last = others.at(-1);
  const start = last && !selfSigned(last) ? last : signer;
  if (selfSigned(start)) return undefined;
  return /CA Issuers - URI:/.test(start.infoAccess ?? '') ? start : undefined;
}

/** Why adding validation data to `bytes` would make @libpdf/core fetch a certificate, or undefined. */
export function networkFetchProblem(bytes: Uint8Array): string | undefined {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const raw of findRawSignatures(file)) {
    let sd: pkijs.SignedData;
    try {
      sd = parseSignedData(raw.cms);
    } catch {
      continue; // libpdf skips what it cannot read
    }
    const sets: pkijs.SignedData[] = [sd];
    const info = sd.signerInfos[0];
    const token = info ? attribute(info, OID.timestampToken, true) : undefined;
    if (token) {
      try {
        sets.push(new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: token.values[0] }).content }));
      } catch {
        // an unreadable token adds no certificates
      }
    }
    for (const [i, set] of sets.entries()) {
      const certs = certificatesOf(set);
      const first = set.signerInfos[0];
      // libpdf: the signer by its identifier for a signature, the first certificate for a token.
      const signer = i === 0 && first ? findSignerCertificate(first, certs) : certs[0]?.x509;
      if (!signer) continue;
      const from = fetchedFrom(
        signer,
        certs.map((c) => c.x509).filter((c) => !c.raw.equals(signer.raw)),
      );
      if (from)
        return `${i === 0 ? 'A signing' : 'A timestamp'} certificate's chain (${from.subject.split('\n').join(', ')}) names its issuer's address, which @libpdf/core would fetch`;
    }
  }
  return undefined;
}

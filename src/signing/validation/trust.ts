/**
 * Trust: the path from a signing certificate to one of the caller's trust anchors. Certificates the
 * CMS carries are only candidates for the path (anyone can carry a root); a path counts when every
 * link verifies, every issuer is a CA, every certificate was valid at the time checked, and it ends
 * at a certificate the caller gave.
 */
import { X509Certificate } from 'node:crypto';
import { ValidationError } from '../../errors/index.js';
import { dn, validityAt } from '../cms/certificates.js';
import { certificatesFromPem } from '../cms/pem.js';

export interface ChainReport {
  /** Subjects from the signing certificate upwards, as far as the chain could be built. */
  subjects: string[];
  /** True when the chain reaches one of the given trust anchors, every link verifies and every certificate was valid at the signing time. */
  trusted: boolean;
  /** Why it is not trusted. */
  problem?: string;
}

export interface TrustReport {
  /** The chain reaches a given trust anchor (see `ChainReport.trusted`). */
  trusted: boolean;
  /** Subject of the trust anchor the chain reached. */
  anchor?: string;
  /** Why it is not trusted: no anchor given, a chain ending at a root that is not an anchor, a missing issuer… */
  reason?: string;
}

export const NO_TRUST_ANCHOR = 'No trust anchor given: the signature may be intact, but nothing says who made it';

export function anchorsFrom(inputs: Array<string | Uint8Array>): X509Certificate[] {
  return inputs.flatMap((input, i) => {
    try {
      const ders = typeof input === 'string' ? certificatesFromPem(input) : [input];
      if (ders.length === 0) throw new Error('no PEM certificate');
      return ders.map((der) => new X509Certificate(der));
    } catch (e) {
      throw ValidationError.of(`trustAnchors[${i}]`, `Not a certificate (${(e as Error).message})`);
    }
  });
}

function selfIssued(cert: X509Certificate): boolean {
  try {
    return cert.checkIssued(cert) && cert.verify(cert.publicKey);
  } catch {
    return false;
  }
}

/** The issuer of `cert` among `pool`: another certificate that names it as issued and whose key verifies it. */
export function issuerOf(cert: X509Certificate, pool: readonly X509Certificate[]): X509Certificate | undefined {
  return pool.find((c) => !c.raw.equals(cert.raw) && cert.checkIssued(c) && cert.verify(c.publicKey));
}

/** Builds the path upwards from `leaf` through `pool` (the CMS's certificates) to an anchor. */
export function buildChain(
  leaf: X509Certificate,
  pool: X509Certificate[],
  anchors: X509Certificate[],
  at: Date,
): ChainReport & { anchor?: X509Certificate } {
  const subjects: string[] = [];
  const isAnchor = (c: X509Certificate) => anchors.some((a) => a.raw.equals(c.raw));
  let current = leaf;
  for (let depth = 0; depth < 10; depth++) {
    subjects.push(dn(current, 'subject'));
    const validity = validityAt(current, at);
    if (!validity.ok)
      return { subjects, trusted: false, problem: `${dn(current, 'subject')} was not valid at the signing time` };
    if (isAnchor(current)) return { subjects, trusted: true, anchor: current };
    const issuer = issuerOf(current, [...anchors, ...pool]);
    if (!issuer) {
      const chain = subjects.join(' ← ');
      const problem =
        anchors.length === 0
          ? NO_TRUST_ANCHOR
          : selfIssued(current)
            ? `The chain ${chain} ends at a root that is not a trust anchor (${dn(current, 'subject')})`
            : `The issuer of ${dn(current, 'subject')} is missing (${dn(current, 'issuer')}): the chain ${chain} reaches no trust anchor`;
      return { subjects, trusted: false, problem };
    }
    // An end-entity certificate cannot issue another (RFC 5280 §4.2.1.9); a trusted anchor vouches for itself.
    if (!issuer.ca && !isAnchor(issuer))
      return {
        subjects: [...subjects, dn(issuer, 'subject')],
        trusted: false,
        problem: `${dn(issuer, 'subject')} is not a certificate authority`,
      };
    current = issuer;
  }
  return { subjects, trusted: false, problem: 'Chain too long' };
}

export function trustOf(chain: ChainReport & { anchor?: X509Certificate }): TrustReport {
  if (chain.trusted && chain.anchor) return { trusted: true, anchor: dn(chain.anchor, 'subject') };
  return { trusted: false, reason: chain.problem ?? 'Not trusted' };
}

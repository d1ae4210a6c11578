/**
 * One signature's own checks, as a relying party makes them: the CMS over its byte ranges, the
 * signer's certificate judged for trust, validity and key usage at the time the signature can prove
 * (verify-time.ts), its revocation status from the document's DSS, and a document timestamp's token.
 * What the document does after the signature is verify-revisions.ts's question; verify.ts joins both.
 */
import * as asn1js from 'asn1js';
import { X509Certificate } from 'node:crypto';
import type * as pkijs from 'pkijs';
import type { SignatureDictionaryInfo } from '../../pdf/index.js';
import { dn, keyUsageFor, validityAt } from '../cms/certificates.js';
import {
  DIGESTS,
  OID,
  attribute,
  certificatesOf,
  checkTimestamp,
  checkToken,
  cmsStructureProblem,
  damagedCertificate,
  findSignerCertificate,
  hashRanges,
  parseSignedData,
  signatureVerifies,
  signingCertificateV2Names,
  timeOf,
  tokenReport,
  type TimestampReport,
} from '../cms/integrity.js';
import type { RawSignature } from './find.js';
import type { Base, Checked, IntegrityReport, SignerInfo, ValidityPeriodReport, VerifiedSignature } from './report.js';
import { revocationOf, type RevocationReport } from './revocation.js';
import { NO_TRUST_ANCHOR, buildChain, issuerOf, trustOf } from './trust.js';
import { noProofReason, signatureTime, tokenTrust, type ProofOfExistence } from './time.js';
import { withRevocationRequired } from './ltv.js';

export interface Context {
  file: Buffer;
  anchors: X509Certificate[];
  at: Date | undefined;
  /** The verification's "now", read once. */
  now: Date;
  /** CRLs and certificates of the document's DSS (empty without one). */
  dssCrls: Uint8Array[];
  dssCertificates: X509Certificate[];
  /** The document timestamps that check out, each a proof that what it covers existed at its time (verify-time.ts). */
  proofs: () => ProofOfExistence[];
  /** A signature whose certificate's revocation status is not good is not valid (verify-ltv.ts). */
  requireRevocation: boolean;
}

/** The signer certificate's revocation status at `time` from the DSS (its issuer found among the carried, DSS and anchor certificates). */
function revocationFor(
  ctx: Context,
  cert: X509Certificate,
  pool: X509Certificate[],
  time: { time: Date; timeSource: ValidityPeriodReport['timeSource'] },
): RevocationReport {
  const issuer = issuerOf(cert, [...pool, ...ctx.dssCertificates, ...ctx.anchors]);
  if (!issuer)
    return { status: 'unknown', reason: "The signing certificate's issuer is not available to check revocation" };
  // Only a trusted time is proven: at the validation time a listed certificate is revoked, whenever it was.
  const proven = time.timeSource === 'timestamp' || time.timeSource === 'documentTimestamp';
  return revocationOf(cert.raw, issuer.raw, ctx.dssCrls, time.time, proven);
}

function signerInfoOf(cert: X509Certificate): SignerInfo {
  const cn = /^CN=(.*)$/m.exec(cert.subject)?.[1];
  return {
    subject: dn(cert, 'subject'),
    ...(cn ? { commonName: cn } : {}),
    issuer: dn(cert, 'issuer'),
    serialNumber: cert.serialNumber,
  };
}

function pdfDate(m: string | undefined): Date | undefined {
  const r = m && /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(m);
  if (!r) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = r;
  let t = Date.UTC(+y!, +mo - 1, +d, +h, +mi, +s);
  if (sign === '+' || sign === '-') t -= (sign === '+' ? 1 : -1) * (+oh * 60 + +om) * 60_000;
  return new Date(t);
}

const NO_CERTIFICATE = 'No signer certificate';

/** The trust, validity and key-usage checks of a certificate at a time; one function for signatures and timestamps. */
function judge(
  ctx: Context,
  cert: X509Certificate | undefined,
  pool: X509Certificate[],
  time: { time: Date; timeSource: ValidityPeriodReport['timeSource'] },
  kind: 'signing' | 'timestamping',
): Pick<VerifiedSignature, 'chain' | 'trust' | 'validityPeriod' | 'keyUsage'> {
  if (!cert) {
    return {
      chain: { subjects: [], trusted: false, problem: NO_CERTIFICATE },
      trust: { trusted: false, reason: ctx.anchors.length ? NO_CERTIFICATE : NO_TRUST_ANCHOR },
      validityPeriod: { ok: false, ...time, reason: NO_CERTIFICATE },
      keyUsage: { ok: false, reason: NO_CERTIFICATE },
    };
  }
  const { anchor, ...chain } = buildChain(cert, pool, ctx.anchors, time.time);
  const validity = validityAt(cert, time.time);
  return {
    chain,
    trust: ctx.anchors.length
      ? trustOf({ ...chain, ...(anchor ? { anchor } : {}) })
      : { trusted: false, reason: NO_TRUST_ANCHOR },
    validityPeriod: {
      ok: validity.ok,
      ...time,
      notBefore: validity.notBefore,
      notAfter: validity.notAfter,
      ...(validity.reason ? { reason: validity.reason } : {}),
    },
    keyUsage: keyUsageFor(cert.raw, kind),
  };
}

/** The overall verdict and its reasons from the four checks. */
function conclude(
  base: Base,
  parts: Omit<Checked, keyof Base | 'valid' | 'problems'>,
  integrityProblems: string[],
): Checked {
  const { trust, validityPeriod, keyUsage, revocation } = parts;
  const revoked = revocation?.status === 'revoked';
  const problems = [
    ...integrityProblems,
    ...[trust.reason, validityPeriod.reason, keyUsage.reason, revoked ? revocation.reason : undefined].filter(
      (r): r is string => r !== undefined,
    ),
  ];
  return {
    ...base,
    ...parts,
    valid: parts.integrity.intact && trust.trusted && validityPeriod.ok && keyUsage.ok && !revoked,
    problems,
  };
}

function integrityOf(problems: string[]): IntegrityReport {
  return problems.length === 0 ? { intact: true } : { intact: false, reason: problems[0]! };
}

/** A signature whose CMS cannot be read or checked: only its integrity problems are reported (no certificate to judge). */
export function failed(ctx: Context, base: Base, problems: string[]): Checked {
  // Built as one literal: a file can name tens of thousands of unreadable signatures.
  return {
    ...base,
    signer: null,
    digestMatches: false,
    signatureValid: false,
    signingCertificateV2: false,
    chain: { subjects: [], trusted: false, problem: NO_CERTIFICATE },
    integrity: { intact: false, reason: problems[0] ?? 'Unreadable' },
    trust: { trusted: false, reason: ctx.anchors.length ? NO_CERTIFICATE : NO_TRUST_ANCHOR },
    validityPeriod: { ok: false, time: ctx.at ?? ctx.now, timeSource: ctx.at ? 'at' : 'now', reason: NO_CERTIFICATE },
    keyUsage: { ok: false, reason: NO_CERTIFICATE },
    valid: false,
    problems,
  };
}

/** A document timestamp (/Type /DocTimeStamp, ETSI.RFC3161): the token itself covers the byte ranges. */
function verifyDocumentTimestamp(ctx: Context, sd: pkijs.SignedData, base: Base): Checked {
  const check = checkToken(sd, (alg) => hashRanges(ctx.file, base.coveredRanges, alg));
  const problems: string[] = [];
  if (!check.imprintMatches) problems.push('Digest mismatch: the covered bytes changed after the document timestamp');
  if (!check.signatureValid) problems.push('The timestamp authority signature does not verify');
  const cert = check.tsaCertificate;
  const info = sd.signerInfos[0];
  return conclude(
    base,
    {
      signer: cert ? signerInfoOf(cert) : null,
      signingTime: check.time,
      digestMatches: check.imprintMatches,
      signatureValid: check.signatureValid,
      signingCertificateV2: !!cert && !!info && signingCertificateV2Names(info, cert),
      timestamp: tokenReport(check),
      integrity: integrityOf(problems),
      ...judge(ctx, cert, check.certificates, { time: check.time, timeSource: 'timestamp' }, 'timestamping'),
    },
    problems,
  );
}

export function verifyOne(
  ctx: Context,
  raw: RawSignature,
  base: Base,
  dict: SignatureDictionaryInfo | undefined,
): Checked {
  const problems: string[] = [];
  let sd: pkijs.SignedData;
  try {
    if (raw.gap.unreadable !== undefined) throw new Error(raw.gap.unreadable);
    sd = parseSignedData(raw.cms);
  } catch (e) {
    raw.gap.unreadable = (e as Error).message;
    return failed(ctx, base, [`Cannot read the signature value: ${(e as Error).message}`]);
  }
  if (sd.encapContentInfo.eContentType === OID.tstInfo) {
    try {
      return verifyDocumentTimestamp(ctx, sd, { ...base, kind: 'documentTimestamp' });
    } catch (e) {
      return failed(ctx, base, [`Unreadable document timestamp: ${(e as Error).message}`]);
    }
  }
  const info = sd.signerInfos[0];
  if (!info) return failed(ctx, base, ['The CMS has no signer']);
  if (sd.signerInfos.length > 1) problems.push('The CMS has more than one signer; only the first is checked');
  const cmsCerts = certificatesOf(sd);
  const certs = cmsCerts.map((c) => c.x509);
  const cert = findSignerCertificate(info, cmsCerts);
  const digestName = DIGESTS[info.digestAlgorithm.algorithmId];
  if (!digestName)
    return failed(ctx, base, [...problems, `Unsupported digest algorithm ${info.digestAlgorithm.algorithmId}`]);

  const mdValue = attribute(info, OID.messageDigest)?.values[0];
  const digestMatches =
    mdValue instanceof asn1js.OctetString &&
    hashRanges(ctx.file, base.coveredRanges, digestName).equals(Buffer.from(mdValue.valueBlock.valueHexView));
  if (!digestMatches) problems.push('Digest mismatch: the covered bytes changed after signing');
  if (!info.signedAttrs) problems.push('No signed attributes (not PAdES)');
  const signatureValid =
    !!cert &&
    !!info.signedAttrs &&
    signatureVerifies(info, new Uint8Array(info.signedAttrs.encodedValue), cert, digestName);
  if (!cert) problems.push('The signing certificate is not in the signature');
  else if (!signatureValid) problems.push('The signature does not verify with the signing certificate');

  const structure = cmsStructureProblem(sd, info);
  if (structure) problems.push(`Malformed signature container: ${structure}`);
  const damaged = damagedCertificate(certs, ctx.anchors);
  if (damaged)
    problems.push(
      `A certificate carried in the signature is damaged (${dn(damaged, 'subject')}): its issuer's signature does not verify`,
    );
  const signingTime = timeOf(attribute(info, OID.signingTime)) ?? pdfDate(dict?.m);
  let timestamp: TimestampReport | undefined;
  let trustedTimestamp: Date | undefined;
  try {
    const check = checkTimestamp(info);
    if (check) {
      const trust = tokenTrust(check, ctx.anchors);
      if (trust.trusted) trustedTimestamp = check.time;
      timestamp = {
        ...tokenReport(check),
        trusted: trust.trusted,
        ...(trust.trusted ? {} : { untrustedReason: trust.reason }),
      };
    }
  } catch (e) {
    problems.push(`Unreadable timestamp token: ${(e as Error).message}`);
  }
  const timestampOk = !!timestamp && timestamp.imprintMatches && timestamp.signatureValid;
  if (timestamp && !timestampOk) problems.push('The timestamp token does not match the signature');
  // /M is the signer's claim: the validation time unless a trusted timestamp proves an earlier one (verify-time.ts).
  const time = signatureTime(cert, {
    at: ctx.at,
    now: ctx.now,
    trustedTimestamp,
    end: base.coveredRanges[1]![1],
    proofs: ctx.proofs,
    revocationAt: (t) => (cert ? revocationFor(ctx, cert, certs, t) : { status: 'unknown' }),
  });
  const judged = judge(ctx, cert, certs, time, 'signing');
  const validityReason = noProofReason(judged.validityPeriod.reason, time, signingTime, cert);
  const checked = conclude(
    base,
    {
      signer: cert ? signerInfoOf(cert) : null,
      ...(signingTime ? { signingTime } : {}),
      digestMatches,
      signatureValid,
      signingCertificateV2: !!cert && signingCertificateV2Names(info, cert),
      ...(timestamp ? { timestamp } : {}),
      integrity: integrityOf(problems),
      ...judged,
      validityPeriod: { ...judged.validityPeriod, ...(validityReason ? { reason: validityReason } : {}) },
      ...(cert ? { revocation: revocationFor(ctx, cert, certs, time) } : {}),
    },
    problems,
  );
  return ctx.requireRevocation ? withRevocationRequired(checked) : checked;
}

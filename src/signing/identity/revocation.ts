/**
 * Revocation by the local CA: a revocation list kept beside the CA (`signing/revoked.json`),
 * published as a CRL the root signs (RFC 5280 §5), and handed to sealing as the source of the
 * revocation data a PAdES B-LT seal embeds. Reads the CA's own files: no network. Certificates of
 * other CAs get no answer here (`crlFor` returns null); fetching their CRLs through the resolver
 * is left for later.
 */
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { z } from 'zod';
import { SigningError, ValidationError } from '../../errors/index.js';
import { parseWith } from '../../schema/index.js';
import { caFiles, readCaRoot } from './ca-files.js';
import type { LocalCaFiles } from './options.js';
import { engine, rsaSigningKey } from './local-ca.js';

/** Where sealing gets revocation data for a certificate (DER CRL), or null when it has none. */
export interface RevocationSource {
  crlFor(certificate: Uint8Array): Promise<Uint8Array | null>;
}

export interface RevokedEntry {
  /** Serial number, upper-case hex as node:crypto prints it. */
  serialNumber: string;
  revokedAt: Date;
}

export interface LocalCaRevocationOptions {
  dataDir: string;
  /** Clock for revocation times and each CRL's thisUpdate (pinned in tests). Default: now. */
  clock?: () => Date;
  /** How long a CRL is current (nextUpdate - thisUpdate). Default 7 days. */
  crlLifetimeMs?: number;
}

const optionsSchema = z.strictObject({
  dataDir: z.string().min(1),
  clock: z.custom<() => Date>((v) => typeof v === 'function', 'Expected a function returning a Date').optional(),
  crlLifetimeMs: z
    .number()
    .int()
    .min(60_000)
    .max(366 * 86_400_000)
    .optional(),
});

const revokedFileSchema = z.array(
  z.object({ serialNumber: z.string().regex(/^[0-9A-F]+$/), revokedAt: z.iso.datetime() }),
);

const DAY_MS = 86_400_000;

/**
 * The local CA as an issuer of revocation data. Open it with the same data folder as the
 * identity (`createSigningIdentity({dataDir})` must have made the CA first).
 */
export class LocalCaRevocation implements RevocationSource {
  readonly #files: LocalCaFiles;
  readonly #root: X509Certificate;
  readonly #rootDer: Uint8Array;
  readonly #rootKeyPem: string;
  readonly #clock: () => Date;
  readonly #lifetime: number;

  private constructor(
    files: LocalCaFiles,
    rootDer: Uint8Array,
    rootKeyPem: string,
    clock: () => Date,
    lifetime: number,
  ) {
    this.#files = files;
    this.#rootDer = rootDer;
    this.#root = new X509Certificate(rootDer);
    this.#rootKeyPem = rootKeyPem;
    this.#clock = clock;
    this.#lifetime = lifetime;
  }

  static async open(options: LocalCaRevocationOptions): Promise<LocalCaRevocation> {
    const opts = parseWith(optionsSchema, options);
    const files = caFiles(opts.dataDir);
    const { rootDer, rootKeyPem } = await readCaRoot(files, `No local certificate authority in ${files.dir}`);
    return new LocalCaRevocation(
      files,
      rootDer,
      rootKeyPem,
      opts.clock ?? (() => new Date()),
      opts.crlLifetimeMs ?? 7 * DAY_MS,
    );
  }

  /** True when this CA's root issued `certificate` (and signed it). */
  issued(certificate: Uint8Array): boolean {
    try {
      const cert = new X509Certificate(certificate);
      return !cert.checkIssued(cert) && cert.checkIssued(this.#root) && cert.verify(this.#root.publicKey);
    } catch {
      return false;
    }
  }

  /** The certificates revoked so far, oldest first. */
  async revoked(): Promise<RevokedEntry[]> {
    let text: string;
    try {
      text = await readFile(this.#revokedFile(), 'utf8');
    } catch {
      return [];
    }
    const parsed = revokedFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new SigningError(`The revocation list ${this.#revokedFile()} is damaged`, 'dataDir');
    return parsed.data.map((e) => ({ serialNumber: e.serialNumber, revokedAt: new Date(e.revokedAt) }));
  }

  /**
   * Revokes a certificate this CA issued (from the clock's time, or `at`); it is listed in every
   * CRL made afterwards. Revoking it again keeps the first time.
   */
  async revoke(certificate: Uint8Array, options: { at?: Date } = {}): Promise<RevokedEntry> {
    if (!(certificate instanceof Uint8Array) || !this.issued(certificate))
      throw ValidationError.of('certificate', 'Not a certificate this local CA issued');
    const serialNumber = new X509Certificate(certificate).serialNumber.toUpperCase();
    const list = await this.revoked();
    const known = list.find((e) => e.serialNumber === serialNumber);
    if (known) return known;
    // Whole seconds: the CRL's UTCTime has no fractions, so the list and the CRL agree.
    const at = options.at ?? this.#clock();
    const entry = { serialNumber, revokedAt: new Date(Math.floor(at.getTime() / 1000) * 1000) };
    list.push(entry);
    // Written beside and renamed into place: a reader never sees half a list.
    const tmp = `${this.#revokedFile()}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(
      tmp,
      JSON.stringify(
        list.map((e) => ({ serialNumber: e.serialNumber, revokedAt: e.revokedAt.toISOString() })),
        null,
        2,
      ),
      { mode: 0o644 },
    );
    await rename(tmp, this.#revokedFile());
    return entry;
  }

  /** A CRL (DER) signed by the root: thisUpdate the clock's time, nextUpdate after the lifetime. */
  async crl(): Promise<Uint8Array> {
    const now = this.#clock();
    const root = pkijs.Certificate.fromBER(new Uint8Array(this.#rootDer));
    const crl = new pkijs.CertificateRevocationList();
    crl.version = 1;
    crl.issuer = root.subject;
    crl.thisUpdate = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: now });
    crl.nextUpdate = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: new Date(now.getTime() + this.#lifetime) });
    const revoked = await this.revoked();
    if (revoked.length > 0) {
      crl.revokedCertificates = revoked.map(
        (e) =>
          new pkijs.RevokedCertificate({
            userCertificate: new asn1js.Integer({
              valueHex: new Uint8Array(
                Buffer.from(e.serialNumber.length % 2 ? `0${e.serialNumber}` : e.serialNumber, 'hex'),
              ).buffer,
            }),
            revocationDate: new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: e.revokedAt }),
          }),
      );
    }
    // RFC 5280 §5.2: authorityKeyIdentifier and a CRL number that grows (seconds of thisUpdate).
    const rootAki = root.extensions?.find((x) => x.extnID === '2.5.29.14');
    const crlNumber = new asn1js.Integer({ value: Math.floor(now.getTime() / 1000) });
    const extensions = [
      new pkijs.Extension({ extnID: '2.5.29.20', critical: false, extnValue: crlNumber.toBER(false) }),
    ];
    if (rootAki) {
      const ski = asn1js.fromBER(new Uint8Array(rootAki.extnValue.valueBlock.valueHexView))
        .result as asn1js.OctetString;
      const aki = new pkijs.AuthorityKeyIdentifier({
        keyIdentifier: new asn1js.OctetString({ valueHex: ski.valueBlock.valueHexView.slice().buffer }),
      });
      extensions.unshift(
        new pkijs.Extension({ extnID: '2.5.29.35', critical: false, extnValue: aki.toSchema().toBER(false) }),
      );
    }
    crl.crlExtensions = new pkijs.Extensions({ extensions });
    const key = await rsaSigningKey(createPrivateKey(this.#rootKeyPem).export({ type: 'pkcs8', format: 'der' }));
    await crl.sign(key, 'SHA-256', engine());
    return new Uint8Array(crl.toSchema(true).toBER(false));
  }

  /** The CRL for certificates this CA issued; null for any other (the root itself included). */
  async crlFor(certificate: Uint8Array): Promise<Uint8Array | null> {
    return this.issued(certificate) ? this.crl() : null;
  }

  #revokedFile(): string {
    return path.join(this.#files.dir, 'revoked.json');
  }
}

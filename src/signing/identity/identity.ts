/**
 * Signing identities: who signs (certificate + chain) and the key that signs.
 * An identity is an explicit object the caller creates once and passes to `sealPdf`;
 * nothing is cached in the module.
 */
import { CryptoKeySigner, P12Signer, type Signer } from '@libpdf/core';
import {
  X509Certificate,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  webcrypto,
  type KeyObject,
} from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SigningError, ValidationError } from '../../errors/index.js';
import { parseWith } from '../../schema/index.js';
import { signingCertificateProblem } from '../cms/certificates.js';
import { IdentityKind, LocalCaFiles, SigningIdentity, SigningIdentityOptions, SigningLogger } from './options.js';
import { crlUrlNamedBy, generateLocalCa, reissueWithCrlUrl, type LocalCaNames } from './local-ca.js';
import { caFiles, writeFolderOnce } from './ca-files.js';
import { certificatesFromPem, toPem } from '../cms/pem.js';
export type {
  GeneratedIdentityOptions,
  IdentityKind,
  LocalCaFiles,
  PemIdentityOptions,
  Pkcs12IdentityOptions,
  SigningIdentity,
  SigningIdentityOptions,
  SigningLogger,
} from './options.js';

const signers = new WeakMap<SigningIdentity, Signer>();

/** The key of an identity, for the sealing code in this folder only. */
export function signerOf(identity: SigningIdentity): Signer {
  const signer = signers.get(identity);
  if (!signer) throw ValidationError.of('identity', 'Not a signing identity made by createSigningIdentity');
  return signer;
}

const clockSchema = z
  .custom<() => Date>((v) => typeof v === 'function', 'Expected a function returning a Date')
  .optional();
const generatedSchema = z.object({
  dataDir: z.string().min(1),
  logger: z
    .custom<SigningLogger>(
      (v) => typeof v === 'object' && v !== null && typeof (v as SigningLogger).warn === 'function',
    )
    .optional(),
  clock: clockSchema,
  commonName: z.string().min(1).max(64).optional(),
  organization: z.string().min(1).max(64).optional(),
  crlBaseUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .optional(),
});
const pkcs12Schema = z.object({
  pkcs12: z.union([z.string().min(1), z.instanceof(Uint8Array)]),
  passphrase: z.string(),
  clock: clockSchema,
});
const pemSchema = z.object({
  privateKey: z.string().min(1),
  passphrase: z.string().optional(),
  certificates: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  clock: clockSchema,
});

/**
 * Creates a signing identity from a PKCS#12, from a PEM key and chain, or (given only a
 * data folder) from the local CA, generated on first use and reused afterwards.
 */
export async function createSigningIdentity(options: SigningIdentityOptions): Promise<SigningIdentity> {
  if (typeof options !== 'object' || options === null) throw ValidationError.of('identity', 'Expected an object');
  if ('pkcs12' in options) return fromPkcs12(parseWith(pkcs12Schema, options));
  if ('privateKey' in options || 'certificates' in options) return fromPem(parseWith(pemSchema, options));
  return fromDataDir(parseWith(generatedSchema, options));
}

function describe(der: Uint8Array): string {
  return new X509Certificate(der).subject.split('\n').join(', ');
}

/** Refuses a supplied certificate that may not sign documents now (see Pkcs12IdentityOptions). */
function checkSupplied(signer: Signer, clock: (() => Date) | undefined): void {
  const problem = signingCertificateProblem(new X509Certificate(signer.certificate), clock ? clock() : new Date());
  if (problem) throw ValidationError.of('identity.certificate', problem);
}

function make(
  kind: IdentityKind,
  signer: Signer,
  extra: Pick<SigningIdentity, 'selfSigned' | 'warnings' | 'files' | 'installId' | 'crlUrl'>,
): SigningIdentity {
  const identity: SigningIdentity = {
    kind,
    certificate: signer.certificate,
    chain: signer.certificateChain ?? [],
    subject: describe(signer.certificate),
    ...extra,
  };
  signers.set(identity, signer);
  return Object.freeze(identity);
}

/**
 * An identity for a key and certificate made in this process (a per-signer certificate the local CA
 * just issued, signer-issuer.ts): nothing to read or check again, so no PEM round trip.
 */
export function issuedIdentity(signer: Signer): SigningIdentity {
  const identity = make('pem', signer, { selfSigned: false, warnings: [] });
  issuedHere.add(identity);
  return identity;
}

const issuedHere = new WeakSet<SigningIdentity>();

/** The identity's certificate was issued in this process with document-signing key usage (its validity still counts). */
export function hasIssuedKeyUsage(identity: SigningIdentity): boolean {
  return issuedHere.has(identity);
}

async function fromPkcs12(options: z.infer<typeof pkcs12Schema>): Promise<SigningIdentity> {
  let bytes: Uint8Array;
  if (typeof options.pkcs12 === 'string') {
    try {
      bytes = new Uint8Array(await readFile(options.pkcs12));
    } catch (e) {
      throw ValidationError.of(
        'pkcs12',
        `Cannot read the PKCS#12 file: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
  } else {
    bytes = options.pkcs12;
  }
  let signer: P12Signer;
  try {
    signer = await P12Signer.create(bytes, options.passphrase);
  } catch (e) {
    // PKCS#12 files carry a MAC keyed by the passphrase: a wrong one and a damaged file look alike.
    throw new ValidationError([
      {
        property: 'passphrase',
        message: `Cannot open the PKCS#12 file: wrong passphrase or not a PKCS#12 file (${(e as Error).message})`,
      },
    ]);
  }
  checkSupplied(signer, options.clock);
  return make('pkcs12', signer, { selfSigned: false, warnings: [] });
}

function keyAlgorithm(
  key: KeyObject,
  property: string,
): { keyType: 'RSA' | 'EC'; params: RsaHashedImportParams | EcKeyImportParams; sig: 'RSASSA-PKCS1-v1_5' | 'ECDSA' } {
  if (key.asymmetricKeyType === 'rsa') {
    return { keyType: 'RSA', params: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sig: 'RSASSA-PKCS1-v1_5' };
  }
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const named =
    curve === 'prime256v1' ? 'P-256' : curve === 'secp384r1' ? 'P-384' : curve === 'secp521r1' ? 'P-521' : undefined;
  if (key.asymmetricKeyType === 'ec' && named) {
    return { keyType: 'EC', params: { name: 'ECDSA', namedCurve: named }, sig: 'ECDSA' };
  }
  throw ValidationError.of(
    property,
    `Unsupported key type ${key.asymmetricKeyType ?? 'unknown'}${curve ? ` (${curve})` : ''}: use RSA or ECDSA P-256/384/521`,
  );
}

async function signerFromPem(
  keyPem: string,
  passphrase: string | undefined,
  certs: Uint8Array[],
  keyProperty: string,
): Promise<Signer> {
  let key: KeyObject;
  try {
    key = createPrivateKey(passphrase === undefined ? keyPem : { key: keyPem, passphrase });
  } catch (e) {
    const message = (e as Error).message;
    const wrongPass = /passphrase|decrypt|bad decrypt/i.test(message);
    throw ValidationError.of(
      wrongPass ? 'passphrase' : keyProperty,
      wrongPass ? 'Cannot decrypt the private key: wrong passphrase' : `Not a PEM private key (${message})`,
    );
  }
  const [leaf, ...chain] = certs;
  if (!leaf) throw ValidationError.of('certificates', 'No PEM certificate found');
  const leafPublic = new X509Certificate(leaf).publicKey.export({ type: 'spki', format: 'der' });
  const keyPublic = createPublicKey(key).export({ type: 'spki', format: 'der' });
  if (!leafPublic.equals(keyPublic))
    throw ValidationError.of('certificates', 'The first certificate does not belong to the private key');
  const alg = keyAlgorithm(key, keyProperty);
  const der = key.export({ type: 'pkcs8', format: 'der' });
  const cryptoKey = await webcrypto.subtle.importKey('pkcs8', der, alg.params, false, ['sign']);
  return new CryptoKeySigner(cryptoKey as CryptoKey, leaf, alg.keyType, alg.sig, chain);
}

async function fromPem(options: z.infer<typeof pemSchema>): Promise<SigningIdentity> {
  let certs: Uint8Array[];
  try {
    certs = (Array.isArray(options.certificates) ? options.certificates : [options.certificates]).flatMap(
      certificatesFromPem,
    );
  } catch (e) {
    throw ValidationError.of('certificates', `Not a PEM certificate (${(e as Error).message})`);
  }
  const signer = await signerFromPem(options.privateKey, options.passphrase, certs, 'privateKey');
  checkSupplied(signer, options.clock);
  return make('pem', signer, { selfSigned: false, warnings: [] });
}

/**
 * The local CA's names carry a random install id, so no two installs' CAs share a name: a
 * validator that trusts one install's root never mistakes another install's certificates for
 * its children (same-named issuers are where path building goes looking first).
 */
function defaultNames(installId: string): LocalCaNames {
  return {
    rootCommonName: `castpress local root CA ${installId} (self-signed)`,
    signerCommonName: `castpress local signer ${installId}`,
    organization: 'castpress',
    organizationalUnit: `install ${installId}`,
  };
}

/** Where an install's CRL is published under a base URL (what castpress serves). */
function crlUrlOf(baseUrl: string, installId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/signing/crl/${installId}.crl`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await readFile(file);
    return true;
  } catch {
    return false;
  }
}

/** Writes a fresh CA into its folder (writeFolderOnce: two processes starting at once agree on one). */
async function generateInto(
  files: LocalCaFiles,
  now: Date,
  naming: LocalCaNames,
  installId: string,
  crlUrl: string | undefined,
): Promise<void> {
  await writeFolderOnce(files.dir, async (tmp) => {
    const ca = await generateLocalCa(now, naming, crlUrl);
    const inTmp = (file: string) => path.join(tmp, path.basename(file));
    await writeFile(inTmp(files.rootCertificate), toPem(ca.root.der, 'CERTIFICATE'), { mode: 0o644 });
    await writeFile(inTmp(files.rootKey), toPem(ca.root.pkcs8, 'PRIVATE KEY'), { mode: 0o600 });
    await writeFile(inTmp(files.certificate), toPem(ca.leaf.der, 'CERTIFICATE') + toPem(ca.root.der, 'CERTIFICATE'), {
      mode: 0o644,
    });
    await writeFile(inTmp(files.key), toPem(ca.leaf.pkcs8, 'PRIVATE KEY'), { mode: 0o600 });
    await writeFile(inTmp(files.installId), `${installId}\n`, { mode: 0o644 });
  });
}

async function fromDataDir(options: z.infer<typeof generatedSchema>): Promise<SigningIdentity> {
  const files = caFiles(options.dataDir);
  if (!(await exists(files.certificate))) {
    const now = options.clock ? options.clock() : new Date();
    // 64 random bits: two installs never draw the same.
    const installId = randomBytes(8).toString('hex');
    const naming = {
      ...defaultNames(installId),
      ...(options.commonName ? { signerCommonName: options.commonName } : {}),
      ...(options.organization ? { organization: options.organization } : {}),
    };
    try {
      await generateInto(
        files,
        now,
        naming,
        installId,
        options.crlBaseUrl ? crlUrlOf(options.crlBaseUrl, installId) : undefined,
      );
    } catch (e) {
      throw new SigningError(
        `Cannot write the local certificate authority into ${files.dir}: ${(e as Error).message}`,
        'dataDir',
        500,
        { cause: e },
      );
    }
  }
  // A CA generated before install ids has no file: its identity has no id.
  const installId = await readFile(files.installId, 'utf8').then(
    (text) => (/^[0-9a-f]{16}$/.test(text.trim()) ? text.trim() : undefined),
    () => undefined,
  );
  const crlUrl = options.crlBaseUrl && installId ? crlUrlOf(options.crlBaseUrl, installId) : undefined;
  if (crlUrl) await followCrlUrl(files, crlUrl);
  let signer: Signer;
  try {
    const [keyPem, certPem] = await Promise.all([readFile(files.key, 'utf8'), readFile(files.certificate, 'utf8')]);
    signer = await signerFromPem(keyPem, undefined, certificatesFromPem(certPem), 'dataDir');
  } catch (e) {
    if (e instanceof ValidationError)
      throw new SigningError(`The local certificate files in ${files.dir} are damaged: ${e.message}`, 'dataDir');
    throw new SigningError(
      `Cannot read the local certificate files in ${files.dir}: ${(e as Error).message}`,
      'dataDir',
      422,
      { cause: e },
    );
  }
  const warning =
    `Signing with a self-signed local certificate (${describe(signer.certificate)}; root CA in ${files.rootCertificate}). ` +
    'Validators will report the signatures intact but the signer unknown or untrusted unless that root is imported as a trust anchor; ' +
    'configure a PKCS#12 or PEM certificate from a trusted CA for documents others must trust.';
  options.logger?.warn(warning);
  return make('generated', signer, {
    selfSigned: true,
    warnings: [warning],
    files,
    ...(installId ? { installId } : {}),
    ...(crlUrl ? { crlUrl } : {}),
  });
}

/**
 * The signing certificate issued again, same key, names and validity, when it names another CRL
 * address than `crlUrl` (the server's public URL changed, or the CA was made without one): written
 * beside and renamed into place. Left as it is when the root key is not at hand.
 */
async function followCrlUrl(files: LocalCaFiles, crlUrl: string): Promise<void> {
  let texts: [string, string, string];
  try {
    texts = await Promise.all([
      readFile(files.certificate, 'utf8'),
      readFile(files.rootCertificate, 'utf8'),
      readFile(files.rootKey, 'utf8'),
    ]);
  } catch {
    return;
  }
  const [leaf, root] = [certificatesFromPem(texts[0])[0], certificatesFromPem(texts[1])[0]];
  if (!leaf || !root || crlUrlNamedBy(leaf) === crlUrl) return;
  const pkcs8 = new Uint8Array(createPrivateKey(texts[2]).export({ type: 'pkcs8', format: 'der' }));
  const reissued = await reissueWithCrlUrl(leaf, { der: root, pkcs8 }, crlUrl);
  const tmp = `${files.certificate}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, toPem(reissued, 'CERTIFICATE') + toPem(root, 'CERTIFICATE'), { mode: 0o644 });
  await rename(tmp, files.certificate);
}

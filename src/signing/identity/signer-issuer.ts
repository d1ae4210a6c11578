/**
 * Issuing per-signer certificates without per-signature setup: an object its owner opens
 * once (a workflow, a worker thread's state) and closes, which keeps the local CA's root
 * certificate parsed, its key imported and the CRL URL read, so one signature costs one key
 * generation and one certificate signature, not a read of the CA's files, an import of the
 * root key and a round trip of key and certificate through PEM (createSigningIdentity).
 *
 * No pool of keys made ahead: an ECDSA P-256 key takes about 0.1 ms to make (1 ms through
 * WebCrypto's thread hop), next to 20+ ms for the rest of a signer's revision. Each `issue`
 * makes a fresh key; none is ever reused.
 */
import { createPrivateKey, webcrypto } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CryptoKeySigner } from '@libpdf/core';
import { ValidationError } from '../../errors/index.js';
import { issuedIdentity } from './identity.js';
import type { SigningIdentity } from './options.js';
import { crlUrlNamedBy, endEntityIssuer, issueEndEntity, type EndEntityIssuer } from './local-ca.js';
import { certificatesFromPem } from '../cms/pem.js';

export interface SignerIdentityOptions {
  /** Signer's name: the certificate's CN. */
  name: string;
  email?: string;
  /** When the certificate starts to count (it starts a day earlier); default now. */
  now?: Date;
}

/** The local CA of an operator identity, ready to issue one certificate per signature. */
export class SignerCertificateIssuer {
  readonly #root: Uint8Array;
  #issuer: EndEntityIssuer | undefined;
  readonly #crlUrl: string | undefined;
  #issued = 0;

  /** Certificates issued so far (what a caller counts to see that one issuer served many signatures). */
  get issued(): number {
    return this.#issued;
  }

  private constructor(root: Uint8Array, issuer: EndEntityIssuer, crlUrl: string | undefined) {
    this.#root = root;
    this.#issuer = issuer;
    this.#crlUrl = crlUrl;
  }

  /**
   * The issuer of `operator`'s local CA: reads its root certificate and key once. Undefined when
   * the operator cannot issue (a PKCS#12 or PEM identity, or a local CA whose root key is not at
   * hand, e.g. kept offline).
   */
  static async open(operator: SigningIdentity): Promise<SignerCertificateIssuer | undefined> {
    if (operator.kind !== 'generated' || !operator.files) return undefined;
    const files = operator.files;
    const read = await Promise.all([readFile(files.rootCertificate, 'utf8'), readFile(files.rootKey, 'utf8')]).catch(
      () => undefined,
    );
    if (!read) return undefined;
    const [rootPem, keyPem] = read;
    const root = certificatesFromPem(rootPem)[0]!;
    const pkcs8 = new Uint8Array(createPrivateKey(keyPem).export({ type: 'pkcs8', format: 'der' }));
    return new SignerCertificateIssuer(
      root,
      await endEntityIssuer({ der: root, pkcs8 }),
      // Where the CRL is published now (the server's public URL), else what the operator's certificate names.
      operator.crlUrl ?? crlUrlNamedBy(operator.certificate),
    );
  }

  /**
   * A signing identity for one signer: a fresh ECDSA P-256 key, a certificate the root issues for it
   * (CN the signer's name, the e-mail as subjectAltName, the CA's key usage, EKU and CRL URL).
   */
  async issue(options: SignerIdentityOptions): Promise<SigningIdentity> {
    const issuer = this.#issuer;
    if (!issuer) throw new Error('SignerCertificateIssuer is closed');
    const name = options.name.trim().slice(0, 64);
    if (name === '') throw ValidationError.of('signer.name', "A per-signer certificate needs the signer's name");
    const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const der = await issueEndEntity(
      issuer,
      keys.publicKey,
      { commonName: name, ...(options.email ? { email: options.email } : {}) },
      options.now ?? new Date(),
      this.#crlUrl ? { crlUrl: this.#crlUrl } : {},
    );
    this.#issued++;
    return issuedIdentity(new CryptoKeySigner(keys.privateKey, der, 'EC', 'ECDSA', [this.#root]));
  }

  /** Drops the root key; `issue` refuses afterwards. */
  close(): void {
    this.#issuer = undefined;
  }
}

/** A signing identity and the three ways to make one (generated local CA, PKCS#12, PEM): the types identity.ts builds. */

/** Where warnings go; library code never writes to the console itself. */
export interface SigningLogger {
  warn(message: string): void;
}

export type IdentityKind = 'generated' | 'pkcs12' | 'pem';

export interface SigningIdentity {
  readonly kind: IdentityKind;
  /** DER-encoded signing certificate. */
  readonly certificate: Uint8Array;
  /** DER-encoded issuers of the signing certificate, nearest first (intermediates…, root). */
  readonly chain: readonly Uint8Array[];
  /** Subject of the signing certificate, e.g. `O=castpress, OU=install 3f2a…, CN=castpress local signer 3f2a…`. */
  readonly subject: string;
  /** True for the locally generated CA: validators will not trust it unless its root is imported. */
  readonly selfSigned: boolean;
  /** Human-readable warnings (the self-signed notice); also sent to the logger. */
  readonly warnings: readonly string[];
  /** For generated identities: the files kept in the data folder. */
  readonly files?: LocalCaFiles;
  /**
   * For generated identities: the random id of this install's CA, in both its certificates' names
   * (absent for a CA generated before ids existed).
   */
  readonly installId?: string;
  /**
   * For generated identities made with `crlBaseUrl`: where this install's CRL is published now
   * (`<crlBaseUrl>/signing/crl/<install id>.crl`), named by every certificate issued from it.
   */
  readonly crlUrl?: string;
}

export interface LocalCaFiles {
  dir: string;
  rootCertificate: string;
  rootKey: string;
  certificate: string;
  key: string;
  /** The install id, one line of hex. */
  installId: string;
}

export interface GeneratedIdentityOptions {
  /** Data folder of the engine; the CA lives in `<dataDir>/signing/`. */
  dataDir: string;
  logger?: SigningLogger;
  /** Clock used for the certificates' validity on first use (pinned in tests). */
  clock?: () => Date;
  commonName?: string;
  organization?: string;
  /**
   * Base URL the CA's CRL is published under (e.g. `https://sign.example.org`, a server's public
   * URL): the signing certificate names `<crlBaseUrl>/signing/crl/<install id>.crl` as its CRL
   * distribution point, and so does every certificate issued from the CA afterwards. A signing
   * certificate that names another address (the base URL changed) is issued again for the same key
   * and validity, when the root key is at hand. Without it the certificates keep what they name.
   */
  crlBaseUrl?: string;
}

/**
 * A supplied certificate must be fit to sign documents: keyUsage (if present) with digitalSignature
 * or nonRepudiation, an extendedKeyUsage (if present) with a document-signing purpose, and valid at
 * the clock's time. Otherwise a ValidationError naming `identity.certificate`.
 */
export interface Pkcs12IdentityOptions {
  /** A path to a .p12/.pfx file, or its bytes. */
  pkcs12: string | Uint8Array;
  passphrase: string;
  /** Clock the certificate's validity is checked against (pinned in tests). Default: now. */
  clock?: () => Date;
}

export interface PemIdentityOptions {
  /** PEM private key (PKCS#8, PKCS#1 or SEC1; encrypted keys take `passphrase`). */
  privateKey: string;
  passphrase?: string;
  /** PEM certificates, signing certificate first, then its issuers. */
  certificates: string | string[];
  /** Clock the certificate's validity is checked against (pinned in tests). Default: now. */
  clock?: () => Date;
}

export type SigningIdentityOptions = GeneratedIdentityOptions | Pkcs12IdentityOptions | PemIdentityOptions;

/**
 * The hosted service's encrypted `data` format (its `@anvilco/encryption` package):
 * `base64(RSA-OAEP-SHA1(ascii hex of a 32-byte AES key)) ":" hex(IV) ":" hex(AES-256-CBC(utf8 JSON))`.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

export type KeyInput = string | Buffer | KeyObject;

class DecryptionFailure extends Error {}

export function decryptDataString(message: string, privateKey: KeyInput): string {
  const first = message.indexOf(':');
  if (first <= 0)
    throw new DecryptionFailure('Not in the encrypted data format (base64 key ":" hex IV ":" hex ciphertext)');
  const encKey = message.slice(0, first);
  const [ivHex, ...rest] = message.slice(first + 1).split(':');
  const cipherHex = rest.join(':');
  if (!/^[0-9a-fA-F]{32}$/.test(ivHex ?? '') || !/^([0-9a-fA-F]{2})+$/.test(cipherHex)) {
    throw new DecryptionFailure('Not in the encrypted data format (base64 key ":" hex IV ":" hex ciphertext)');
  }
  let key: KeyObject;
  try {
    key = typeof privateKey === 'string' || Buffer.isBuffer(privateKey) ? createPrivateKey(privateKey) : privateKey;
  } catch {
    throw new DecryptionFailure('The configured private key cannot be read');
  }
  let aesKeyHex: string;
  try {
    aesKeyHex = privateDecrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from(encKey, 'base64'),
    ).toString('latin1');
  } catch {
    throw new DecryptionFailure('The data was not encrypted for this key');
  }
  if (!/^[0-9a-fA-F]{64}$/.test(aesKeyHex)) throw new DecryptionFailure('The decrypted AES key is malformed');
  try {
    const decipher = createDecipheriv('aes-256-cbc', Buffer.from(aesKeyHex, 'hex'), Buffer.from(ivHex, 'hex'));
    return Buffer.concat([decipher.update(Buffer.from(cipherHex, 'hex')), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptionFailure('The ciphertext does not decrypt with the enclosed key');
  }
}

/** The client side of the format; used by tests and by callers encrypting for an engine. */
export function encryptDataString(plaintext: string, publicKey: KeyInput): string {
  const aesKeyHex = randomBytes(32).toString('hex');
  const encKey = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    Buffer.from(aesKeyHex),
  );
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', Buffer.from(aesKeyHex, 'hex'), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${encKey.toString('base64')}:${iv.toString('hex')}:${body.toString('hex')}`;
}

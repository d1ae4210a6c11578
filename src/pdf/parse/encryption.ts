import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFString,
  type PDFContext,
  type PDFObject,
} from '@cantoo/pdf-lib';
import type { CryptoFactory } from './parser.js';
import { importPdfLibCrypto } from './pdf-lib-crypto.js';

/** The encryption dictionary is not one this reader accepts; `message` says why. */
export class UnsupportedEncryptionError extends Error {}

type FactoryClass = new (dict: PDFDict, fileId: Uint8Array, password?: string) => NonNullable<CryptoFactory>;

let factoryClass: Promise<FactoryClass> | undefined;

/** pdf-lib's decryption (CipherTransformFactory) is not exported: see pdf-lib-crypto.ts. */
function cipherFactoryClass(): Promise<FactoryClass> {
  factoryClass ??= (async () => {
    const mod = (await importPdfLibCrypto()) as { CipherTransformFactory?: FactoryClass };
    if (typeof mod.CipherTransformFactory !== 'function')
      throw new Error('@cantoo/pdf-lib changed: CipherTransformFactory not found');
    return mod.CipherTransformFactory;
  })();
  return factoryClass;
}

const name = (s: string) => PDFName.of(s);

function bytesOf(obj: PDFObject | undefined): Uint8Array | undefined {
  return obj instanceof PDFString || obj instanceof PDFHexString ? obj.asBytes() : undefined;
}

function intOf(obj: PDFObject | undefined): number | undefined {
  if (!(obj instanceof PDFNumber)) return undefined;
  const n = obj.asNumber();
  return Number.isInteger(n) ? n : undefined;
}

/** Key length in bits, as the standard security handler defines it (pdf-lib also accepts bytes in a crypt filter). */
function keyBits(value: number): number {
  return value < 40 ? value * 8 : value;
}

/**
 * Checks the standard security handler's parameters before any key is
 * derived: pdf-lib hashes /Length / 8 bytes 51 times, so `/Length 1073741824`
 * blocked the event loop for 55 s. Everything pdf-lib reads is checked for
 * type and range here (ISO 32000-2, 7.6.4).
 */
function checkEncryptDict(obj: PDFObject | undefined, context: PDFContext): PDFDict {
  if (!(obj instanceof PDFDict)) throw new UnsupportedEncryptionError('the /Encrypt entry is not a dictionary');
  const dict = obj;
  if (dict.get(name('Filter')) !== name('Standard'))
    throw new UnsupportedEncryptionError('only the standard security handler is supported');
  const v = intOf(dict.get(name('V')));
  const r = intOf(dict.get(name('R')));
  if (v === undefined || ![1, 2, 4, 5].includes(v))
    throw new UnsupportedEncryptionError(`unsupported encryption algorithm /V ${String(v)}`);
  if (r === undefined || r < 2 || r > 6 || (v === 5) !== r >= 5)
    throw new UnsupportedEncryptionError(`unsupported encryption revision /R ${String(r)} for /V ${v}`);
  const length = dict.get(name('Length'));
  if (length !== undefined) {
    const bits = intOf(length);
    if (bits === undefined || bits < 40 || bits > 256 || bits % 8 !== 0)
      throw new UnsupportedEncryptionError('invalid key length: /Length must be 40 to 256 bits, a multiple of 8');
  }
  if (v >= 4) {
    const cf = context.lookup(dict.get(name('CF')));
    if (cf !== undefined && !(cf instanceof PDFDict))
      throw new UnsupportedEncryptionError('the crypt filters (/CF) are not a dictionary');
    for (const key of ['StmF', 'StrF', 'EFF']) {
      const f = dict.get(name(key));
      if (f !== undefined && !(f instanceof PDFName)) throw new UnsupportedEncryptionError(`/${key} is not a name`);
      if (f instanceof PDFName && f !== name('Identity')) {
        const handler = cf instanceof PDFDict ? context.lookup(cf.get(f)) : undefined;
        if (!(handler instanceof PDFDict))
          throw new UnsupportedEncryptionError(`crypt filter ${f.asString()} is not defined`);
        const cfm = handler.get(name('CFM'));
        if (cfm !== undefined && ![name('None'), name('V2'), name('AESV2'), name('AESV3')].includes(cfm as PDFName)) {
          throw new UnsupportedEncryptionError('unsupported crypt filter method');
        }
        const len = handler.get(name('Length'));
        if (len !== undefined) {
          const n = intOf(context.lookup(len));
          if (n === undefined || n <= 0 || keyBits(n) < 40 || keyBits(n) > 256 || keyBits(n) % 8 !== 0)
            throw new UnsupportedEncryptionError('invalid crypt filter key length');
        }
      }
    }
  }
  const hashLength = r >= 5 ? 48 : 32;
  for (const key of ['O', 'U']) {
    const b = bytesOf(dict.get(name(key)));
    if (!b || b.length < hashLength || b.length > 127)
      throw new UnsupportedEncryptionError(`/${key} must be a string of at least ${hashLength} bytes`);
  }
  if (r >= 5) {
    for (const [key, size] of [
      ['OE', 32],
      ['UE', 32],
      ['Perms', 16],
    ] as const) {
      const b = bytesOf(dict.get(name(key)));
      if (!b || b.length < size) throw new UnsupportedEncryptionError(`/${key} must be a string of ${size} bytes`);
    }
  }
  if (intOf(dict.get(name('P'))) === undefined) throw new UnsupportedEncryptionError('/P is not an integer');
  return dict;
}

/** The first file identifier (required for key derivation before AES-256). */
function fileIdOf(idObj: PDFObject | undefined, context: PDFContext, needed: boolean): Uint8Array {
  const ids = context.lookup(idObj);
  const first = ids instanceof PDFArray && ids.size() > 0 ? bytesOf(ids.lookup(0)) : undefined;
  if (first) return first;
  if (needed) throw new UnsupportedEncryptionError('an encrypted file needs a file identifier (/ID)');
  return new Uint8Array();
}

/** A decryption factory for a checked /Encrypt dictionary (throws pdf-lib's own errors for wrong passwords). */
export async function cryptoFactoryFor(context: PDFContext, password: string): Promise<NonNullable<CryptoFactory>> {
  const dict = checkEncryptDict(context.lookup(context.trailerInfo.Encrypt), context);
  const v = intOf(dict.get(name('V')))!;
  const fileId = fileIdOf(context.trailerInfo.ID, context, v < 5);
  const Factory = await cipherFactoryClass();
  return new Factory(dict, fileId, password);
}

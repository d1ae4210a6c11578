/**
 * The local CA's folder under a data directory: where its files are, how they are written (a whole
 * folder at once, so that two processes starting together agree on one) and how its root is read.
 */
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { SigningError } from '../../errors/index.js';
import { certificatesFromPem } from '../cms/pem.js';
import type { LocalCaFiles } from './options.js';

export function caFiles(dataDir: string): LocalCaFiles {
  const dir = path.join(path.resolve(dataDir), 'signing');
  return {
    dir,
    rootCertificate: path.join(dir, 'root-ca.pem'),
    rootKey: path.join(dir, 'root-ca.key.pem'),
    certificate: path.join(dir, 'signer.pem'),
    key: path.join(dir, 'signer.key.pem'),
    installId: path.join(dir, 'install-id'),
  };
}

/**
 * Fills a temporary folder beside `dir` through `write` and renames it into place: two processes
 * starting at once both succeed, and the loser reads the winner's files.
 */
export async function writeFolderOnce(dir: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const parent = path.dirname(dir);
  await mkdir(parent, { recursive: true });
  const tmp = await mkdtemp(path.join(parent, `.${path.basename(dir)}-`));
  try {
    await write(tmp);
    try {
      await rename(tmp, dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The root certificate (DER) and its key (PEM) of the local CA in `files`. A typed error on `dataDir`
 * when they cannot be read (422, after `missing`, which says who needs them) or the certificate is damaged.
 */
export async function readCaRoot(
  files: LocalCaFiles,
  missing: string,
): Promise<{ rootDer: Uint8Array; rootKeyPem: string }> {
  let rootPem: string;
  let rootKeyPem: string;
  try {
    [rootPem, rootKeyPem] = await Promise.all([
      readFile(files.rootCertificate, 'utf8'),
      readFile(files.rootKey, 'utf8'),
    ]);
  } catch (e) {
    throw new SigningError(`${missing}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`, 'dataDir', 422, {
      cause: e,
    });
  }
  const [rootDer] = certificatesFromPem(rootPem);
  if (!rootDer) throw new SigningError(`The local root certificate in ${files.dir} is damaged`, 'dataDir');
  return { rootDer, rootKeyPem };
}

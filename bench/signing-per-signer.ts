/**
 * The per-signer signing rows. (1) Per-signer signing on the W-9: one signer's marks set as field
 * appearances and signed with a certificate the local CA issues for them (`signAsSigner`) against
 * the one-seal mode's work for the same signer (marks drawn as page content, `applySignerInputs`),
 * alternately; the row is the difference per signer per document (goal: <= 50 ms). The same with
 * the local CA kept open (`SignerCertificateIssuer`, as the server's worker threads keep it) is a
 * second row; the first is `signAsSigner` as the library workflow calls it. (2) Completing a
 * 500-page ~20 MB document with PAdES B-LT (local CA, built-in TSA: seal, then the DSS with the CA's
 * CRL) against `qpdf in.pdf out.pdf` on the same file, alternately (goal: <= 2x).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { applySignerInputs, signAsSigner, type PlannedField, type SignerInputs } from '../src/packets/index.js';
import type { Signer } from '../src/packets/request/request.js';
import {
  AppearanceWriter,
  createSigningIdentity,
  LocalTimestampAuthority,
  sealPdf,
  SignerCertificateIssuer,
} from '../src/signing/index.js';
import { w9Pdf } from '../test/fixtures/fill/corpus.js';
import { bigPdf } from './signing-seal.js';
import { interleaved, type BenchRow } from './types.js';

const run$ = promisify(execFile);

const field = (fieldId: string, type: PlannedField['type'], y: number): PlannedField => ({
  fileId: 'w9',
  fieldId,
  type,
  pageNum: 0,
  rect: { x: 60, y, width: 220, height: 24 },
  source: 'request',
  signerId: 'ada',
});

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-per-signer-'));
  try {
    const identity = await createSigningIdentity({ dataDir: path.join(dir, 'data') });
    const writer = new AppearanceWriter();
    const w9 = w9Pdf();
    const fields = [field('sig', 'signature', 560), field('date', 'signatureDate', 600)];
    const signer = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', routingOrder: 1 } as unknown as Signer;
    const inputs: SignerInputs = { signature: { type: 'typed', text: 'Ada Lovelace' }, signedAt: new Date() };
    const [perSigner, seal] = await interleaved(
      () => signAsSigner(w9, inputs, { writer, signer, fields }, { identity, packetEid: 'pkt', signerEid: 'sgn' }),
      () => applySignerInputs(w9, inputs, { writer, signer, fields }),
      9,
      2,
    );
    const issuer = (await SignerCertificateIssuer.open(identity))!;
    const [perSignerOpenCa, sealAgain] = await interleaved(
      () =>
        signAsSigner(w9, inputs, { writer, signer, fields }, { identity, packetEid: 'pkt', signerEid: 'sgn', issuer }),
      () => applySignerInputs(w9, inputs, { writer, signer, fields }),
      9,
      2,
    );
    // With a TSA (every signer's signature B-T): the same, each signature timestamped by the built-in TSA.
    const tsa = await LocalTimestampAuthority.open({ dataDir: path.join(dir, 'data') });
    const [perSignerTimestamped, sealThird] = await interleaved(
      () =>
        signAsSigner(
          w9,
          inputs,
          { writer, signer, fields },
          { identity, packetEid: 'pkt', signerEid: 'sgn', issuer, timestamp: { local: tsa } },
        ),
      () => applySignerInputs(w9, inputs, { writer, signer, fields }),
      9,
      2,
    );
    issuer.close();

    const big = await bigPdf();
    const inFile = path.join(dir, 'in.pdf');
    const outFile = path.join(dir, 'out.pdf');
    await writeFile(inFile, big);
    const [complete, qpdf] = await interleaved(
      () => sealPdf(big, identity, { reason: 'bench', timestamp: { local: tsa }, level: 'B-LT' }),
      () => run$('qpdf', [inFile, outFile]),
      5,
      1,
    );
    return [
      {
        name: 'per-signer signing on the W-9, over the one-seal work, per signer per document',
        value: perSigner - seal,
        unit: 'ms',
        baseline: seal,
        ratio: perSigner / seal,
        goal: 'value <= 50 ms',
      },
      {
        name: 'per-signer signing on the W-9 with the CA kept open (server threads), over the one-seal work, per signer per document',
        value: perSignerOpenCa - sealAgain,
        unit: 'ms',
        baseline: sealAgain,
        ratio: perSignerOpenCa / sealAgain,
        goal: 'value <= 50 ms',
      },
      {
        name: 'per-signer signing on the W-9, CA kept open, with the built-in TSA (B-T), over the one-seal work, per signer per document',
        value: perSignerTimestamped - sealThird,
        unit: 'ms',
        baseline: sealThird,
        ratio: perSignerTimestamped / sealThird,
        goal: 'value <= 50 ms',
      },
      {
        name: `complete ${(big.length / 1024 / 1024).toFixed(1)} MB / 500 pages with B-LT (local CA + TSA) vs qpdf in out`,
        value: complete,
        unit: 'ms',
        baseline: qpdf,
        ratio: complete / qpdf,
        goal: '<= 2',
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());

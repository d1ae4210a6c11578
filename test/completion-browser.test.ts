/**
 * The certificate of completion through `castpress serve --signatures per-signer` and the
 * real signing page in Chromium (the pdf.js viewer flow, each box accepted in the mark dialog): one
 * signer draws their signature with the mouse and takes typed initials, the other types a signature.
 * Read back from the certificate the download zip holds (pdfjs, openssl, the server's CA files):
 * - each signer's adopted marks are drawn in their own section of the certificate (ink of the marks'
 *   colour rendered there, the typed texts placed there), not an empty section;
 * - the audit trail as the browser made it: each opening of the page with the browser's IP and user
 *   agent, each box accepted, the time zone the browser reported, the consent text the dialog showed,
 *   per document the fingerprint of each signer's certificate, and the sealing certificate.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import {
  downloadedDocuments,
  ok,
  signerCertificateSha256,
  signUrlOf,
  squash,
  squashedText,
  startPacketServe,
  type PacketServe,
} from './helpers/packet-serve.js';
import { readText } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';
import { extractSignatures, tempDir } from './helpers/signing.js';
import { drawOn, watchPage } from './helpers/signing-page.js';

let tmp: { dir: string; remove: () => Promise<void> };
let served: PacketServe;
let browser: Browser;

beforeAll(async () => {
  tmp = await tempDir('castpress-completion-browser-');
  served = await startPacketServe(tmp.dir, ['--signatures', 'per-signer']);
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  await served?.close();
  await tmp?.remove();
}, 60_000);

const rect = (x: number, y: number, width = 200, height = 40) => ({ x, y, width, height });
const ADA = { name: 'Ada Drawn', email: 'ada@example.com', zone: 'Europe/Paris', agent: 'e2e-chromium-ada/1.0' };
const BO = { name: 'Bo Typed', email: 'bo@example.com', zone: 'America/New_York', agent: 'e2e-chromium-bo/1.0' };
/** What Bo types as his signature: not his name, so it is on the certificate only as his mark. */
const BO_TYPES = 'B. Typist';

/** A signer's page in a browser context of their own (user agent, time zone); `opens` openings. */
async function signerPage(url: string, who: typeof ADA, opens: number): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1200, height: 900 },
    userAgent: who.agent,
    timezoneId: who.zone,
  });
  const page = await context.newPage();
  const { errors } = watchPage(page);
  for (let i = 0; i < opens; i++) {
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 60_000 });
  }
  return { page, errors };
}

async function finished(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
    timeout: 120_000,
  });
}

/** Pixels of the marks' ink (AppearanceWriter's dark blue), by the signer whose section they are in. */
function inkBySection(
  pages: Awaited<ReturnType<typeof renderPages>>,
  starts: Array<{ page: number; y: number }>,
): number[] {
  const counts = starts.map(() => 0);
  pages.forEach((p, pageIndex) => {
    for (let y = 0; y < p.height; y++) {
      for (let x = 0; x < p.width; x++) {
        const i = (y * p.width + x) * 4;
        const [r, g, b] = [p.rgba[i]!, p.rgba[i + 1]!, p.rgba[i + 2]!];
        if (!(b > 60 && b - r > 40 && b - g > 30)) continue;
        // The last section that starts at or before this pixel.
        let owner = -1;
        starts.forEach((s, k) => {
          if (s.page < pageIndex || (s.page === pageIndex && s.y <= y)) owner = k;
        });
        if (owner >= 0) counts[owner]!++;
      }
    }
  });
  return counts;
}

describe('the certificate of completion of a packet signed in Chromium through castpress serve', () => {
  it('shows each signer’s adopted marks in their section and the audit trail the browser made', async () => {
    const consent = 'I, {{signer.name}}, agree to sign {{packet.name}} with this mark.';
    const created = ok(
      await served.client.createEtchPacket({
        variables: {
          name: 'Browser trail',
          isDraft: false,
          isTest: true,
          signaturePageOptions: { signConsentText: consent },
          files: [
            {
              id: 'terms',
              filename: 'terms.pdf',
              title: 'Terms',
              fields: [
                { heading: 'Terms' },
                { content: 'Both parties sign below; the first also initials.' },
                { id: 'aSig', type: 'signature', pageNum: 0, rect: rect(72, 300) },
                { id: 'aIni', type: 'initial', pageNum: 0, rect: rect(320, 300, 60) },
                { id: 'bSig', type: 'signature', pageNum: 0, rect: rect(72, 380) },
              ],
            },
          ],
          signers: [
            {
              id: 'ada',
              name: ADA.name,
              email: ADA.email,
              signerType: 'embedded',
              routingOrder: 1,
              fields: [
                { fileId: 'terms', fieldId: 'aSig' },
                { fileId: 'terms', fieldId: 'aIni' },
              ],
            },
            {
              id: 'bo',
              name: BO.name,
              email: BO.email,
              signerType: 'embedded',
              routingOrder: 2,
              fields: [{ fileId: 'terms', fieldId: 'bSig' }],
            },
          ],
        },
      }),
    ).createEtchPacket as { eid: string; documentGroup: { eid: string; signers: Array<{ eid: string }> } };
    const [first, second] = created.documentGroup.signers;

    // Ada opens the page twice, draws her signature with the mouse, takes the typed initials offered.
    const ada = await signerPage(await signUrlOf(served.client, first!.eid, 'ada-1'), ADA, 2);
    await ada.page.click('[data-field="aSig"]');
    await expect(ada.page.textContent('#adopt .consent')).resolves.toBe(
      `I, ${ADA.name}, agree to sign Browser trail with this mark.`,
    );
    await drawOn(ada.page, '#pad');
    await ada.page.click('#adopt-ok');
    await ada.page.click('[data-field="aIni"]');
    await ada.page.click('#use-typed');
    const adaInitials = await ada.page.inputValue('#typed');
    expect(adaInitials).toBe('AD');
    await ada.page.click('#adopt-ok');
    await finished(ada.page);
    expect(ada.errors, ada.errors.join('\n')).toEqual([]);
    await ada.page.context().close();

    // Bo opens it once and types a signature.
    const bo = await signerPage(await signUrlOf(served.client, second!.eid, 'bo-1'), BO, 1);
    await bo.page.click('[data-field="bSig"]');
    await bo.page.click('#use-typed');
    await bo.page.fill('#typed', BO_TYPES);
    await bo.page.click('#adopt-ok');
    await finished(bo.page);
    expect(bo.errors, bo.errors.join('\n')).toEqual([]);
    await bo.page.context().close();

    const entries = await downloadedDocuments(served.client, created.documentGroup.eid);
    const certificateName = Object.keys(entries).find((n) => /certificate/i.test(n));
    const termsName = Object.keys(entries).find((n) => /terms/i.test(n));
    expect(certificateName && termsName, Object.keys(entries).join(', ')).toBeTruthy();
    const certificate = entries[certificateName!]!;

    // The adopted marks, each in its signer's section (from the row naming the signer to the next one).
    const pages = await readText(certificate);
    const starts = [ADA, BO].map((who) => {
      const at = pages.flatMap((p, page) =>
        p.items.filter((i) => i.str.includes(who.email)).map((i) => ({ page, y: Math.floor(i.y) })),
      );
      expect(at, who.email).toHaveLength(1);
      return at[0]!;
    });
    const rendered = await renderPages(certificate);
    const ink = inkBySection(rendered, starts);
    // A drawn signature plus typed initials, a typed signature: each hundreds of pixels of ink.
    expect(ink[0], `ink per section: ${ink.join(', ')}`).toBeGreaterThan(200);
    expect(ink[1], `ink per section: ${ink.join(', ')}`).toBeGreaterThan(100);
    // The typed marks are text placed in their signer's section, in the handwriting font.
    const placed = (text: string) =>
      pages.flatMap((p, page) => p.items.filter((i) => i.str === text).map((i) => ({ ...i, page })));
    const boMark = placed(BO_TYPES);
    expect(boMark).toHaveLength(1);
    const sectionOf = (at: { page: number; y: number }) =>
      starts.filter((s) => s.page < at.page || (s.page === at.page && s.y <= at.y)).length - 1;
    expect(sectionOf(boMark[0]!)).toBe(1);
    const adaMark = placed(adaInitials);
    expect(adaMark).toHaveLength(1);
    expect(sectionOf(adaMark[0]!)).toBe(0);
    expect(adaMark[0]!.fontName).toBe(boMark[0]!.fontName);

    // The audit trail, as the browser made it.
    const text = await squashedText(certificate);
    const ip = '(?:::ffff:)?127\\.0\\.0\\.1';
    const time = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z';
    for (const [who, views, boxes] of [
      [ADA, 2, ['aSig', 'aIni']],
      [BO, 1, ['bSig']],
    ] as const) {
      const agent = who.agent.replace(/[./]/g, (c) => `\\${c}`);
      expect(text.match(new RegExp(`viewed${time}${ip}${agent}`, 'g'))?.length, who.name).toBe(views);
      for (const box of boxes) expect(text).toMatch(new RegExp(`accepted\\(Terms:${box}\\)${time}${ip}${agent}`));
      expect(text).toMatch(new RegExp(`signed${time}${ip}${agent}${who.zone.replace('/', '\\/')}`));
      expect(text).toContain(squash(`Consent shown: I, ${who.name}, agree to sign Browser trail with this mark.`));
    }
    // Per signer, the certificate their signature on the document was made with (openssl's reading).
    const signatures = extractSignatures(entries[termsName!]!);
    for (const who of [ADA, BO]) {
      const hashes: string[] = [];
      for (const sig of signatures)
        hashes.push(await signerCertificateSha256(sig.der, who.name, tmp.dir).catch(() => ''));
      const sha = hashes.find((h) => h !== '');
      expect(sha, who.name).toBeDefined();
      expect(text).toContain(sha!);
    }
    // The sealing certificate: the server's signer certificate, named with its fingerprint.
    const sealPem = await readFile(path.join(served.dataDir, 'signing', 'signer.pem'));
    const seal = new X509Certificate(sealPem);
    expect(text).toContain(squash(`Sealed by`));
    expect(text).toContain(createHash('sha256').update(seal.raw).digest('hex'));
  }, 400_000);
});

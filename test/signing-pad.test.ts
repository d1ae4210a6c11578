/**
 * The signing page's pad is signature_pad, bundled into the page script: in Chromium a
 * signer draws the signature with the mouse and the initials with touch events (CDP
 * Input.dispatchTouchEvent), both in the accept-each-field dialog. The strokes the server received
 * are `{x, y}` lists in the pad's CSS pixels that follow the pointer's path, the page made no request
 * off the server and reported no error (CSP), and the sealed PDF read back has ink in both boxes. The page
 * runs at pixel density 2: the pad's bitmap is twice its displayed size, the strokes stay in CSS pixels.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketBackend } from '../src/server/graphql/index.js';
import { closeBrowser } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { tempDir, tool } from './helpers/signing.js';
import { startSigningServer, watchPage } from './helpers/signing-page.js';
import type { TestServer } from './server-setup.js';

let tmp: { dir: string; remove: () => Promise<void> };
let server: TestServer;
let backend: PacketBackend;
let browser: Browser;

beforeAll(async () => {
  tmp = await tempDir('castpress-pad-');
  ({ server, backend } = await startSigningServer(path.join(tmp.dir, 'data')));
  browser = await launchTestBrowser();
}, 120_000);
afterAll(async () => {
  await closeBrowser(browser);
  await server?.close();
  await tmp?.remove();
}, 60_000);

const SIG = { x: 72, y: 200, width: 220, height: 50 };
const INI = { x: 340, y: 200, width: 80, height: 50 };

/** Dark pixels inside a rect (points from the top-left) of page 1, rendered by poppler at 72 dpi. */
async function inkIn(pdf: Uint8Array, rect: typeof SIG): Promise<number> {
  const file = path.join(tmp.dir, 'signed.pdf');
  await writeFile(file, pdf);
  const prefix = path.join(tmp.dir, 'page');
  await tool('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-gray', '-png', '-singlefile', file, prefix]);
  const { data } = await sharp(await readFile(`${prefix}.png`))
    .extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data.filter((v) => v < 128).length;
}

type Strokes = Array<Array<{ x: number; y: number }>>;

async function waitForDialog(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  await page.locator('#adopt[open] #pad').waitFor({ state: 'visible' });
  return (await page.locator('#pad').boundingBox())!;
}

describe('signing page: signature_pad', () => {
  it('draws the signature with the mouse and the initials with touch; the server gets the strokes, the PDF shows them', async () => {
    const created = await backend.service.createEtchPacket({
      name: 'Pad test',
      isDraft: false,
      files: [
        {
          id: 'doc',
          filename: 'doc.pdf',
          title: 'Doc',
          fields: [
            { content: 'Sign and initial below.' },
            { id: 'sig', type: 'signature', pageNum: 0, rect: SIG },
            { id: 'ini', type: 'initial', pageNum: 0, rect: INI },
          ],
        },
      ],
      signers: [
        {
          id: 's1',
          name: 'Ada Signer',
          email: 'ada@example.com',
          signerType: 'embedded',
          fields: [
            { fileId: 'doc', fieldId: 'sig' },
            { fileId: 'doc', fieldId: 'ini' },
          ],
        },
      ],
    });
    const signerEid = created.documentGroup.signers[0]!.eid;
    const url = await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'pad' });
    const page = await browser.newPage({
      viewport: { width: 1200, height: 900 },
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const { requests, errors } = watchPage(page);
    let submitted: { signature?: { type: string; strokes: Strokes }; initials?: { type: string; strokes: Strokes } } =
      {};
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/submit')) submitted = r.postDataJSON() as typeof submitted;
    });
    await page.goto(url);
    await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 60_000 });
    // The pad's script is the page's own (no separate request for signature_pad).
    expect(await page.evaluate(() => document.querySelectorAll('script[src]').length)).toBe(0);

    // The signature, with the mouse: a wave from (20, 80) across the pad.
    await page.click('#next');
    await page.keyboard.press('Enter');
    let pad = await waitForDialog(page);
    // signature_pad draws in CSS pixels on a bitmap of the displayed size times the pixel density (2 here).
    await page.waitForFunction(() => {
      const c = document.getElementById('pad') as HTMLCanvasElement;
      return (
        c.offsetWidth > 0 && c.width === Math.round(c.offsetWidth * 2) && c.height === Math.round(c.offsetHeight * 2)
      );
    });
    const mouse: Array<[number, number]> = [[20, 80]];
    for (let i = 1; i <= 12; i++) mouse.push([20 + i * 22, 80 - 30 * Math.sin(i / 2)]);
    await page.mouse.move(pad.x + mouse[0]![0], pad.y + mouse[0]![1]);
    await page.mouse.down();
    for (const [x, y] of mouse.slice(1)) await page.mouse.move(pad.x + x, pad.y + y, { steps: 3 });
    await page.mouse.up();
    await page.click('#adopt-ok');

    // The initials, by touch: two strokes of touchStart / touchMove… / touchEnd through CDP.
    await page.click('#next');
    await page.keyboard.press('Enter');
    pad = await waitForDialog(page);
    const cdp = await page.context().newCDPSession(page);
    const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', x?: number, y?: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: x === undefined ? [] : [{ x: pad.x + x, y: pad.y + y!, id: 1 }],
      });
    const touchStrokes: Array<Array<[number, number]>> = [
      [
        [40, 30],
        [50, 60],
        [60, 90],
        [70, 120],
        [80, 140],
      ],
      [
        [120, 140],
        [130, 100],
        [150, 60],
        [170, 40],
        [190, 30],
      ],
    ];
    for (const stroke of touchStrokes) {
      await touch('touchStart', ...stroke[0]!);
      for (const [x, y] of stroke.slice(1)) await touch('touchMove', x, y);
      await touch('touchEnd');
    }
    await page.click('#adopt-ok');
    await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
      timeout: 60_000,
    });
    expect(errors, errors.join('\n')).toEqual([]);
    expect(requests.every((r) => r.startsWith(server.base) || r.startsWith('data:') || r.startsWith('blob:'))).toBe(
      true,
    );

    // What the server received: plain {x, y} lists in the pad's CSS pixels along the pointer's path.
    const sig = submitted.signature!;
    expect(sig.type).toBe('drawn');
    expect(sig.strokes).toHaveLength(1);
    const s0 = sig.strokes[0]!;
    expect(s0.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(s0[0]!).sort()).toEqual(['x', 'y']);
    expect(s0[0]!.x).toBeCloseTo(20, 0);
    expect(s0[0]!.y).toBeCloseTo(80, 0);
    expect(s0.at(-1)!.x).toBeCloseTo(mouse.at(-1)![0], 0);
    expect(s0.at(-1)!.y).toBeCloseTo(mouse.at(-1)![1], 0);
    const ini = submitted.initials!;
    expect(ini.type).toBe('drawn');
    expect(ini.strokes).toHaveLength(2);
    ini.strokes.forEach((stroke, i) => {
      expect(stroke[0]!.x).toBeCloseTo(touchStrokes[i]![0]![0], 0);
      expect(stroke[0]!.y).toBeCloseTo(touchStrokes[i]![0]![1], 0);
      expect(stroke.at(-1)!.x).toBeCloseTo(touchStrokes[i]!.at(-1)![0], 0);
      for (const p of stroke) {
        expect(p.x).toBeGreaterThanOrEqual(0);
        expect(p.x).toBeLessThanOrEqual(pad.width);
      }
    });

    // And the sealed PDF read back has both marks drawn in their boxes.
    const done = await backend.service.etchPacket({ eid: created.eid });
    expect(done.status).toBe('complete');
    const [doc] = await backend.service.groupDocuments(done.documentGroup.eid);
    expect(await inkIn(doc!.pdf, SIG)).toBeGreaterThan(40);
    expect(await inkIn(doc!.pdf, INI)).toBeGreaterThan(20);
    await page.close();
  }, 240_000);
});

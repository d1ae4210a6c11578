/**
 * The anchors of the HTML rows: a bare Playwright `setContent` + `page.pdf()` of the document castpress gives
 * Chromium (`buildDocument`: the request's HTML with castpress's default CSS and every stylesheet inlined), on
 * a warm page of a browser launched the same way, loading nothing.
 *
 * Rows compare like with like. castpress's default output is tagged, and a tagged print costs Chromium
 * 1.1-1.7x an untagged one of the same document (the structure tree is built and written by Chromium), so the
 * default render's anchor is `page.pdf({ tagged: true })`; a render with `tagged: false` is compared with the
 * untagged `page.pdf()`. What castpress adds on top of Chromium is the difference either way; the rows that put
 * the default (tagged) render against the untagged print are reported beside them, without a goal.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildDocument, type DocumentInput } from '../src/html/document.js';
import { BrowserPool, findChromium, renderHtmlDocument, type HtmlRenderRequest } from '../src/html/index.js';
import type { ResourceResolver } from '../src/resources/index.js';
import { interleaved, type BenchRow } from './types.js';

export interface BareChromium {
  /** setContent + page.pdf() of `doc`, tagged or not. */
  print(doc: string, tagged: boolean): Promise<Uint8Array>;
  close(): Promise<void>;
}

export async function launchBare(): Promise<BareChromium> {
  const browser: Browser = await chromium.launch({
    executablePath: findChromium(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.route('**/*', (r) => r.abort());
  const page: Page = await context.newPage();
  return {
    async print(doc, tagged) {
      await page.setContent(doc, { waitUntil: 'load' });
      return page.pdf({ preferCSSPageSize: true, printBackground: true, tagged });
    },
    close: () => browser.close(),
  };
}

/** The built document of a request, as castpress hands it to Chromium. */
export function builtDocument(request: DocumentInput, resolver?: ResourceResolver): Promise<string> {
  return buildDocument(request, { maxResourceBytes: 50_000_000, ...(resolver ? { resolver } : {}) });
}

export interface PairOptions {
  /** Timed rounds of each pair (medians), and untimed warm-up rounds. */
  runs: number;
  warmup?: number;
  goal?: string;
  resolver?: ResourceResolver;
}

/**
 * Two like-for-like rows for one document: castpress's default (tagged) render against the bare tagged print,
 * and castpress with `tagged: false` against the bare untagged print, each pair interleaved.
 */
export async function likeForLike(
  label: string,
  pool: BrowserPool,
  bare: BareChromium,
  request: HtmlRenderRequest,
  options: PairOptions,
): Promise<{ rows: BenchRow[]; pages: number; untaggedAnchorMs: number; oursMs: number }> {
  const built = await builtDocument(request, options.resolver);
  let pages = 0;
  const ours = async (tagged: boolean) => {
    pages = (await renderHtmlDocument(pool, { ...request, tagged })).pageCount;
  };
  const warmup = options.warmup ?? 1;
  const [oursMs, bareTaggedMs] = await interleaved(
    () => ours(true),
    () => bare.print(built, true),
    options.runs,
    warmup,
  );
  const [oursUntaggedMs, bareMs] = await interleaved(
    () => ours(false),
    () => bare.print(built, false),
    options.runs,
    warmup,
  );
  const goal = options.goal ? { goal: options.goal } : {};
  return {
    pages,
    oursMs,
    untaggedAnchorMs: bareMs,
    rows: [
      {
        name: `html: castpress ${label} vs the bare tagged print`,
        value: oursMs,
        unit: 'ms',
        baseline: bareTaggedMs,
        ratio: oursMs / bareTaggedMs,
        ...goal,
      },
      {
        name: `html: castpress ${label}, tagged: false, vs the bare untagged print`,
        value: oursUntaggedMs,
        unit: 'ms',
        baseline: bareMs,
        ratio: oursUntaggedMs / bareMs,
        ...goal,
      },
    ],
  };
}

/** The default (tagged) render against the untagged print: what castpress and its tagging cost together. */
export function defaultAgainstUntagged(label: string, oursMs: number, untaggedAnchorMs: number): BenchRow {
  return {
    name: `html: castpress ${label} (tagged, the default) vs the bare untagged print`,
    value: oursMs,
    unit: 'ms',
    baseline: untaggedAnchorMs,
    ratio: oursMs / untaggedAnchorMs,
  };
}

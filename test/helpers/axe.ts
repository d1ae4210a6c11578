/**
 * axe-core (the installed package, injected as a script: no request leaves the machine) run in a
 * Playwright page: the serious and critical violations of WCAG 2.0–2.2 A/AA, target size and the
 * visible-label-in-name rule included. A page with a strict CSP still runs it: Playwright adds the
 * script's text through the DevTools protocol, which the page's CSP does not govern.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The offending elements' selectors and axe's summary of what fails. */
  nodes: Array<{ target: string; summary: string }>;
}

/** The serious and critical violations axe finds in the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // addScriptTag would add an inline script the CSP refuses; evaluating the file's text is not governed by it.
    await page.evaluate(await readFile(AXE, 'utf8'));
  }
  return page.evaluate(async () => {
    type Result = {
      violations: Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: unknown[]; failureSummary?: string }>;
      }>;
    };
    const axe = Reflect.get(window, 'axe') as { run(ctx: Document, opts: object): Promise<Result> };
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      rules: { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      }));
  });
}

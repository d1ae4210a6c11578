import { renderHtml, type BrowserPool, type HtmlRenderRequest } from '../../src/html/index.js';

/** Outcome of an HTML render: 'pdf' or `Name status`. */
export async function outcome(pool: BrowserPool, request: HtmlRenderRequest): Promise<string> {
  return renderHtml(pool, request).then(
    () => 'pdf',
    (e: unknown) => `${(e as { name?: string }).name} ${(e as { status?: number }).status}`,
  );
}

export { BrowserPool } from './chromium/pool.js';
export type { BrowserPoolOptions } from './chromium/options.js';
export type { DeadlineTimer } from './chromium/deadline.js';
export { renderHtml, renderHtmlDocument, type HtmlRenderRequest, type RenderedHtml } from './render.js';
export type { HtmlPageOptions, PageCountPosition } from './css/page-css.js';
export { defaultDocumentCss, pageOptionsCss } from './css/page-css.js';
export { findChromium } from './chromium/find.js';

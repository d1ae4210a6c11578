export { BrowserPool } from './chromium/pool.js';
export type { BrowserPoolOptions } from './chromium/options.js';
export type { DeadlineTimer } from './chromium/deadline.js';
export { renderHtml, renderHtmlDocument, type HtmlRenderRequest, type RenderedHtml } from './render.js';
export type { HtmlPageOptions, PageCountPosition } from './css/page-css.js';
export {
  defaultDocumentCss,
  pageOptionsCss,
  DEFAULT_MARGIN,
  DEFAULT_PAGE_HEIGHT,
  DEFAULT_PAGE_WIDTH,
} from './css/page-css.js';
export { findChromium } from './chromium/find.js';

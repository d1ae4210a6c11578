export { BrowserPool } from './browser-pool.js';
export type { BrowserPoolOptions } from './pool-options.js';
export type { DeadlineTimer } from './pool-deadline.js';
export { renderHtml, renderHtmlDocument, type HtmlRenderRequest, type RenderedHtml } from './render.js';
export type { HtmlPageOptions, PageCountPosition } from './page-css.js';
export {
  defaultDocumentCss,
  pageOptionsCss,
  DEFAULT_MARGIN,
  DEFAULT_PAGE_HEIGHT,
  DEFAULT_PAGE_WIDTH,
} from './page-css.js';
export { findChromium } from './find-chromium.js';

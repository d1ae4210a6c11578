/**
 * The spec: the `title` of a packet file generated from HTML is also its page header. Chromium
 * has no page-header option the packet could use without changing every page's margins, so the
 * title is a heading element put first in the document's body (class `castpress-title`, so the
 * file's own CSS can style or place it). The Markdown counterpart is a heading block (request-files).
 */
import { escapeHtml } from '../../format/index.js';

/** `markup` with the title heading first in its body; unchanged when the title is blank. */
export function markupWithTitle(title: string, markup: { html: string; css?: string }): { html: string; css?: string } {
  if (title.trim() === '') return markup;
  const heading = `<h1 class="castpress-title">${escapeHtml(title)}</h1>`;
  // A whole document: after its <body> tag; a fragment: before everything.
  const body = /<body\b[^>]*>/i.exec(markup.html);
  const at = body ? body.index + body[0].length : 0;
  return { ...markup, html: markup.html.slice(0, at) + heading + markup.html.slice(at) };
}

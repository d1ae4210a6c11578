/**
 * `signaturePageOptions.description` accepts Markdown (the spec). Rendered with raw HTML
 * off (any tag is shown as text), images off (the page loads nothing from elsewhere) and
 * markdown-it's link check (no `javascript:`/`data:` links); links open in a new tab so
 * the signer does not leave the signing page.
 */
import markdownit from 'markdown-it';

const md = markdownit({ html: false, linkify: false, typographer: false }).disable(['image']);
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet('target', '_blank');
  tokens[idx]!.attrSet('rel', 'noopener noreferrer');
  return self.renderToken(tokens, idx, options);
};

export function renderDescription(markdown: string): string {
  return md.render(markdown);
}

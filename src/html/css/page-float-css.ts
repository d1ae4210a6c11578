/**
 * Page floats (Prince's `float: top | bottom`, Vivliostyle's with `float-reference: page`), renamed into a
 * form Chromium keeps: `float: top|bottom` → `--fs-page-float: top|bottom` (registered non-inherited,
 * page-css.ts); the page code (in-page/page-floats.ts) reads it. `float-reference` is dropped: every
 * page float is the page's.
 */
export function rewritePageFloats(css: string): string {
  if (!/float/i.test(css)) return css;
  return css
    .replace(
      /(?<![-\w])float\s*:\s*(top|bottom)(?![-\w])/gi,
      (_m, side: string) => `--fs-page-float: ${side.toLowerCase()}`,
    )
    .replace(/(?<![-\w])float-reference\s*:/gi, '--fs-float-reference:');
}

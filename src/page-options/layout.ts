import type { PageOptions } from '../schema/index.js';
import type { Insets } from '../geometry/index.js';
import { lengthToPoints, marginShorthandToPoints } from './units.js';

export type PageCountPosition = NonNullable<PageOptions['pageCount']>;

export interface PageLayout {
  /** Points. */
  width: number;
  height: number;
  margin: Insets;
  pageCount?: PageCountPosition;
}

/** US Letter with 50px margins: what the hosted API's clients document as the default page. */
const DEFAULT_PAGE = { width: '8.5in', height: '11in', margin: '50px' } as const;

/** Page options in points; per-side margins override the shorthand, which overrides the default. */
export function resolvePageLayout(options: PageOptions = {}): PageLayout {
  const base = marginShorthandToPoints(options.margin ?? DEFAULT_PAGE.margin);
  const side = (v: string | undefined, fallback: number) => (v === undefined ? fallback : lengthToPoints(v));
  return {
    width: lengthToPoints(options.width ?? DEFAULT_PAGE.width),
    height: lengthToPoints(options.height ?? DEFAULT_PAGE.height),
    margin: {
      top: side(options.marginTop, base.top),
      right: side(options.marginRight, base.right),
      bottom: side(options.marginBottom, base.bottom),
      left: side(options.marginLeft, base.left),
    },
    pageCount: options.pageCount,
  };
}

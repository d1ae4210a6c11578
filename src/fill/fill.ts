import { ValidationError, type FieldError } from '../errors/index.js';
import type { FontRegistry } from '../fonts/index.js';
import type { ImageCache } from '../images/index.js';
import type { ResourceResolver } from '../resources/index.js';
import type { FillRequest } from '../schema/index.js';
import type { Template } from '../template/index.js';
import { fieldsInUpdate, imagesOnly } from './interactive.js';
import { loadImages } from './normalize/images.js';
import { applyPageVariables } from './normalize/page-templates.js';
import { planFill } from './normalize/plan.js';
import type { FillCache } from './output/prepared-template.js';
import { renderPlan } from './render/index.js';

export interface FillContext {
  fonts: FontRegistry;
  cache: FillCache;
  resolver?: ResourceResolver;
  /** Largest image accepted (bytes). */
  maxImageBytes: number;
  /** The engine's prepared images. */
  images?: ImageCache;
  /** 400s found before planning (request, fonts): reported together with the value errors. */
  errors?: readonly FieldError[];
}

/** The character drawn in a checked checkbox unless the request names another (the hosted docs: "filled in with an x"). */
export const DEFAULT_CHECKBOX_CHARACTER = 'X';

/**
 * Fill: template + validated request → PDF bytes.
 * normalize (styles, values, pages) → load images → render over the template's pages → append as an update.
 */
export async function fill(template: Template, request: FillRequest, ctx: FillContext): Promise<Uint8Array> {
  const prepared = await ctx.cache.get(template.pdf).catch((e: unknown) => {
    // A 400 found earlier still comes first, as when the body was checked before the PDF was read.
    if (ctx.errors?.length) throw new ValidationError([...ctx.errors]);
    throw e;
  });
  const pageCount = prepared.pages.length;
  const outside = template.fields
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => f.pageNum >= pageCount)
    .map(({ f, i }) => ({ property: `template.fields[${i}].pageNum`, message: `The PDF has ${pageCount} page(s); field "${f.id}" is on page index ${f.pageNum}` }));

  const { plan, errors } = planFill(template, request, {
    pageCount,
    format: {
      checkboxCharacter: request.defaultCheckboxCharacter ?? DEFAULT_CHECKBOX_CHARACTER,
      checkboxSquare: request.defaultMakeCheckboxSquare ?? false,
    },
  });
  const all = [...(ctx.errors ?? []), ...outside, ...errors];
  if (all.length > 0) throw new ValidationError(all);
  applyPageVariables(plan);
  await loadImages(plan, { resolver: ctx.resolver, maxBytes: ctx.maxImageBytes, cache: ctx.images });
  const interactive = request.useInteractiveFields ?? false;
  const marks = { checkboxCharacter: request.defaultCheckboxCharacter, checkboxSquare: request.defaultMakeCheckboxSquare ?? false };
  const frames = prepared.pages.map((p) => p.frame);
  return renderPlan(prepared, template.fields, interactive ? imagesOnly(plan) : plan, { fonts: ctx.fonts, layouts: ctx.cache.layouts, shaper: ctx.cache.shaper, subsets: ctx.cache.subsets, checks: ctx.cache.appearanceChecks }, {
    flat: !interactive,
    stripAnnotations: request.stripAnnotations ?? false,
    drawDebugBoxes: request.drawDebugBoxes ?? false,
    borderColor: request.borderColor,
    title: request.title ?? template.title,
    ...(interactive ? { fields: fieldsInUpdate(plan, frames, marks, ctx.cache.layouts, ctx.cache.appearanceChecks) } : {}),
  });
}


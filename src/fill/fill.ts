import { ValidationError, type FieldError } from '../errors/index.js';
import type { EngineServices } from '../services/index.js';
import type { FillRequest } from '../schema/index.js';
import type { Template } from '../template/index.js';
import { fieldsInUpdate, imagesOnly } from './interactive.js';
import { loadImages } from './normalize/images.js';
import { applyPageVariables } from './normalize/page-templates.js';
import { planFill } from './normalize/plan.js';
import type { FillCache, PageFrame } from './output/prepared-template.js';
import type { FillPlan } from './normalize/types.js';
import { renderPlan, type RenderOptions } from './render/index.js';
import { signatureFieldsInUpdate, type FillSignatureField } from './signature-fields.js';
import { signingBlanks, type SigningBlanks } from './signing-blanks.js';

export interface FillContext {
  /** The engine's fonts, text layout, subsets, images, resolver and limits. */
  services: EngineServices;
  /** Fill's own engine-wide state: parsed templates, laid-out values, appearance checks. */
  cache: FillCache;
  /** Empty signature fields written in the same update (signature packets). */
  signatureFields?: readonly FillSignatureField[];
  /** 400s found before planning (request, fonts): reported together with the value errors. */
  errors?: readonly FieldError[];
}

/** The character drawn in a checked checkbox unless the request names another (the hosted docs: "filled in with an x"). */
const DEFAULT_CHECKBOX_CHARACTER = 'X';

/**
 * Fill: template + validated request → PDF bytes.
 * normalize (styles, values, pages) → load images → render over the template's pages → append as an update.
 */
/** A fill's PDF, with its page count and the title written into it (the request's, else the template's). */
export interface FillOutput {
  pdf: Uint8Array;
  pageCount: number;
  title?: string;
}

export async function fill(template: Template, request: FillRequest, ctx: FillContext): Promise<FillOutput> {
  const prepared = await ctx.cache.get(template.pdf).catch((e: unknown) => {
    // A 400 found earlier still comes first, as when the body was checked before the PDF was read.
    if (ctx.errors?.length) throw new ValidationError([...ctx.errors]);
    throw e;
  });
  const pageCount = prepared.pages.length;
  const outside = template.fields
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => f.pageNum >= pageCount)
    .map(({ f, i }) => ({
      property: `template.fields[${i}].pageNum`,
      message: `The PDF has ${pageCount} page(s); field "${f.id}" is on page index ${f.pageNum}`,
    }));
  const signatureFields = ctx.signatureFields ?? [];
  signatureFields.forEach((f, i) => {
    if (!Number.isInteger(f.pageNum) || f.pageNum < 0 || f.pageNum >= pageCount)
      outside.push({
        property: `signatureFields[${i}].pageNum`,
        message: `The PDF has ${pageCount} page(s); there is no page index ${f.pageNum}`,
      });
  });

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
  await loadImages(plan, {
    resolver: ctx.services.resolver,
    maxBytes: ctx.services.limits.imageBytes,
    cache: ctx.services.images,
  });
  const interactive = request.useInteractiveFields ?? false;
  const marks = {
    checkboxCharacter: request.defaultCheckboxCharacter,
    checkboxSquare: request.defaultMakeCheckboxSquare ?? false,
  };
  const frames = prepared.pages.map((p) => p.frame);
  // The template's signing boxes: undrawn in flat output, empty fields in interactive output.
  const blanks = interactive ? signingBlanks(template, request, pageCount) : { text: [], signatures: [] };
  const title = request.title ?? template.title;
  const pdf = await renderPlan(
    prepared,
    template.fields,
    interactive ? imagesOnly(plan) : plan,
    { services: ctx.services, layouts: ctx.cache.layouts, checks: ctx.cache.appearanceChecks },
    {
      flat: !interactive,
      stripAnnotations: request.stripAnnotations ?? false,
      drawDebugBoxes: request.drawDebugBoxes ?? false,
      borderColor: request.borderColor,
      title,
      ...formSteps(
        interactive
          ? fieldsInUpdate(plan, frames, marks, ctx.cache.layouts, ctx.cache.appearanceChecks, blanks.text)
          : undefined,
        signatureFields,
        blanks,
        plan,
        frames,
        !interactive,
      ),
    },
  );
  return title === undefined ? { pdf, pageCount: plan.pages.length } : { pdf, pageCount: plan.pages.length, title };
}

/**
 * The form steps of the update, in order: interactive fields, then signature fields (the
 * caller's, then the template's empty boxes), with the pages that hold widgets without values.
 */
function formSteps(
  interactive: RenderOptions['fields'],
  signatureFields: readonly FillSignatureField[],
  blanks: SigningBlanks,
  plan: FillPlan,
  frames: PageFrame[],
  flat: boolean,
): Pick<RenderOptions, 'fields' | 'widgetPages'> {
  const widgetPages = new Set([
    ...signatureFields.map((f) => f.pageNum),
    ...blanks.signatures.map((f) => f.pageNum),
    ...blanks.text.map((b) => b.templatePage),
  ]);
  if (signatureFields.length === 0 && blanks.signatures.length === 0)
    return interactive ? { fields: interactive, widgetPages } : {};
  const signatures = signatureFieldsInUpdate(signatureFields, plan, frames, flat, blanks.signatures);
  return {
    fields: (doc, pages, text) => signatures(doc, pages, interactive?.(doc, pages, text)),
    widgetPages,
  };
}

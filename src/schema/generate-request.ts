import { z } from 'zod';
import { messageFor } from './issues.js';
import { bool, fontFamily, fontSize, hexColor, outputFormat, pageOptions } from './common.js';
import { once } from './once.js';

/**
 * The generate request schemas (Markdown blocks, tables, logo, HTML), built on first use:
 * a process that only fills never builds them (nothing runs at import).
 */
export const generateSchemas = once(() => {
  const cell = z.preprocess(
    (v) => (v === null || v === undefined ? '' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v),
    z.string(),
  );

  const columnWidth = z.preprocess(
    (v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? `${v}px` : v),
    z.string().regex(/^\s*(\d+(\.\d+)?|\.\d+)\s*(px|%)\s*$/, {
      error: 'Must be pixels such as "100px" or a percentage such as "25%"',
    }),
  );

  const columnOption = z.object({
    align: z.enum(['left', 'center', 'right']).optional(),
    width: columnWidth.optional(),
  });

  /** The clients disagree on spellings: `rowGridLines`/`rowGridlines`, `center`/`middle`. */
  const table = z.preprocess(
    (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
      const t = { ...(v as Record<string, unknown>) };
      for (const [alt, canonical] of [
        ['rowGridLines', 'rowGridlines'],
        ['columnGridLines', 'columnGridlines'],
      ] as const) {
        if (alt in t && !(canonical in t)) t[canonical] = t[alt];
        delete t[alt];
      }
      return t;
    },
    z.object({
      rows: z.array(z.array(cell)),
      firstRowHeaders: bool.default(true),
      rowGridlines: bool.default(false),
      columnGridlines: bool.default(false),
      verticalAlign: z
        .preprocess((v) => (v === 'middle' ? 'center' : v), z.enum(['top', 'center', 'bottom']))
        .default('top'),
      columnOptions: z.array(columnOption.nullable().transform((o) => o ?? {})).default([]),
    }),
  );

  const markdownBlock = z
    .object({
      /** Names the block so the result reports where it landed (`RenderedPdf.blocks`). */
      id: z.string().min(1).max(200).optional(),
      heading: z.string().optional(),
      label: z.string().optional(),
      content: z.string().optional(),
      table: table.optional(),
      fontSize: fontSize.optional(),
      textColor: hexColor.optional(),
      fontFamily: fontFamily.optional(),
    })
    .refine(
      (b) => b.heading !== undefined || b.label !== undefined || b.content !== undefined || b.table !== undefined,
      {
        error: 'A block needs at least one of heading, label, content or table',
      },
    );

  /**
   * `120`, `120px`, ` 120 px `. One white space run before the optional unit and one after it: with two
   * `\s*` side by side when `px` is absent (`\s*(px)?\s*$`), a long run before a stray character was
   * retried at every split, quadratic on the request thread (80 KB took 11 s).
   */
  const LOGO_SIZE = /^\s*\d+(\.\d+)?\s*(?:px\s*)?$/;

  const logoSize = z.preprocess(
    (v) => (typeof v === 'string' && LOGO_SIZE.test(v) ? parseFloat(v) : v),
    z.number().positive().max(500),
  );

  const logoObject = z.object({
    src: z.string().min(1),
    maxWidth: logoSize.default(200),
    maxHeight: logoSize.default(200),
  });

  /** `false` (no logo), `true` (the default logo) or `{src, maxWidth, maxHeight}`. */
  const logo = z.unknown().transform((v, ctx): boolean | z.output<typeof logoObject> => {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const r = logoObject.safeParse(v, { error: (iss) => messageFor(iss) });
      if (r.success) return r.data;
      for (const iss of r.error.issues)
        ctx.issues.push({ code: 'custom', message: iss.message, input: v, path: iss.path });
      return false;
    }
    ctx.issues.push({ code: 'custom', message: 'Expected false or an object {src, maxWidth, maxHeight}', input: v });
    return false;
  });

  const common = {
    title: z.string().optional(),
    page: pageOptions().optional(),
    outputFormat: outputFormat.optional(),
    /** The document's language as a BCP 47 tag (the PDF's /Lang); HTML takes its `<html lang>` when this is absent. */
    lang: z
      .string()
      .regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/, 'Expected a language tag such as "en" or "de-CH"')
      .optional(),
    /** PDF/A conformance of the output: PDF/A-2b or PDF/A-3b (ISO 19005-2, -3, level B). */
    pdfa: z.enum(['2b', '3b']).optional(),
  };

  const markdownRequest = z.object({
    ...common,
    type: z.literal('markdown').default('markdown'),
    data: z
      .array(markdownBlock)
      .min(1)
      .superRefine((blocks, ctx) => {
        // Positions are reported by id: two blocks of one id could not be told apart.
        const seen = new Set<string>();
        blocks.forEach((b, i) => {
          if (b.id === undefined) return;
          if (seen.has(b.id))
            ctx.addIssue({ code: 'custom', message: `Duplicate block id "${b.id}"`, path: [i, 'id'] });
          seen.add(b.id);
        });
      }),
    fontSize: fontSize.optional(),
    fontFamily: fontFamily.optional(),
    textColor: hexColor.optional(),
    includeTimestamp: bool.default(true),
    logo: logo.optional(),
  });

  /** In HTML mode the Markdown-only properties are ignored, as the spec says. */
  const htmlRequest = z.object({
    ...common,
    type: z.literal('html').default('html'),
    /** Whether the PDF carries a structure tree (default true); `false` prints untagged, the fast path. */
    tagged: bool.optional(),
    data: z.object({
      html: z.string(),
      css: z.string().optional(),
    }),
  });

  const generateType = z.enum(['html', 'markdown']).optional();

  return { table, markdownBlock, logo, markdownRequest, htmlRequest, generateType };
});

type GenerateSchemas = ReturnType<typeof generateSchemas>;
export type TableBlock = z.output<GenerateSchemas['table']>;
export type MarkdownBlock = z.output<GenerateSchemas['markdownBlock']>;
export type LogoOption = z.output<GenerateSchemas['logo']>;
export type MarkdownRequest = z.output<GenerateSchemas['markdownRequest']>;
export type HtmlRequest = z.output<GenerateSchemas['htmlRequest']>;
export type GenerateRequest = MarkdownRequest | HtmlRequest;

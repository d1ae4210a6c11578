import { fieldType, type ResolvedStyle, type VerticalAlignment } from '../../fields/index.js';
import type { Styling } from '../../schema/index.js';
import type { TemplateField, TemplateStyle } from '../../template/index.js';

const DEFAULT_STYLE: Omit<ResolvedStyle, 'verticalAlignment'> = {
  fontFamily: 'Noto Sans',
  fontWeight: 'normal',
  fontSize: 10,
  textColor: '#3E3E57',
  alignment: 'left',
};

/** Level 5 for verticalAlignment depends on the field: blocks of lines start at the top, single lines sit in the middle. */
function defaultVerticalAlignment(field: TemplateField): VerticalAlignment {
  return fieldType(field.type).verticalAlignment?.(field) ?? 'middle';
}

type StyleLevel = Partial<Styling> | TemplateStyle | undefined;

const KEYS = ['fontFamily', 'fontWeight', 'fontSize', 'textColor', 'alignment', 'verticalAlignment'] as const;

/**
 * The spec's precedence, per property, highest first:
 * value object (and styled array element) > template field > request document > template document > defaults.
 */
export function resolveStyle(
  field: TemplateField,
  levels: { value?: StyleLevel; request?: StyleLevel; template?: StyleLevel },
): ResolvedStyle {
  const ordered: StyleLevel[] = [levels.value, field.style, levels.request, levels.template];
  const first = <K extends (typeof KEYS)[number]>(key: K) => ordered.find((level) => level?.[key] !== undefined)?.[key];
  return {
    fontFamily: first('fontFamily') ?? DEFAULT_STYLE.fontFamily,
    fontWeight: first('fontWeight') ?? DEFAULT_STYLE.fontWeight,
    fontSize: first('fontSize') ?? DEFAULT_STYLE.fontSize,
    textColor: first('textColor') ?? DEFAULT_STYLE.textColor,
    alignment: first('alignment') ?? DEFAULT_STYLE.alignment,
    verticalAlignment: first('verticalAlignment') ?? defaultVerticalAlignment(field),
  };
}

/** The styling keys of a request or value object, nothing else. */
export function pickStyling(source: Partial<Styling> | undefined): Partial<Styling> {
  const out: Partial<Styling> = {};
  if (!source) return out;
  for (const key of KEYS) {
    if (source[key] !== undefined) (out as Record<string, unknown>)[key] = source[key];
  }
  return out;
}

import type { TemplateField, Rect } from '../../template/index.js';
import { DEFAULT_DATE_FORMAT, DEFAULT_PATTERNS, formatDateTime, formatNumber, parseIsoDateTime, parseNumberPattern } from '../../format/index.js';
import { formatPhone, isSupportedPhoneRegion } from './format-phone.js';
import type { Box, Content, ResolvedStyle } from './types.js';

export interface FormatOptions {
  checkboxCharacter: string;
  checkboxSquare: boolean;
}

/** A value formatted for its field: strings per part and what to draw. */
export interface Formatted {
  values: Record<string, string>;
  contents: Content[];
}

export type FormatOutcome = { ok: true; result: Formatted } | { ok: false; message: string };

const ok = (values: Record<string, string>, contents: Content[]): FormatOutcome => ({ ok: true, result: { values, contents } });
const fail = (message: string): FormatOutcome => ({ ok: false, message });

/** Template rects moved by the row offset (overflow columns repeat the field's geometry down the page). */
export interface Placement {
  dx: number;
  dy: number;
}

function place(r: Rect, p: Placement): Box {
  return { x: r.x + p.dx, y: r.y + p.dy, width: r.width, height: r.height };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Text types take strings; a number is printed as sent (users send ZIP codes and amounts as numbers). */
function asText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** Numeric types take numbers, or strings holding a plain decimal number. */
function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(v)) return Number(v);
  return undefined;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`;
}

function text(box: Box, s: string, style: ResolvedStyle, multiline = false): Content {
  return { kind: 'text', box, text: s, style, multiline };
}

/**
 * Formats one value (already unwrapped from its value object) for `field`.
 * An empty string or null gives no contents: nothing is drawn.
 */
export function formatValue(field: TemplateField, raw: unknown, style: ResolvedStyle, at: Placement, options: FormatOptions): FormatOutcome {
  const box = place(field.rect, at);
  if (raw === '' || raw === null || raw === undefined) return ok({ '': '' }, []);
  switch (field.type) {
    case 'shortText':
    case 'email':
    case 'longText': {
      const s = asText(raw);
      if (s === undefined) return fail(`Expected a string, received ${describe(raw)}`);
      return ok({ '': s }, [text(box, s, style, field.type === 'longText')]);
    }
    case 'ssn':
    case 'ein': {
      const s = asText(raw);
      const digits = s?.replace(/[\s-]/g, '');
      if (!digits || !/^\d{9}$/.test(digits)) return fail(`Expected nine digits, received ${describe(raw)}`);
      const shown = field.type === 'ssn' ? `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}` : `${digits.slice(0, 2)}-${digits.slice(2)}`;
      return ok({ '': shown }, [text(box, shown, style)]);
    }
    case 'date': {
      const d = typeof raw === 'string' ? parseIsoDateTime(raw) : undefined;
      if (!d) return fail(`Expected a date YYYY-MM-DD, received ${describe(raw)}`);
      const shown = formatDateTime(d, field.format ?? DEFAULT_DATE_FORMAT);
      return ok({ '': shown }, [text(box, shown, style)]);
    }
    case 'number':
    case 'decimalNumber':
    case 'integer':
    case 'dollar':
    case 'percent':
      return formatNumeric(field, raw, box, style);
    case 'checkbox': {
      const b = raw === true || raw === 'true' ? true : raw === false || raw === 'false' ? false : undefined;
      if (b === undefined) return fail(`Expected a boolean, received ${describe(raw)}`);
      if (!b) return ok({ checked: 'false' }, []);
      return ok({ checked: 'true' }, [{ kind: 'mark', box, char: options.checkboxCharacter, square: field.square ?? options.checkboxSquare, style }]);
    }
    case 'radioGroup': {
      if (typeof raw !== 'string') return fail(`Expected the id of an option, received ${describe(raw)}`);
      const opts = field.options ?? [];
      const chosen = opts.find((o) => o.id === raw) ?? opts.find((o) => o.exportValue === raw);
      if (!chosen) return fail(`No option "${raw}"; options: ${opts.map((o) => o.id).join(', ') || '(none)'}`);
      return ok({ [chosen.id]: chosen.exportValue ?? chosen.id }, [{ kind: 'dot', box: place(chosen.rect, at), style }]);
    }
    case 'imageFile':
      // Any value that is not a usable image leaves the field empty (spec), so nothing here fails.
      if (typeof raw !== 'string') return ok({ '': '' }, []);
      return ok({ '': raw }, [{ kind: 'image', box, source: raw.trim() }]);
    case 'charList': {
      const s = asText(raw);
      if (s === undefined) return fail(`Expected a string, received ${describe(raw)}`);
      const chars = [...s];
      const cells = field.cells ?? field.maxLength ?? chars.length;
      if (chars.length > cells) return fail(`At most ${cells} characters fit (one per box), received ${chars.length}`);
      return ok({ '': s }, [{ kind: 'cells', box, chars, cells, style }]);
    }
    case 'textWrap':
      return formatTextWrap(field, raw, box, at, style);
    case 'fullName':
      return formatFullName(field, raw, box, at, style);
    case 'usAddress':
      return formatAddress(field, raw, box, at, style);
    case 'phone':
      return formatPhoneValue(raw, box, style);
  }
}

function formatNumeric(field: TemplateField, raw: unknown, box: Box, style: ResolvedStyle): FormatOutcome {
  let n = asNumber(raw);
  if (n === undefined || !Number.isFinite(n)) return fail(`Expected a number, received ${describe(raw)}`);
  const kind = field.type === 'decimalNumber' ? 'number' : (field.type as 'number' | 'integer' | 'dollar' | 'percent');
  if (kind === 'percent' && (n < 0 || n > 100)) return fail(`Expected a percentage from 0 to 100, received ${n}`);
  if (kind === 'integer') n = Math.sign(n) * Math.round(Math.abs(n));
  const pattern = (field.format && parseNumberPattern(field.format)) || parseNumberPattern(DEFAULT_PATTERNS[kind])!;
  const shown = formatNumber(n, kind === 'integer' ? { ...pattern, minDecimals: 0, maxDecimals: 0 } : pattern);
  return ok({ '': shown }, [text(box, shown, style)]);
}

function formatTextWrap(field: TemplateField, raw: unknown, box: Box, at: Placement, style: ResolvedStyle): FormatOutcome {
  let paragraphs: string[];
  if (Array.isArray(raw)) {
    const items = raw.map(asText);
    const bad = items.findIndex((s) => s === undefined);
    if (bad >= 0) return fail(`Expected strings (one per line), element ${bad} is ${describe(raw[bad])}`);
    paragraphs = (items as string[]).flatMap((s) => s.split(/\r?\n/));
  } else {
    const s = asText(raw);
    if (s === undefined) return fail(`Expected a string or an array of strings, received ${describe(raw)}`);
    paragraphs = s.split(/\r?\n/);
  }
  const boxes = field.lines?.length ? field.lines.map((r) => place(r, at)) : [box];
  if (paragraphs.length > boxes.length) return fail(`At most ${boxes.length} lines fit, received ${paragraphs.length}`);
  return ok({ '': paragraphs.join('\n') }, [{ kind: 'lines', boxes, paragraphs, style }]);
}

function stringParts(raw: unknown, keys: readonly string[], what: string): Record<string, string> | string {
  if (!isPlainObject(raw)) return `Expected an object {${keys.join(', ')}}${what}, received ${describe(raw)}`;
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = raw[k];
    if (v === undefined || v === null) continue;
    const s = asText(v);
    if (s === undefined) return `${k}: expected a string, received ${describe(v)}`;
    out[k] = s;
  }
  return out;
}

const NAME_KEYS = ['firstName', 'mi', 'lastName'] as const;

function formatFullName(field: TemplateField, raw: unknown, box: Box, at: Placement, style: ResolvedStyle): FormatOutcome {
  if (typeof raw === 'string' && !field.parts) return ok({ '': raw }, [text(box, raw, style)]);
  const parts = stringParts(raw, NAME_KEYS, '');
  if (typeof parts === 'string') return fail(parts);
  const whole = NAME_KEYS.map((k) => parts[k]?.trim()).filter((s): s is string => !!s).join(' ');
  return withParts(field, parts, whole, box, at, style, false);
}

const ADDRESS_KEYS = ['street1', 'street2', 'city', 'state', 'zip', 'country'] as const;

function formatAddress(field: TemplateField, raw: unknown, box: Box, at: Placement, style: ResolvedStyle): FormatOutcome {
  const parts = stringParts(raw, ADDRESS_KEYS, '');
  if (typeof parts === 'string') return fail(parts);
  // Spec: street2 and country only where the template has a box for them.
  const cityLine = [[parts.city, parts.state].filter(Boolean).join(', '), parts.zip].filter(Boolean).join(' ');
  const whole = [parts.street1, cityLine].filter(Boolean).join('\n');
  return withParts(field, parts, whole, box, at, style, true);
}

/** Complex types: each part in its own box when the template has parts, else the whole value in the field's box. */
function withParts(
  field: TemplateField,
  parts: Record<string, string>,
  whole: string,
  box: Box,
  at: Placement,
  style: ResolvedStyle,
  multiline: boolean,
): FormatOutcome {
  if (!field.parts || Object.keys(field.parts).length === 0) return ok({ '': whole }, whole ? [text(box, whole, style, multiline)] : []);
  const values: Record<string, string> = {};
  const contents: Content[] = [];
  for (const [name, rect] of Object.entries(field.parts)) {
    const v = parts[name];
    if (v === undefined) continue;
    values[name] = v;
    if (v !== '') contents.push(text(place(rect, at), v, style));
  }
  return ok(values, contents);
}

function formatPhoneValue(raw: unknown, box: Box, style: ResolvedStyle): FormatOutcome {
  let num: string;
  let region = 'US';
  let baseRegion = 'US';
  if (typeof raw === 'string' || typeof raw === 'number') num = String(raw);
  else if (isPlainObject(raw)) {
    if (typeof raw.num !== 'string' && typeof raw.num !== 'number') return fail(`num: expected a string, received ${describe(raw.num)}`);
    num = String(raw.num);
    for (const key of ['region', 'baseRegion'] as const) {
      const given = raw[key];
      if (given === undefined || given === null) continue;
      if (typeof given !== 'string') return fail(`${key}: expected a region code string such as "US", received ${describe(given)}`);
      if (key === 'region') region = given.toUpperCase();
      else baseRegion = given.toUpperCase();
    }
  } else return fail(`Expected a phone number string or {num, region, baseRegion}, received ${describe(raw)}`);
  if (num.trim() === '') return ok({ '': '' }, []);
  for (const [key, r] of [
    ['region', region],
    ['baseRegion', baseRegion],
  ] as const) {
    if (!isSupportedPhoneRegion(r)) return fail(`${key}: unsupported region "${r}" (supported: regions with country code +1, +44 or +52, e.g. US, CA, MX, GB)`);
  }
  const shown = formatPhone(num, region as Parameters<typeof formatPhone>[1], baseRegion as Parameters<typeof formatPhone>[2]);
  if (!shown) return fail(`"${num}" is not a phone number of region ${region}`);
  return ok({ '': shown }, [text(box, shown, style)]);
}

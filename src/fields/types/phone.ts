import { formatPhone, isSupportedPhoneRegion } from '../../format/index.js';
import type { FieldTypeModule } from '../contract.js';
import { describe, fail, isPlainObject, ok, oneText, textWidget } from '../values.js';

/** phone: {num, region?, baseRegion?} or a string (both regions US); national when the regions match, else international. */
export const phone: FieldTypeModule = {
  type: 'phone',
  format: ({ raw, box, style }) => {
    let num: string;
    let region = 'US';
    let baseRegion = 'US';
    if (typeof raw === 'string' || typeof raw === 'number') num = String(raw);
    else if (isPlainObject(raw)) {
      if (typeof raw.num !== 'string' && typeof raw.num !== 'number')
        return fail(`num: expected a string, received ${describe(raw.num)}`);
      num = String(raw.num);
      for (const key of ['region', 'baseRegion'] as const) {
        const given = raw[key];
        if (given === undefined || given === null) continue;
        if (typeof given !== 'string')
          return fail(`${key}: expected a region code string such as "US", received ${describe(given)}`);
        if (key === 'region') region = given.toUpperCase();
        else baseRegion = given.toUpperCase();
      }
    } else return fail(`Expected a phone number string or {num, region, baseRegion}, received ${describe(raw)}`);
    if (num.trim() === '') return ok({ '': '' }, []);
    for (const [key, r] of [
      ['region', region],
      ['baseRegion', baseRegion],
    ] as const) {
      if (!isSupportedPhoneRegion(r))
        return fail(
          `${key}: unsupported region "${r}" (supported: regions with country code +1, +44 or +52, e.g. US, CA, MX, GB)`,
        );
    }
    const shown = formatPhone(
      num,
      region as Parameters<typeof formatPhone>[1],
      baseRegion as Parameters<typeof formatPhone>[2],
    );
    if (!shown) return fail(`"${num}" is not a phone number of region ${region}`);
    return oneText(shown, box, style);
  },
  interactive: (input) => textWidget(input),
};

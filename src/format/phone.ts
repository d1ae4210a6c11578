import { createRequire } from 'node:module';
import type { CountryCode } from 'libphonenumber-js';

type PhoneLibrary = typeof import('libphonenumber-js');

/**
 * libphonenumber-js (its code and its metadata of every region) is required on the first
 * phone value, not imported: a process that fills no phone field (most `castpress fill`
 * runs, every render thread until then) never loads it. A plain `require`
 * resolved from this file keeps the calls synchronous; bundles leave it in node_modules.
 * Node's require cache holds the one instance, so nothing is kept here.
 */
const requireHere = createRequire(import.meta.url);
const phoneLibrary = (): PhoneLibrary => requireHere('libphonenumber-js') as PhoneLibrary;

/** The spec's regions: US, CA, MX, GB and every region sharing their country codes. */
const CALLING_CODES = new Set(['1', '44', '52']);

export function isSupportedPhoneRegion(region: string): region is CountryCode {
  const { getCountryCallingCode, isSupportedCountry } = phoneLibrary();
  if (!isSupportedCountry(region)) return false;
  return CALLING_CODES.has(getCountryCallingCode(region as CountryCode));
}

/**
 * National format when `region` equals `baseRegion` (the number as dialled at
 * home), international with the country code otherwise. Undefined when the
 * digits are not a possible number of `region`.
 */
export function formatPhone(num: string, region: CountryCode, baseRegion: CountryCode): string | undefined {
  const parsed = phoneLibrary().parsePhoneNumberFromString(num, region);
  if (!parsed || !parsed.isPossible()) return undefined;
  return region === baseRegion ? parsed.formatNational() : parsed.formatInternational();
}

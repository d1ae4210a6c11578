import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** The spec's regions: US, CA, MX, GB and every region sharing their country codes. */
const CALLING_CODES = new Set(['1', '44', '52']);

export function isSupportedPhoneRegion(region: string): region is CountryCode {
  if (!isSupportedCountry(region)) return false;
  return CALLING_CODES.has(getCountryCallingCode(region as CountryCode));
}

/**
 * National format when `region` equals `baseRegion` (the number as dialled at
 * home), international with the country code otherwise. Undefined when the
 * digits are not a possible number of `region`.
 */
export function formatPhone(num: string, region: CountryCode, baseRegion: CountryCode): string | undefined {
  const parsed = parsePhoneNumberFromString(num, region);
  if (!parsed || !parsed.isPossible()) return undefined;
  return region === baseRegion ? parsed.formatNational() : parsed.formatInternational();
}

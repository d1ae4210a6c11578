/**
 * JSON with bytes: what the store keeps of a request (uploads) and of a signer's
 * inputs (PNG signatures). Bytes become `{"$bytes": "<base64>"}` and back; a Date
 * becomes `{"$date": "<ISO>"}`.
 */
export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    const raw = this[key];
    if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString('base64') };
    if (raw instanceof Date) return { $date: raw.toISOString() };
    return v;
  });
}

export function decode(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && typeof o.$bytes === 'string') return new Uint8Array(Buffer.from(o.$bytes, 'base64'));
      if (keys.length === 1 && typeof o.$date === 'string') return new Date(o.$date);
    }
    return v;
  });
}

export interface DecodedDataUrl {
  contentType: string;
  body: Uint8Array;
}

/** Decodes an RFC 2397 `data:` URL; returns null when it is not one or is malformed. */
export function parseDataUrl(url: string): DecodedDataUrl | null {
  if (!url.startsWith('data:')) return null;
  const comma = url.indexOf(',');
  if (comma < 0) return null;
  const meta = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  const parts = meta.split(';').map((p) => p.trim());
  const isBase64 = parts.includes('base64');
  const contentType = (parts[0] && parts[0].includes('/') ? parts[0] : 'text/plain').toLowerCase();
  try {
    const body = isBase64
      ? Buffer.from(payload.replace(/\s+/g, ''), 'base64')
      : Buffer.from(decodeURIComponent(payload), 'utf8');
    return { contentType, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  } catch {
    return null;
  }
}

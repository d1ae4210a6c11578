/**
 * Embedding: framed by an organization's page (its origin is allowed by the server's frame-ancestors),
 * the editor tells that page about saves and publishes with postMessage. The message goes to the
 * parent's origin only, never to `*`: the browser's list of ancestor origins where it has one, else
 * the origin of the page that opened the frame (document.referrer).
 */

export interface EmbedMessage {
  type: 'castpress:saved' | 'castpress:published';
  eid: string;
  versionNumber?: number;
}

/** The origin to post to, or undefined when the editor is not framed or the parent's origin is unknown. */
export function parentOrigin(
  framed: boolean,
  ancestorOrigins: readonly string[],
  referrer: string,
): string | undefined {
  if (!framed) return undefined;
  const first = ancestorOrigins[0];
  if (first && first !== 'null') return first;
  try {
    const origin = new URL(referrer).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export function savedMessage(eid: string): EmbedMessage {
  return { type: 'castpress:saved', eid };
}

export function publishedMessage(eid: string, versionNumber: number): EmbedMessage {
  return { type: 'castpress:published', eid, versionNumber };
}

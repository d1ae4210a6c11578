/**
 * Files a document attaches, as WeasyPrint reads them: `<link rel="attachment" href>` and
 * `<a rel="attachment" href>`, `title` as the description, an anchor's `download` as the file name.
 * They load through the caller's resolver like any resource (data: URLs decoded, http(s) only past its
 * address check) and go into the PDF's embedded files; one that does not load fails the render, since a
 * document without the file it promises is not what was asked for.
 */
import { ValidationError } from '../errors/index.js';
import type { EmbeddedFile } from '../pdf/index.js';
import { loadResourceWithReason } from '../resources/index.js';
import type { FetchPolicy } from './document.js';
import { attr, findTags, firstTag, spliceSpans } from './css/tags.js';

/** One file the document names. */
interface AttachmentRef {
  url: string;
  /** Named by the anchor's `download`, else by the URL's last path segment. */
  name?: string;
  description?: string;
}

/** Character references in an attribute value (the ones a URL or a title holds in practice). */
function decodeAttr(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return value.replace(
    /&(?:#x([0-9a-f]{1,6})|#(\d{1,7})|(amp|lt|gt|quot|apos));/gi,
    (m, hex?: string, dec?: string, name?: string) => {
      if (name) return named[name.toLowerCase()] ?? m;
      const code = hex ? parseInt(hex, 16) : Number(dec);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    },
  );
}

function isAttachment(tag: string): boolean {
  return (attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/).includes('attachment');
}

const HREF = /\shref\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/i;

/**
 * The attachments `html` names, and `html` with each attaching anchor's `href` taken out: the file is
 * in the PDF, so the anchor is not a link out of it (and a data: URL is not copied into a link too).
 */
export function findAttachments(html: string, baseUrl: string | undefined): { html: string; refs: AttachmentRef[] } {
  if (!/attachment/i.test(html)) return { html, refs: [] };
  const baseTag = firstTag(html, 'base');
  const base = baseUrl ?? attr(baseTag ? html.slice(baseTag.start, baseTag.end) : '', 'href');
  const refs: AttachmentRef[] = [];
  const absolute = (href: string): string | undefined => {
    try {
      return base ? new URL(href, base).href : new URL(href).href;
    } catch {
      return undefined;
    }
  };
  const add = (tag: string, anchor: boolean): void => {
    const href = attr(tag, 'href');
    const url = href === undefined ? undefined : href.startsWith('data:') ? href : absolute(decodeAttr(href));
    if (!url) return;
    const title = attr(tag, 'title');
    const download = anchor ? attr(tag, 'download') : undefined;
    refs.push({
      url,
      ...(download ? { name: decodeAttr(download) } : {}),
      ...(title ? { description: decodeAttr(title) } : {}),
    });
  };
  for (const { start, end } of findTags(html, 'link')) {
    const tag = html.slice(start, end);
    if (isAttachment(tag)) add(tag, false);
  }
  const anchors = findTags(html, 'a').filter(({ start, end }) => isAttachment(html.slice(start, end)));
  for (const { start, end } of anchors) add(html.slice(start, end), true);
  const out = spliceSpans(
    html,
    anchors,
    anchors.map(({ start, end }) => html.slice(start, end).replace(HREF, '')),
  );
  return { html: out, refs };
}

const EXTENSIONS: Record<string, string> = {
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/html': '.html',
  'text/xml': '.xml',
  'application/xml': '.xml',
  'application/json': '.json',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'image/png': '.png',
  'image/jpeg': '.jpg',
};

/** The file name: the anchor's, else the URL path's last segment, else `attachment-<n>` with its type's extension. */
function fileName(ref: AttachmentRef, index: number, contentType: string | undefined): string {
  if (ref.name?.trim()) return ref.name.trim();
  if (!ref.url.startsWith('data:')) {
    try {
      const segment = new URL(ref.url).pathname.split('/').pop() ?? '';
      const decoded = decodeURIComponent(segment).trim();
      if (decoded) return decoded;
    } catch {
      /* a malformed escape: the fallback name */
    }
  }
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return `attachment-${index + 1}${EXTENSIONS[type] ?? ''}`;
}

/** A reason without the URL's host (payload data that may carry tokens), as resource warnings show it. */
function hideHost(reason: string, url: string): string {
  if (url.startsWith('data:')) return reason;
  try {
    const host = new URL(url).hostname;
    return host ? reason.split(host).join('<host>') : reason;
  } catch {
    return reason;
  }
}

/**
 * Loads every attachment through the resolver, in parallel. Any that does not load is a 400 on
 * `property` (the request value holding the HTML) naming the file and why, all of them in one error.
 */
export async function loadAttachments(
  refs: readonly AttachmentRef[],
  policy: FetchPolicy,
  property: string,
): Promise<EmbeddedFile[]> {
  const outcomes = await Promise.all(
    refs.map((ref) =>
      loadResourceWithReason(ref.url, 'attachment', policy.resolver, {
        maxBytes: policy.maxResourceBytes,
        ...(policy.lookup ? { lookup: policy.lookup } : {}),
      }),
    ),
  );
  policy.signal?.throwIfAborted();
  const files: EmbeddedFile[] = [];
  const errors: Array<{ property: string; message: string }> = [];
  outcomes.forEach((outcome, i) => {
    const ref = refs[i]!;
    if ('reason' in outcome) {
      const name = fileName(ref, i, undefined);
      errors.push({
        property,
        message: `The attachment ${name} could not be loaded: ${hideHost(outcome.reason, ref.url)}`,
      });
      return;
    }
    const { body, contentType } = outcome.resource;
    files.push({
      name: fileName(ref, i, contentType),
      bytes: body,
      ...(contentType ? { mimeType: contentType } : {}),
      ...(ref.description ? { description: ref.description } : {}),
    });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return files;
}

/**
 * Generate from Markdown blocks → PDF bytes. STUB: being written (issue #6).
 */
import type { FontRegistry } from '../fonts/index.js';
import type { ResourceResolver } from '../resources/index.js';
import type { MarkdownRequest } from '../schema/index.js';
import { RenderError } from '../errors/index.js';

export interface MarkdownContext {
  fonts: FontRegistry;
  resolver?: ResourceResolver;
  maxImageBytes: number;
  /** Time printed by `includeTimestamp`. */
  now: Date;
  /** Time zone for the timestamp (IANA name); default UTC. */
  timeZone?: string;
}

export async function generateMarkdown(_request: MarkdownRequest, _ctx: MarkdownContext): Promise<Uint8Array> {
  throw new RenderError('Markdown generation is not implemented yet', 501);
}

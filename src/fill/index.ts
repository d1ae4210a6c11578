/**
 * Fill: a template plus validated data → PDF bytes. STUB: being written (issue #4).
 */
import type { FontRegistry } from '../fonts/index.js';
import type { ResourceResolver } from '../resources/index.js';
import type { FillRequest } from '../schema/index.js';
import type { Template } from '../template/index.js';
import { RenderError } from '../errors/index.js';

/** Parsed templates, kept per engine so a fill costs what its data costs, not what the template costs. */
export class FillCache {}

export interface FillContext {
  fonts: FontRegistry;
  cache: FillCache;
  resolver?: ResourceResolver;
  /** Largest image accepted (bytes). */
  maxImageBytes: number;
}

export async function fill(_template: Template, _request: FillRequest, _ctx: FillContext): Promise<Uint8Array> {
  throw new RenderError('fill is not implemented yet', 501);
}

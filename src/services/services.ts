import type { FontRegistry } from '../fonts/index.js';
import type { ImageCache } from '../images/index.js';
import type { ResourceResolver } from '../resources/index.js';
import type { Shaper, SubsetCache, TextLayout } from '../text/index.js';
import type { Limits } from './limits.js';

/**
 * What an engine lends every renderer (fill, Markdown, packets' fills): one object instead of
 * each renderer's own context of fonts, shaper, subsets, images, resolver, limits and clock.
 * Everything in it belongs to the engine and lives until the engine is closed; a renderer keeps
 * nothing of it after its call. The resolver is the call's (it reports that call's problems).
 */
export interface EngineServices {
  fonts: FontRegistry;
  /** Measuring and layout, shared by every document (laid lines do not depend on a document). */
  text: TextLayout;
  /** Shaping results, shared (the text layout measures with the same shaper). */
  shaper: Shaper;
  /** Font subsets encoded for earlier documents, reused as bytes. */
  subsets: SubsetCache;
  /** Images prepared as PDF streams, by content. */
  images: ImageCache;
  /** Remote resources (http(s) URLs); absent: only data: URLs load. */
  resolver?: ResourceResolver;
  limits: Limits;
  /** The time renderers print (`includeTimestamp`) and write as creation dates; tests pin it. */
  clock: () => Date;
  /** Time zone of printed times (IANA name); default UTC. */
  timeZone?: string;
}

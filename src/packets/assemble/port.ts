/**
 * What packets need of an engine, and nothing more: template lookup, fill, generate, the
 * limits, and the engine's decryption of `data` strings. src/engine's `Engine` has this shape;
 * packets sit beside the engine (a floor above it) and the engine knows nothing of them.
 */
import type { BlockPosition } from '../../engine/index.js';
import type { FillSignatureField } from '../../fill/index.js';
import type { Limits } from '../../services/index.js';
import type { Template, TemplateInput } from '../../template/index.js';

export interface PacketEngine {
  readonly limits: Limits;
  /** The template an EID names, as `fill` would use it (packets read its text tags first). */
  template(eid: string, versionNumber?: number): Promise<Template>;
  /** Fills `template`; `signatureFields` are written as empty /Sig fields in the same update. */
  fill(
    template: TemplateInput | Template,
    request: unknown,
    call?: { signatureFields?: readonly FillSignatureField[] },
  ): Promise<Uint8Array>;
  /** A generate body (HTML, Markdown) as PDF bytes. */
  generate(request: unknown): Promise<Uint8Array>;
  /** `generate`, with where the Markdown blocks that carry an `id` landed (the certificate's rooms for marks). */
  generateDocument(request: unknown): Promise<{ pdf: Uint8Array; blocks?: readonly BlockPosition[] }>;
  /** Decrypts an encrypted `data` string with the engine's key; undefined when the engine holds none. */
  readonly decryptData?: ((data: string) => string) | undefined;
}

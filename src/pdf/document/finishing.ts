import { RenderError } from '../../errors/index.js';

/**
 * The finishing steps of a document, in the one order they run: form fields are written, then
 * flattened, then the watermark is stamped, and the signature (the seal) comes last, since
 * nothing may change a signed file's bytes after its signature. Fill writes its fields and
 * flattens inside its own update; these names are for the steps applied to finished bytes.
 */
export const FINISHING_ORDER = ['fields', 'flatten', 'watermark', 'sign'] as const;
export type FinishingStepName = (typeof FINISHING_ORDER)[number];

/** One step over finished bytes: an incremental update (its input is a prefix of its output). */
export interface FinishingStep {
  name: FinishingStepName;
  run: (pdf: Uint8Array) => Promise<Uint8Array>;
}

/**
 * Runs `steps` in FINISHING_ORDER (whatever order they are given in), each at most once. A step
 * that rewrites earlier bytes instead of appending an update is a bug, reported as a 500: it
 * would invalidate an earlier signature and break the kernel's promise.
 */
export async function finishDocument(pdf: Uint8Array, steps: readonly FinishingStep[]): Promise<Uint8Array> {
  const names = steps.map((s) => s.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new RenderError(`Finishing step "${twice}" given twice`, 500);
  const ordered = [...steps].sort((a, b) => FINISHING_ORDER.indexOf(a.name) - FINISHING_ORDER.indexOf(b.name));
  let bytes = pdf;
  for (const step of ordered) {
    const next = await step.run(bytes);
    if (!startsWithBytes(next, bytes))
      throw new RenderError(`Finishing step "${step.name}" rewrote the document instead of appending an update`, 500);
    bytes = next;
  }
  return bytes;
}

function startsWithBytes(out: Uint8Array, base: Uint8Array): boolean {
  return (
    out.byteLength >= base.byteLength &&
    Buffer.compare(
      Buffer.from(out.buffer, out.byteOffset, base.byteLength),
      Buffer.from(base.buffer, base.byteOffset, base.byteLength),
    ) === 0
  );
}

/** A document as the signer sees it now (the signing page shows it). */
import { ValidationError } from '../../../errors/index.js';
import { parseWith } from '../../../schema/index.js';
import { signerAccessArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { SignerError } from '../state/errors.js';
import { assertHandedOver } from './hand-over.js';
import { access } from '../core/signer-access.js';

export async function signerDocument(
  ctx: WorkflowContext,
  args: unknown,
  index: number,
): Promise<{ filename: string; pdf: Uint8Array }> {
  const { signerEid, token } = parseWith(signerAccessArgs, args);
  const { signer, token: presented } = await access(ctx, signerEid, token);
  // As the signing page (which shows "Already signed" and no document): a finished signer's link is spent.
  if (signer.status === 'completed')
    throw new SignerError(
      'unknown',
      'Already signed',
      'This signer has signed; the signing link no longer serves the documents',
      signerEid,
      410,
    );
  assertHandedOver(signer, presented.eid);
  const doc = (await ctx.store.documents(signer.packetEid)).find((d) => d.index === index);
  if (!doc) throw ValidationError.of('index', `No document ${index}`);
  return { filename: doc.filename, pdf: await ctx.blob(doc.currentHash) };
}

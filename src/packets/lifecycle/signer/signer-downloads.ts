/**
 * A signer's own download of the completed documents: the etchComplete mail's link (a download
 * token) and the signing page of a finished signer (the token they signed with). Only once the
 * packet is complete: before that the documents are not sealed, and what others signed is theirs.
 */
import { parseWith } from '../../../schema/index.js';
import { signerAccessArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { PacketStateError, SignerError } from '../state/errors.js';
import { checkDownloadToken } from '../state/tokens.js';

export interface SignerDownloads {
  packetName: string;
  groupEid: string;
  documents: Array<{ index: number; filename: string; pdf: Uint8Array }>;
}

export async function signerDownloads(ctx: WorkflowContext, args: unknown): Promise<SignerDownloads> {
  const { signerEid, token } = parseWith(signerAccessArgs, args);
  const signer = await ctx.store.signer(signerEid);
  if (!signer) throw new SignerError('notFound', 'Signer not found', `No signer "${signerEid}"`, signerEid);
  checkDownloadToken(token, await ctx.store.tokens(signerEid), signerEid, ctx.now());
  const packet = await ctx.store.packet(signer.packetEid);
  if (!packet) throw new SignerError('notFound', 'Signer not found', `No signer "${signerEid}"`, signerEid);
  if (packet.status !== 'complete')
    throw new PacketStateError('The documents can be downloaded once everyone has signed', 'token');
  const docs = await ctx.store.documents(packet.eid);
  return {
    packetName: packet.name,
    groupEid: packet.groupEid,
    documents: await Promise.all(
      docs.map(async (d) => ({ index: d.index, filename: d.filename, pdf: await ctx.blob(d.currentHash) })),
    ),
  };
}

/**
 * Arguments of the workflow operations, named as the spec's GraphQL operations
 * take them. Unknown keys are ignored (clients send extra variables); wrong types
 * are a ValidationError on the argument's name.
 */
import { z } from 'zod';
import { signerName } from '../../request/request.js';

const eid = z.string().min(1).max(200);

export const sendArgs = z.object({ eid });
export const signUrlArgs = z.object({ signerEid: eid, clientUserId: z.string().min(1).max(500) });
export const updatePacketArgs = z.object({
  eid,
  name: z.string().min(1).max(500).nullish(),
  payload: z.record(z.string(), z.unknown()).nullish(),
  mergePayloads: z.boolean().nullish(),
  waitForDocumentGroupUpdate: z.boolean().nullish(),
});
export const updateSignerArgs = z.object({
  eid,
  name: signerName.nullish(),
  email: z.email({ error: 'Must be a valid email address' }).max(320).nullish(),
  activateIfPending: z.boolean().nullish(),
});
/** Not shown by the spec: the signer whose tokens end (`signerEid`). */
export const expireArgs = z.object({ signerEid: eid });
export const packetArgs = z.object({ eid });
export const signerAccessArgs = z.object({ signerEid: eid, token: z.string().min(1).max(200) });

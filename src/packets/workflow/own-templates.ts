/**
 * Template files of a packet that name one of the organization's own templates (the dashboard's,
 * createCast's: the store's `templates`), looked up before assembly with the packet's organization,
 * so a packet by reference sees the same versions a fill by EID does and another organization's
 * EID stays unknown. The engine's template folder is asked first, as the fill route asks it: an
 * EID it holds is its template.
 */
import { NotFoundError } from '../../errors/index.js';
import { isPlainObject } from '../../schema/index.js';
import type { Template } from '../../template/index.js';
import type { AssembledPacket, OwnTemplate } from '../assembled.js';
import type { WorkflowContext } from './context.js';

/** The organization's templates the body's files name, by file index (read as the request's validation reads a file). */
export async function ownTemplates(
  ctx: WorkflowContext,
  body: unknown,
  organization: string,
): Promise<Map<number, OwnTemplate> | undefined> {
  const files = isPlainObject(body) && Array.isArray(body.files) ? (body.files as unknown[]) : [];
  const found = new Map<number, OwnTemplate>();
  await Promise.all(
    files.map(async (raw, i) => {
      if (!isPlainObject(raw) || typeof raw.castEid !== 'string') return;
      const v = raw.versionNumber;
      // A versionNumber of the wrong type is the request validation's 400.
      if (v !== undefined && !Number.isInteger(v)) return;
      if (await ctx.options.engine.hasTemplate(raw.castEid)) return;
      try {
        const template = await ctx.store.templates.find(organization, raw.castEid, v as number | undefined);
        if (template) found.set(i, { template });
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
        found.set(i, { missing: e.message });
      }
    }),
  );
  return found.size > 0 ? found : undefined;
}

/** `ctx.work.assemble` with the organization's own templates found first. */
export async function assembleFor(ctx: WorkflowContext, body: unknown, organization: string): Promise<AssembledPacket> {
  const templates = await ownTemplates(ctx, body, organization);
  return ctx.work.assemble(body, templates);
}

/** The latest published version of `eid` for the organization: the engine's folder's, else its own template's. */
export async function latestTemplate(ctx: WorkflowContext, organization: string, eid: string): Promise<Template> {
  const engine = ctx.options.engine;
  if (await engine.hasTemplate(eid)) return engine.template(eid);
  return (await ctx.store.templates.find(organization, eid)) ?? engine.template(eid);
}

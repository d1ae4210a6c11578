/**
 * The organization a workflow belongs to, as its forms and messages show it: the id the keys file
 * and `--org` use (`organizationEid`), its slug (`organizationSlug`: the settings' `slug`, else the
 * id), and the look of its forms (name, logo, colours) from its settings, when it has any.
 */
import type { OrganizationSettings } from '../../packets/index.js';
import type { WorkflowContext } from './context.js';

export interface WorkflowOrganization {
  eid: string;
  slug: string;
  /** Shown above the forms; absent for an organization without settings. */
  name?: string;
  /** An image data URL (the settings loader made it one). */
  logo?: string;
  style?: NonNullable<OrganizationSettings['style']>;
}

export function settingsOf(ctx: WorkflowContext, organization: string): OrganizationSettings | undefined {
  return ctx.options.organizations?.(organization);
}

export function workflowOrganization(ctx: WorkflowContext, organization: string): WorkflowOrganization {
  const s = settingsOf(ctx, organization);
  return {
    eid: organization,
    slug: s?.slug ?? organization,
    ...(s ? { name: s.name } : {}),
    ...(s?.logo ? { logo: s.logo } : {}),
    ...(s?.style ? { style: s.style } : {}),
  };
}

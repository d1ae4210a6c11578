/**
 * Workflows (Welds): definitions read from a folder, forges (web forms) whose submissions are checked
 * with the fill field types and stored in the packet store, the packet a run makes, the query `weld`
 * and the `weldComplete` webhook. No HTTP: src/server renders the forms.
 */
export { WorkflowService } from './service.js';
export type { WorkflowServiceOptions } from './runs/context.js';
export {
  loadWorkflows,
  parseWorkflow,
  checkOrganizations,
  organizationOf,
  WorkflowCatalogue,
} from './definition/load.js';
export type { WorkflowOrganization } from './runs/organization.js';
export { workflowDefinition } from './definition/definition.js';
export type { Workflow, WorkflowDefinition, WorkflowForm, FormField } from './definition/definition.js';
export { WorkflowDefinitionError, SubmissionConflictError } from './definition/errors.js';
export { resolveSubmission, FORM_CONTROLS } from './definition/values.js';
export { packetArguments } from './runs/make-packet.js';
export { completionPercentage } from './runs/progress.js';
export type { FormSubmission, SubmittedForm } from './forms/submit.js';
export { partyForm } from './runs/run-access.js';
export type { RunLink } from './runs/run-access.js';
export type { Confirmation } from './forms/confirmations.js';
export type { RunError } from './runs/retries.js';
export { WELD_RETRY } from './runs/retries.js';
export type { WorkflowView, WeldDataView } from './runs/query.js';
export type { SubmissionView } from './forms/api-submit.js';

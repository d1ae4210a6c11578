/**
 * Workflows (Welds): definitions read from a folder, forges (web forms) whose submissions are checked
 * with the fill field types and stored in the packet store, the packet a run makes, the query `weld`
 * and the `weldComplete` webhook. No HTTP: src/server renders the forms.
 */
export { WeldService } from './service.js';
export type { WeldServiceOptions } from './context.js';
export {
  loadWorkflows,
  parseWorkflow,
  checkDefinition,
  checkOrganizations,
  organizationOf,
  WorkflowCatalogue,
} from './load.js';
export type { WeldOrganization } from './organization.js';
export { workflowDefinition, FORM_FIELD_TYPES } from './definition.js';
export type { Workflow, WorkflowDefinition, Forge, FormField, FormFieldType, Assignee } from './definition.js';
export { WorkflowDefinitionError, SubmissionConflictError } from './errors.js';
export { resolveSubmission, MAX_VALUE_CHARS, FORM_CONTROLS } from './values.js';
export { packetArguments } from './make-packet.js';
export { completionPercentage } from './progress.js';
export type { ForgeSubmission, SubmittedForge } from './submit-forge.js';
export { partyForge } from './run-access.js';
export type { RunLink } from './run-access.js';
export type { Confirmation } from './confirmations.js';
export type { WeldError } from './retries.js';
export { WELD_RETRY } from './retries.js';
export type { WeldView, WeldDataView } from './weld-query.js';
export type { SubmissionView } from './forge-submit.js';

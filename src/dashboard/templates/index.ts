/** The template pages' API and what it stands on: uploads, authoring (detection, fields), views. */
export { templateApi } from './api.js';
export { TemplateAuthoring } from './authoring.js';
export type { AuthoringOptions, PrepareTemplatePdf, Upload, UploadOptions } from './authoring.js';
export { detectAll, formFieldProposals } from './detect.js';
export type { DetectFields, Proposal } from './detect.js';
export { readFileParts } from './upload.js';
export type { UploadLimits } from './upload.js';

export { FIELD_TYPES, SIGNING_FIELD_TYPES, templateSchema } from './model.js';
export type { FieldType, Template, TemplateField, TemplateInput, TemplateStyle } from './model.js';
export { parseTemplate } from './validate.js';
export { DirectoryTemplateStore, MemoryTemplateStore, WORKING_VERSION, LATEST_PUBLISHED } from './store.js';
export type { TemplateStore } from './store.js';
export {
  nameMatches,
  newTemplateEid,
  parseTemplateContent,
  pickPublished,
  sameContent,
  templateName,
  templateNotFound,
  templateOf,
  versionNotFound,
} from './catalogue.js';
export type {
  NewTemplate,
  OrganizationTemplates,
  PageSize,
  PublishedVersion,
  TemplateCatalogue,
  TemplateContent,
  TemplateListing,
  TemplateRecord,
} from './catalogue.js';
export { MemoryTemplateCatalogue } from './memory.js';

import { parseWith } from '../schema/index.js';
import { templateSchema, type Template } from './model.js';

/** Validates a template; errors name the property under `template`, e.g. `template.fields[3].rect.width`. */
export function parseTemplate(input: unknown): Template {
  return parseWith(templateSchema, input, ['template']);
}

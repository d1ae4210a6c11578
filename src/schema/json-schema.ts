/**
 * The request bodies as JSON Schema (2020-12), converted by zod's own `z.toJSONSchema` from the
 * schemas `parse.ts` validates with, so a description (the server's OpenAPI document) cannot drift
 * from what is accepted. `io: 'input'` describes what a caller sends (before defaults and
 * transforms). Lenient spellings handled by a `preprocess` (`"12"` for a number, `"true"` for a
 * boolean, `rowGridLines`) are accepted beyond what the schema shows: it shows the canonical form.
 * Values that zod cannot describe (a field's value, checked against its field's type by the engine)
 * are left open (`{}`).
 */
import { z } from 'zod';
import { fillData, fillOptions } from './fill-request.js';
import { generateSchemas } from './generate-request.js';

export type JsonSchema = Record<string, unknown>;

const convert = (schema: z.ZodType): JsonSchema => {
  const out: JsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  // Embedded in a document that names its own dialect.
  delete out.$schema;
  return out;
};

/** The fill body: the options, and `data` as one fill, a list of fills (one merged PDF), or an encrypted string. */
export function fillRequestJsonSchema(): JsonSchema {
  return convert(
    fillOptions.extend({
      data: z.union([
        fillData,
        z.array(fillData).min(1),
        z.string().describe('Encrypted data (the server needs --private-key)'),
      ]),
    }),
  );
}

/** The generate body: Markdown blocks or HTML (with CSS). */
export function generateRequestJsonSchema(): JsonSchema {
  const { markdownRequest, htmlRequest } = generateSchemas();
  return convert(z.union([markdownRequest, htmlRequest]));
}

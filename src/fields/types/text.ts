import type { FieldTypeModule } from '../contract.js';
import { asText, describe, fail, oneText, textWidget } from '../values.js';

/** shortText and email: one line (shrunk to fit, then clipped at the box's sides). */
function oneLine(type: 'shortText' | 'email'): FieldTypeModule {
  return {
    type,
    format: ({ raw, box, style }) => {
      const s = asText(raw);
      return s === undefined ? fail(`Expected a string, received ${describe(raw)}`) : oneText(s, box, style);
    },
    interactive: (input) => textWidget(input),
    // Any text widget nothing more specific claims (combo and list boxes too: their value is drawn as text).
    ...(type === 'shortText'
      ? {
          importAcro: (facts) =>
            facts.kind === 'text' || facts.kind === 'combo' || facts.kind === 'listbox' ? {} : undefined,
        }
      : {}),
  };
}

export const shortText = oneLine('shortText');
export const email = oneLine('email');

/** longText: wrapped at the box width, starting at the top; a multiline text field when interactive. */
export const longText: FieldTypeModule = {
  type: 'longText',
  format: ({ raw, box, style }) => {
    const s = asText(raw);
    return s === undefined ? fail(`Expected a string, received ${describe(raw)}`) : oneText(s, box, style, true);
  },
  verticalAlignment: () => 'top',
  interactive: (input) => textWidget(input, true),
  importAcro: (facts) => (facts.kind === 'text' && facts.multiline ? {} : undefined),
};

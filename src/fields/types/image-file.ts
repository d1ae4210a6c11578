import type { FieldTypeModule } from '../contract.js';
import { ok } from '../values.js';

/** imageFile: a data: URL or an http(s) URL through the resolver, fitted in the box; always drawn into the page. */
export const imageFile: FieldTypeModule = {
  type: 'imageFile',
  // Any value that is not a usable image leaves the field empty (spec), so nothing here fails.
  format: ({ raw, box }) =>
    typeof raw !== 'string' ? ok({ '': '' }, []) : ok({ '': raw }, [{ kind: 'image', box, source: raw.trim() }]),
  // An image field: a push button over the box (spec: an empty value still shows the interactive field); the image itself is drawn into the page.
  interactive: (input) => [
    { ...input.common, name: input.name, kind: 'image', rect: input.at(input.filled.field.rect), value: '' },
  ],
};

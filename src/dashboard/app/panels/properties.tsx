/**
 * The properties of the selected field (every property the engine reads for its type), of several
 * selected fields (how many, and what to do with them), or of the document when none is selected.
 * The server's messages show under the inputs they name.
 */
import { FIELD_KINDS, isSigningType } from '../model/field-kinds.js';
import { splitColumns } from '../model/geometry.js';
import { problemAt } from '../model/server-errors.js';
import type { FieldType, TemplateField } from '../model/types.js';
import { TypeMenu } from '../ui/type-menu.js';
import { editField, present, sealRun, selectedFields, type PanelProps } from '../model/store.js';
import { CheckInput, CommitInput, SelectInput, TextInput } from './inputs.js';
import { RectInputs } from './rect-inputs.js';
import { StyleForm } from './style-form.js';
import { TypeOptions } from './type-options.js';
import { DocumentProperties } from './document.js';

export function Properties(p: PanelProps) {
  const chosen = selectedFields(p.state);
  if (chosen.length === 0) return <DocumentProperties {...p} />;
  if (chosen.length > 1)
    return (
      <section class="panel" aria-labelledby="props-heading">
        <h2 id="props-heading">{chosen.length} fields selected</h2>
        <p>{chosen.map((f) => f.alias ?? f.id).join(', ')}</p>
        <p class="hint">
          Move them together with the mouse or the arrow keys; align them with the toolbar’s Align buttons (the first
          selected, {chosen[0].alias ?? chosen[0].id}, gives the size for “Same width” and “Same height”).
        </p>
      </section>
    );
  // Keyed by the field: each field's inputs start from its own values (and their local messages go).
  return <FieldProperties key={chosen[0].id} field={chosen[0]} {...p} />;
}

/** A radio group needs options to choose from: a new one gets two, side by side in its box. */
function typePatch(f: TemplateField, type: FieldType): Partial<TemplateField> {
  if (type !== 'radioGroup' || f.options?.length) return { type };
  const [a, b] = splitColumns(f.rect, [1, 1]);
  return {
    type,
    options: [
      { id: 'option1', rect: a },
      { id: 'option2', rect: b },
    ],
  };
}

function FieldProperties({ field: f, update, pages, problems, state }: PanelProps & { field: TemplateField }) {
  const edit = (patch: Partial<TemplateField>, input: string) =>
    update((s) => editField(s, f.id, patch, `${f.id}:${input}`));
  const seal = () => update(sealRun);
  const errorAt = (input: string) => problemAt(problems, f.id, input);
  const kind = FIELD_KINDS[f.type];
  const signing = isSigningType(f.type);
  const ids = new Set(present(state).fields.map((x) => x.id));
  const page = pages[f.pageNum] ?? pages[0];

  const body = (
    <>
      <CommitInput
        id="prop-id"
        label="Id"
        hint="Unique in the template; the data key when there is no alias"
        value={f.id}
        error={errorAt('id')}
        check={(v) => (!v.trim() ? 'A field needs an id' : ids.has(v) ? 'Another field has this id' : undefined)}
        onCommit={(v) => edit({ id: v }, 'id')}
      />
      {!signing && (
        <TextInput
          id="prop-alias"
          label="Alias (data key)"
          hint="Fields sharing an alias take one value"
          value={f.alias}
          error={errorAt('alias')}
          onInput={(v) => edit({ alias: v || undefined }, 'alias')}
          onBlur={seal}
        />
      )}
      <SelectInput
        id="prop-type"
        label="Type"
        value={f.type}
        error={errorAt('type')}
        onValue={(v) => edit(typePatch(f, v as FieldType), 'type')}
      >
        <TypeMenu />
      </SelectInput>
      {pages.length > 1 && (
        <SelectInput
          id="prop-page"
          label="Page"
          value={String(f.pageNum)}
          error={errorAt('pageNum')}
          onValue={(v) => edit({ pageNum: Number(v) }, 'pageNum')}
        >
          {pages.map((_, i) => (
            <option key={i} value={i}>
              {i + 1}
            </option>
          ))}
        </SelectInput>
      )}
      <RectInputs
        idPrefix="prop-rect"
        name="rect"
        legend="Position and size (points from the page’s top-left)"
        rect={f.rect}
        errorAt={errorAt}
        onBlur={seal}
        onRect={(rect, input) => edit({ rect }, input)}
      />
      {kind.sections.includes('format') && (
        <TextInput
          id="prop-format"
          label="Format"
          hint={kind.formatHint}
          value={f.format}
          error={errorAt('format')}
          onInput={(v) => edit({ format: v || undefined }, 'format')}
          onBlur={seal}
        />
      )}
      <TypeOptions field={f} page={page} edit={edit} errorAt={errorAt} seal={seal} />
      {!signing && (
        <>
          <TextInput
            id="prop-name"
            label="Interactive field name"
            hint="For fills with useInteractiveFields; default from the alias or id"
            value={f.name}
            error={errorAt('name')}
            onInput={(v) => edit({ name: v || undefined }, 'name')}
            onBlur={seal}
          />
          <CheckInput
            id="prop-readonly"
            label="Read-only when interactive"
            checked={f.readOnly ?? false}
            error={errorAt('readOnly')}
            onValue={(v) => edit({ readOnly: v || undefined }, 'readOnly')}
          />
        </>
      )}
      {kind.sections.includes('style') && (
        <StyleForm
          idPrefix="prop-style"
          legend="This field’s style"
          inheritFrom="document"
          style={f.style}
          errorAt={errorAt}
          onBlur={seal}
          onStyle={(style, input) => edit({ style }, input)}
        />
      )}
    </>
  );
  // All of the field's problems at the top too (an error summary): some name inputs inside closed details.
  const rest = problems?.fields.filter((x) => x.fieldId === f.id) ?? [];
  return (
    <section class="panel properties" aria-labelledby="props-heading">
      <h2 id="props-heading">
        {kind.label} field {f.alias ?? f.id}
      </h2>
      {signing && (
        <p class="hint">A signer fills this field when a packet is made from the template; fills leave it empty.</p>
      )}
      {f.acroFieldName && <p class="hint">Fills the PDF’s own form field {f.acroFieldName}.</p>}
      {rest.length > 0 && (
        <ul class="error-list" aria-label="Problems to fix">
          {rest.map((x, i) => (
            <li key={i}>{x.input ? `${x.input}: ${x.message}` : x.message}</li>
          ))}
        </ul>
      )}
      {body}
    </section>
  );
}

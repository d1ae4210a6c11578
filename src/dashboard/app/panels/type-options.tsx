/**
 * The options one field type reads (src/fields/types): boxes per letter, line boxes, radio options,
 * a name's or an address's parts, an overflow column's rows, the checkbox's square, the rotation.
 */
import { FIELD_KINDS, PART_SHARES, type Section } from '../model/field-kinds.js';
import { clampToPage, splitColumns, splitRows } from '../model/geometry.js';
import { freeId } from '../model/ids.js';
import type { PageSize, Rect, TemplateField } from '../model/types.js';
import { CheckInput, CommitInput, NumberInput, SelectInput, TextInput } from './inputs.js';
import { RectInputs } from './rect-inputs.js';

export interface OptionsProps {
  field: TemplateField;
  page: PageSize;
  edit(patch: Partial<TemplateField>, input: string): void;
  errorAt(input: string): string | undefined;
  seal(): void;
}

/** Rects stacked under `r`, each its size: the rows of an overflow column, the first one `r` itself. */
export function stackedRows(r: Rect, n: number): Rect[] {
  return Array.from({ length: n }, (_, i) => ({ ...r, y: r.y + i * r.height }));
}

/** A name's parts in one row; an address's in three (street, second street, city/state/zip). */
export function layoutParts(type: TemplateField['type'], r: Rect): Record<string, Rect> {
  if (type === 'fullName') {
    const [firstName, mi, lastName] = splitColumns(
      r,
      ['firstName', 'mi', 'lastName'].map((k) => PART_SHARES[k]),
    );
    return { firstName, mi, lastName };
  }
  const [street1, street2, line3] = splitRows(r, 3);
  const [city, state, zip] = splitColumns(
    line3,
    ['city', 'state', 'zip'].map((k) => PART_SHARES[k]),
  );
  return { street1, street2, city, state, zip };
}

export function TypeOptions(p: OptionsProps) {
  const has = (s: Section) => FIELD_KINDS[p.field.type].sections.includes(s);
  return (
    <>
      {has('cells') && <Cells {...p} />}
      {has('square') && (
        <CheckInput
          id="prop-square"
          label="Draw the check mark in a square"
          checked={p.field.square ?? false}
          error={p.errorAt('square')}
          onValue={(v) => p.edit({ square: v || undefined }, 'square')}
        />
      )}
      {has('options') && <Options {...p} />}
      {has('lines') && <Boxes {...p} which="lines" />}
      {has('parts') && <Parts {...p} />}
      {has('rows') && <Boxes {...p} which="rows" />}
      {has('rotation') && (
        <SelectInput
          id="prop-rotation"
          label="Rotation (counterclockwise)"
          value={String(p.field.rotation ?? 0)}
          error={p.errorAt('rotation')}
          onValue={(v) => p.edit({ rotation: v === '0' ? undefined : (Number(v) as 90 | 180 | 270) }, 'rotation')}
        >
          <option value="0">None</option>
          <option value="90">90°</option>
          <option value="180">180°</option>
          <option value="270">270°</option>
        </SelectInput>
      )}
    </>
  );
}

function Cells(p: OptionsProps) {
  return (
    <>
      <NumberInput
        id="prop-cells"
        label="Boxes (one letter each)"
        hint="The field is split into this many equal boxes"
        value={p.field.cells}
        min={1}
        integer
        optional
        error={p.errorAt('cells')}
        onValue={(v) => p.edit({ cells: v }, 'cells')}
        onBlur={p.seal}
      />
      <NumberInput
        id="prop-max-length"
        label="Most letters (when boxes are not set)"
        value={p.field.maxLength}
        min={1}
        integer
        optional
        error={p.errorAt('maxLength')}
        onValue={(v) => p.edit({ maxLength: v }, 'maxLength')}
        onBlur={p.seal}
      />
    </>
  );
}

/** textWrap's line boxes or an overflow column's rows: a count that lays them out, then each one exactly. */
function Boxes(p: OptionsProps & { which: 'lines' | 'rows' }) {
  const boxes = p.field[p.which] ?? [];
  const lines = p.which === 'lines';
  const layout = (n: number | undefined) =>
    p.edit({ [p.which]: n ? (lines ? splitRows(p.field.rect, n) : stackedRows(p.field.rect, n)) : undefined }, p.which);
  return (
    <fieldset class="boxes">
      <legend>{lines ? 'Line boxes' : 'Rows (an overflow column)'}</legend>
      <NumberInput
        id={`prop-${p.which}-count`}
        label={lines ? 'Number of line boxes' : 'Number of rows'}
        hint={
          lines
            ? 'Each line of the value goes in the next box; none: one box, the field'
            : 'An array value fills the rows and repeats the page when longer'
        }
        value={boxes.length || undefined}
        min={1}
        max={200}
        integer
        optional
        error={p.errorAt(p.which)}
        onValue={layout}
        onBlur={p.seal}
      />
      {boxes.map((r, i) => (
        <details key={i}>
          <summary>{`${lines ? 'Line' : 'Row'} ${i + 1}`}</summary>
          <RectInputs
            idPrefix={`prop-${p.which}-${i}`}
            name={`${p.which}[${i}]`}
            legend={`${lines ? 'Line' : 'Row'} ${i + 1} (points)`}
            rect={r}
            errorAt={p.errorAt}
            onBlur={p.seal}
            onRect={(next, input) => p.edit({ [p.which]: boxes.map((b, j) => (j === i ? next : b)) }, input)}
          />
        </details>
      ))}
    </fieldset>
  );
}

function Options(p: OptionsProps) {
  const options = p.field.options ?? [];
  const add = () => {
    const last = options[options.length - 1]?.rect ?? { ...p.field.rect, width: 12, height: 12 };
    const rect = clampToPage({ ...last, x: last.x + last.width + 8 }, p.page);
    const id = freeId('option', new Set(options.map((o) => o.id)));
    p.edit({ options: [...options, { id, rect }] }, 'options');
  };
  const set = (i: number, patch: Partial<(typeof options)[number]>, input: string) =>
    p.edit({ options: options.map((o, j) => (j === i ? { ...o, ...patch } : o)) }, input);
  return (
    <fieldset class="boxes">
      <legend>Options (the value names one by its id)</legend>
      {options.length === 0 && <p class="hint">No options yet: a fill has nothing to choose.</p>}
      {options.map((o, i) => (
        <details key={i} open={options.length <= 3}>
          <summary>{`Option ${o.id}`}</summary>
          <CommitInput
            id={`prop-option-${i}-id`}
            label="Id"
            value={o.id}
            error={p.errorAt(`options[${i}].id`)}
            check={(v) =>
              !v
                ? 'An option needs an id'
                : options.some((x, j) => j !== i && x.id === v)
                  ? 'Another option has this id'
                  : undefined
            }
            onCommit={(v) => set(i, { id: v }, `options[${i}].id`)}
          />
          <TextInput
            id={`prop-option-${i}-export`}
            label="Export value (interactive PDFs)"
            value={o.exportValue}
            error={p.errorAt(`options[${i}].exportValue`)}
            onInput={(v) => set(i, { exportValue: v || undefined }, `options[${i}].exportValue`)}
            onBlur={p.seal}
          />
          <RectInputs
            idPrefix={`prop-option-${i}`}
            name={`options[${i}].rect`}
            legend={`Box of ${o.id} (points)`}
            rect={o.rect}
            errorAt={p.errorAt}
            onBlur={p.seal}
            onRect={(rect, input) => set(i, { rect }, input)}
          />
          <button
            type="button"
            class="danger"
            onClick={() => p.edit({ options: options.filter((_, j) => j !== i) }, 'options')}
          >
            Remove option {o.id}
          </button>
        </details>
      ))}
      <button type="button" onClick={add}>
        Add option
      </button>
    </fieldset>
  );
}

function Parts(p: OptionsProps) {
  const parts = p.field.parts;
  const names = FIELD_KINDS[p.field.type].parts ?? [];
  return (
    <fieldset class="boxes">
      <legend>Parts</legend>
      <CheckInput
        id="prop-parts"
        label="Place each part in its own box"
        checked={!!parts}
        error={p.errorAt('parts')}
        onValue={(on) => p.edit({ parts: on ? layoutParts(p.field.type, p.field.rect) : undefined }, 'parts')}
      />
      {parts &&
        names.map((name) => {
          const r = parts[name];
          return (
            <details key={name}>
              <summary>{r ? name : `${name} (no box)`}</summary>
              <CheckInput
                id={`prop-part-${name}`}
                label={`Give ${name} a box`}
                checked={!!r}
                onValue={(on) => {
                  const next = { ...parts };
                  if (on) next[name] = { ...p.field.rect, height: Math.min(p.field.rect.height, 20) };
                  else delete next[name];
                  p.edit({ parts: next }, 'parts');
                }}
              />
              {r && (
                <RectInputs
                  idPrefix={`prop-part-${name}`}
                  name={`parts.${name}`}
                  legend={`Box of ${name} (points)`}
                  rect={r}
                  errorAt={p.errorAt}
                  onBlur={p.seal}
                  onRect={(rect, input) => p.edit({ parts: { ...parts, [name]: rect } }, input)}
                />
              )}
            </details>
          );
        })}
    </fieldset>
  );
}

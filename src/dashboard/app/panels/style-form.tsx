/**
 * Styling at one level of the precedence (a field's own, or the document's): every property may be
 * left to the level below ("inherit"), which removes it from the template.
 */
import { pruneStyle } from '../model/editing.js';
import type { FieldStyle } from '../model/types.js';
import { NumberInput, SelectInput, TextInput } from './inputs.js';

interface StyleFormProps {
  idPrefix: string;
  /** The path of `style` in the server's errors (`style` for the document, `style` under a field). */
  legend: string;
  style: FieldStyle | undefined;
  /** `input` names the property (`style.fontSize`), for undo runs. */
  onStyle(style: FieldStyle | undefined, input: string): void;
  errorAt(input: string): string | undefined;
  onBlur?(): void;
  inheritFrom: string;
}

const FONT_HINT = 'Courier, Helvetica, Times New Roman or a catalogue font, spelt exactly (Roboto Slab)';

export function StyleForm(p: StyleFormProps) {
  const s = p.style ?? {};
  const set = <K extends keyof FieldStyle>(key: K, value: FieldStyle[K] | undefined) =>
    p.onStyle(pruneStyle({ ...s, [key]: value }), `style.${key}`);
  const inherit = <option value="">{`Inherit (${p.inheritFrom})`}</option>;
  return (
    <fieldset class="style-form">
      <legend>{p.legend}</legend>
      <TextInput
        id={`${p.idPrefix}-font`}
        label="Font"
        hint={FONT_HINT}
        value={s.fontFamily}
        error={p.errorAt('style.fontFamily')}
        onInput={(v) => set('fontFamily', v || undefined)}
        onBlur={p.onBlur}
      />
      <NumberInput
        id={`${p.idPrefix}-size`}
        label="Font size (5 to 30)"
        value={s.fontSize}
        min={5}
        max={30}
        integer
        optional
        error={p.errorAt('style.fontSize')}
        onValue={(v) => set('fontSize', v)}
        onBlur={p.onBlur}
      />
      <TextInput
        id={`${p.idPrefix}-colour`}
        label="Text colour"
        hint="Six hex digits, such as #3E3E57"
        value={s.textColor}
        error={p.errorAt('style.textColor')}
        onInput={(v) => set('textColor', v || undefined)}
        onBlur={p.onBlur}
      />
      <SelectInput
        id={`${p.idPrefix}-align`}
        label="Alignment"
        value={s.alignment ?? ''}
        error={p.errorAt('style.alignment')}
        onValue={(v) => set('alignment', (v || undefined) as FieldStyle['alignment'])}
      >
        {inherit}
        <option value="left">Left</option>
        <option value="center">Centre</option>
        <option value="right">Right</option>
      </SelectInput>
      <SelectInput
        id={`${p.idPrefix}-valign`}
        label="Vertical alignment"
        value={s.verticalAlignment ?? ''}
        error={p.errorAt('style.verticalAlignment')}
        onValue={(v) => set('verticalAlignment', (v || undefined) as FieldStyle['verticalAlignment'])}
      >
        {inherit}
        <option value="top">Top</option>
        <option value="middle">Middle</option>
        <option value="bottom">Bottom</option>
      </SelectInput>
      <SelectInput
        id={`${p.idPrefix}-weight`}
        label="Weight"
        value={s.fontWeight ?? ''}
        error={p.errorAt('style.fontWeight')}
        onValue={(v) => set('fontWeight', (v || undefined) as FieldStyle['fontWeight'])}
      >
        {inherit}
        <option value="normal">Normal</option>
        <option value="bold">Bold</option>
        <option value="italic">Italic</option>
        <option value="boldItalic">Bold italic</option>
      </SelectInput>
    </fieldset>
  );
}

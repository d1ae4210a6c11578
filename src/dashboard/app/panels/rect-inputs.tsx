/** A rect as four numbers in points: the keyboard's way to place and size exactly what the mouse drags. */
import { MIN_SIDE } from '../model/geometry.js';
import type { Rect } from '../model/types.js';
import { NumberInput } from './inputs.js';

interface RectInputsProps {
  /** Prefix of the inputs' DOM ids. */
  idPrefix: string;
  /** The property's path, as the server's errors name it (`rect`, `options[1].rect`). */
  name: string;
  legend: string;
  rect: Rect;
  onRect(r: Rect, input: string): void;
  errorAt(input: string): string | undefined;
  onBlur?(): void;
}

const SIDES = [
  ['x', 'X (from the left)'],
  ['y', 'Y (from the top)'],
  ['width', 'Width'],
  ['height', 'Height'],
] as const;

export function RectInputs(p: RectInputsProps) {
  return (
    <fieldset class="rect-inputs">
      <legend>{p.legend}</legend>
      {SIDES.map(([key, label]) => (
        <NumberInput
          key={key}
          id={`${p.idPrefix}-${key}`}
          label={label}
          value={p.rect[key]}
          min={key === 'width' || key === 'height' ? MIN_SIDE : 0}
          error={p.errorAt(`${p.name}.${key}`)}
          onValue={(v) => v !== undefined && p.onRect({ ...p.rect, [key]: v }, `${p.name}.${key}`)}
          onBlur={p.onBlur}
        />
      ))}
    </fieldset>
  );
}

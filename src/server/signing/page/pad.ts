/** The drawing pad (pointer events give the strokes the service takes) and its typed alternative. */
import type { StrokePoint } from './contract.js';
import { $ } from './dom.js';

export interface Pad {
  canvas: HTMLCanvasElement;
  /** The typed field is shown instead of the pad. */
  typedMode: boolean;
  clear(): void;
  /** The strokes drawn so far (dots left out), copied. */
  drawn(): StrokePoint[][];
  /** Shows the pad or the typed field, as typedMode says. */
  showMode(): void;
}

export function setUpPad(typed: boolean): Pad {
  const canvas = $<HTMLCanvasElement>('pad');
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  const strokes: StrokePoint[][] = [];
  let current: StrokePoint[] | null = null;
  const at = (e: PointerEvent): StrokePoint => {
    const r = canvas.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * canvas.width) / r.width, y: ((e.clientY - r.top) * canvas.height) / r.height };
  };
  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    current = [at(e)];
    strokes.push(current);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!current) return;
    const p = at(e),
      q = current[current.length - 1] as StrokePoint;
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(q.x, q.y);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    current.push(p);
  });
  const end = () => {
    current = null;
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  const pad: Pad = {
    canvas,
    typedMode: typed,
    clear() {
      strokes.length = 0;
      ctx.clearRect(0, 0, canvas.width, canvas.height);
    },
    drawn: () => strokes.filter((s) => s.length > 1).map((s) => s.slice()),
    showMode() {
      $('draw').hidden = pad.typedMode;
      $('type').hidden = !pad.typedMode;
    },
  };
  $('clear').addEventListener('click', () => pad.clear());
  $('use-typed').addEventListener('click', () => {
    pad.typedMode = true;
    pad.showMode();
    $('typed').focus();
  });
  return pad;
}

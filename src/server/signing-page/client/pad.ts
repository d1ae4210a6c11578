/**
 * The drawing pad: signature_pad (MIT, bundled into the page script by
 * scripts/generate-page-code.mjs, so it runs under the page's CSP with no other request) draws
 * smooth, velocity-weighted strokes from mouse, pen and touch, beside the typed alternative.
 * The service takes strokes as lists of `{x, y}` (CSS pixels of the pad, y down): the pad's
 * point groups are converted here, pressure and time left out, so the server validates them as before.
 */
import SignaturePad from 'signature_pad';
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
  /** Calls `listener` when a stroke ends (something was drawn). */
  onStroke(listener: () => void): void;
}

/** A tenth of a CSS pixel is finer than any pen: shorter numbers in the request. */
const round = (v: number) => Math.round(v * 10) / 10;

export function setUpPad(typed: boolean): Pad {
  const canvas = $<HTMLCanvasElement>('pad');
  const signaturePad = new SignaturePad(canvas, { minWidth: 0.8, maxWidth: 2.8, penColor: '#000' });
  // signature_pad draws in CSS pixels: the canvas's bitmap follows its displayed size (sharp on
  // high-density screens). The pad is hidden in a closed dialog at first, so this runs when it gets a
  // size; what was drawn is kept across a resize (its points are CSS pixels already).
  const fit = () => {
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    const width = canvas.offsetWidth,
      height = canvas.offsetHeight;
    if (!width || !height) return;
    if (canvas.width === Math.round(width * ratio) && canvas.height === Math.round(height * ratio)) return;
    const data = signaturePad.toData();
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    (canvas.getContext('2d') as CanvasRenderingContext2D).scale(ratio, ratio);
    signaturePad.fromData(data);
  };
  new ResizeObserver(fit).observe(canvas);
  fit();

  const pad: Pad = {
    canvas,
    typedMode: typed,
    clear() {
      signaturePad.clear();
    },
    drawn: () =>
      signaturePad
        .toData()
        .map((group) => group.points.map((p): StrokePoint => ({ x: round(p.x), y: round(p.y) })))
        .filter((stroke) => stroke.length > 1),
    showMode() {
      $('draw').hidden = pad.typedMode;
      $('type').hidden = !pad.typedMode;
    },
    onStroke(listener) {
      signaturePad.addEventListener('endStroke', listener);
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

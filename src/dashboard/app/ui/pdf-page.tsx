/** One page of a PDF drawn by pdf.js at a zoom, as an image with a name (the fields over it are their own elements). */
import { useEffect, useRef, useState } from 'preact/hooks';
import { drawPage, openPdf, type PdfDocument } from '../io/pdf.js';

export function PdfPage(props: {
  doc: PdfDocument;
  index: number;
  zoom: number;
  width: number;
  height: number;
  label: string;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let stop = false;
    if (ref.current)
      drawPage(props.doc, props.index, ref.current, props.zoom, () => stop).catch(() => !stop && setFailed(true));
    return () => {
      stop = true;
    };
  }, [props.doc, props.index, props.zoom]);
  return (
    <canvas
      ref={ref}
      class="pdf-page"
      role="img"
      aria-label={failed ? `${props.label} (could not be drawn)` : props.label}
      style={{ width: `${props.width * props.zoom}px`, height: `${props.height * props.zoom}px` }}
    />
  );
}

/** PDF bytes opened by pdf.js (undefined while opening), closed again when the bytes change or the screen goes. */
export function usePdf(bytes: Uint8Array | undefined): { doc?: PdfDocument; error?: string } {
  const [state, setState] = useState<{ doc?: PdfDocument; error?: string }>({});
  useEffect(() => {
    if (!bytes) return;
    let doc: PdfDocument | undefined;
    let gone = false;
    openPdf(bytes).then(
      (d) => {
        doc = d;
        if (gone) void d.destroy();
        else setState({ doc: d });
      },
      (e: unknown) => !gone && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      gone = true;
      void doc?.destroy();
    };
  }, [bytes]);
  return state;
}

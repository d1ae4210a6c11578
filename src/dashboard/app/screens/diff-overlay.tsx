/** The diff drawn over the pages: each box in its status's colour, line style and mark, as the legend says. */
import { DIFF_LEGEND, legendOf, type DiffBox } from '../model/diff-view.js';
import { toScreen } from '../model/geometry.js';
import type { PageSize } from '../model/types.js';
import type { PdfDocument } from '../io/pdf.js';
import { PdfPage } from '../ui/pdf-page.js';

const ZOOM = 0.75;

export function Legend() {
  return (
    <>
      <h3 id="legend-heading">Legend</h3>
      <dl class="legend">
        {DIFF_LEGEND.map((e) => (
          <div key={e.status}>
            <dt>
              <span class={`swatch diff-${e.status}`} aria-hidden="true">
                {e.mark}
              </span>
              {e.word}
            </dt>
            <dd>{e.drawn}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

export function DiffPages({ doc, pages, boxes }: { doc: PdfDocument; pages: readonly PageSize[]; boxes: DiffBox[] }) {
  return (
    <div class="diff-pages" tabIndex={0} aria-label="Pages with the differences drawn">
      {pages.map((size, i) => (
        <figure key={i} class="page-frame">
          <figcaption>Page {i + 1}</figcaption>
          <div class="page" style={{ width: `${size.width * ZOOM}px`, height: `${size.height * ZOOM}px` }}>
            <PdfPage doc={doc} index={i} zoom={ZOOM} width={size.width} height={size.height} label={`Page ${i + 1}`} />
            {boxes
              .filter((b) => b.pageNum === i)
              .map((b) => {
                const r = toScreen(b.rect, ZOOM);
                return (
                  <span
                    key={b.key}
                    class={`diff-box diff-${b.status}`}
                    role="img"
                    aria-label={b.label}
                    style={{ left: `${r.x}px`, top: `${r.y}px`, width: `${r.width}px`, height: `${r.height}px` }}
                  >
                    <span class="mark" aria-hidden="true">
                      {legendOf(b.status).mark}
                    </span>
                  </span>
                );
              })}
          </div>
        </figure>
      ))}
    </div>
  );
}

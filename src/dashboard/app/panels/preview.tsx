/**
 * A fill of the working version, drawn by the engine itself: sample data made from the fields (edit it
 * freely), the working version saved first, the PDF the server returns shown page by page.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, describeError } from '../io/api.js';
import { sampleData } from '../model/sample-data.js';
import { useApp } from '../ui/context.js';
import { ErrorNote } from '../ui/controls.js';
import { PdfPage, usePdf } from '../ui/pdf-page.js';
import { present, type PanelProps } from '../model/store.js';

/** Preview pages are drawn to fit the panel: about this many CSS px per point. */
const PREVIEW_ZOOM = 0.6;

export function Preview(p: PanelProps & { eid: string; flush(): Promise<boolean> }) {
  const { announce } = useApp();
  const fields = present(p.state).fields;
  const sample = JSON.stringify(sampleData(fields), null, 2);
  // The sample follows the fields until the person edits it.
  const [edited, setEdited] = useState<string>();
  const text = edited ?? sample;
  const setText = (v: string | undefined) => setEdited(v);
  const [bytes, setBytes] = useState<Uint8Array>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [problems, setProblems] = useState<string[]>([]);
  const pdf = usePdf(bytes);

  const run = async () => {
    setError(undefined);
    setProblems([]);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      return setError(`The sample data is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    setBusy(true);
    try {
      if (!(await p.flush())) throw new Error('the working version has problems to fix first');
      setBytes(await api.preview(p.eid, data));
      announce('Preview ready');
    } catch (e) {
      if (e instanceof ApiError && e.body.fields.length > 0)
        setProblems(e.body.fields.map((f) => `${f.property}: ${f.message}`));
      setError(`No preview: ${describeError(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview a fill</h2>
      <label for="preview-data">Sample data (JSON: keys are aliases or ids)</label>
      <textarea
        id="preview-data"
        rows={10}
        value={text}
        spellcheck={false}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <div class="actions">
        <button type="button" class="primary" onClick={run} disabled={busy}>
          {busy ? 'Filling…' : 'Preview'}
        </button>
        <button type="button" onClick={() => setText(undefined)} disabled={edited === undefined}>
          Sample from the fields
        </button>
      </div>
      <ErrorNote message={error} />
      {problems.length > 0 && (
        <ul class="error-list" aria-label="Problems with the data">
          {problems.map((x, i) => (
            <li key={i}>{x}</li>
          ))}
        </ul>
      )}
      {pdf.doc && (
        <div class="preview-pages" tabIndex={0} aria-label="Preview pages">
          {Array.from({ length: pdf.doc.numPages }, (_, i) => (
            <PreviewPage key={`${i}-${bytes?.length}`} index={i} doc={pdf.doc!} />
          ))}
        </div>
      )}
    </section>
  );
}

function PreviewPage({ index, doc }: { index: number; doc: NonNullable<ReturnType<typeof usePdf>['doc']> }) {
  const [size, setSize] = useState<{ width: number; height: number }>();
  useEffect(() => {
    let gone = false;
    void doc.getPage(index + 1).then((page) => {
      const vp = page.getViewport({ scale: 1 });
      if (!gone) setSize({ width: vp.width, height: vp.height });
    });
    return () => {
      gone = true;
    };
  }, [doc, index]);
  if (!size) return <p>Drawing page {index + 1}…</p>;
  return (
    <PdfPage
      doc={doc}
      index={index}
      zoom={PREVIEW_ZOOM}
      width={size.width}
      height={size.height}
      label={`Preview of page ${index + 1}`}
    />
  );
}

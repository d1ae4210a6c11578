/**
 * A template's versions: who published which number when, and a visual diff of the fields between
 * any two (the working version among them), drawn over the pages with a legend.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import { diffBoxes, diffSummary, versionName, type DiffBox } from '../model/diff-view.js';
import type { TemplateDetail } from '../model/types.js';
import { titleOf } from '../io/route.js';
import { ErrorNote, Link } from '../ui/controls.js';
import { usePdf } from '../ui/pdf-page.js';
import { DiffPages, Legend } from './diff-overlay.js';
import { formatWhen } from './template-row.js';

export function Versions({ eid }: { eid: string }) {
  const [detail, setDetail] = useState<TemplateDetail>();
  const [bytes, setBytes] = useState<Uint8Array>();
  const [error, setError] = useState<string>();
  const [from, setFrom] = useState<number>();
  const [to, setTo] = useState(-1);
  const [result, setResult] = useState<{ summary: string; boxes: DiffBox[]; from: number; to: number }>();
  const [busy, setBusy] = useState(false);
  const pdf = usePdf(bytes);

  useEffect(() => {
    Promise.all([api.template(eid), api.pdf(eid)]).then(
      ([d, b]) => {
        setDetail(d);
        setBytes(b);
        document.title = titleOf({ name: 'versions', eid }, d.name);
        setFrom(d.publishedVersion ?? -1);
      },
      (e) => setError(describeError(e)),
    );
  }, [eid]);

  const compare = async (e: Event) => {
    e.preventDefault();
    if (from === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      const [diff, later] = await Promise.all([api.diff(eid, from, to), api.version(eid, to)]);
      setResult({ summary: diffSummary(diff), boxes: diffBoxes(diff, later.fields), from, to });
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  if (!detail)
    return (
      <section>
        <h1 tabIndex={-1}>Versions</h1>
        {error ? <ErrorNote message={error} /> : <p role="status">Loading…</p>}
      </section>
    );

  const numbers = [-1, ...detail.versions.map((v) => v.versionNumber).sort((a, b) => b - a)];
  return (
    <section class="versions">
      <h1 tabIndex={-1}>Versions of {detail.name}</h1>
      <p>
        <Link to={{ name: 'editor', eid }}>Edit the working version</Link>
      </p>
      <div class="table-wrap" tabIndex={0} aria-labelledby="versions-caption">
        <table>
          <caption id="versions-caption">Published versions (the latest is what fills use by default)</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Published by</th>
              <th scope="col">Published at</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Working version</th>
              <td colSpan={2}>
                {detail.hasUnpublishedChanges ? 'Changes not published yet' : 'Same as the latest version'}
              </td>
            </tr>
            {[...detail.versions]
              .sort((a, b) => b.versionNumber - a.versionNumber)
              .map((v) => (
                <tr key={v.versionNumber}>
                  <th scope="row">
                    {v.versionNumber}
                    {v.versionNumber === detail.publishedVersion ? ' (latest)' : ''}
                  </th>
                  <td>{v.publishedBy}</td>
                  <td>{formatWhen(v.publishedAt)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      <form class="compare" onSubmit={compare}>
        <h2>Compare two versions</h2>
        <div class="field-row">
          <label for="diff-from">From</label>
          <select id="diff-from" value={from} onChange={(e) => setFrom(Number(e.currentTarget.value))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {versionName(n)}
              </option>
            ))}
          </select>
        </div>
        <div class="field-row">
          <label for="diff-to">To</label>
          <select id="diff-to" value={to} onChange={(e) => setTo(Number(e.currentTarget.value))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {versionName(n)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Comparing…' : 'Compare'}
        </button>
      </form>
      <ErrorNote message={error} />
      {result && (
        <div class="diff">
          <h2>
            {versionName(result.from)} → {versionName(result.to)}
          </h2>
          <p role="status">{result.summary}</p>
          <Legend />
          <ul class="diff-list">
            {result.boxes
              .filter((b) => b.status !== 'unchanged')
              .map((b) => (
                <li key={b.key}>
                  {b.label} (page {b.pageNum + 1})
                </li>
              ))}
          </ul>
          {pdf.doc && <DiffPages doc={pdf.doc} pages={detail.pages} boxes={result.boxes} />}
        </div>
      )}
    </section>
  );
}

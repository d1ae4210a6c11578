/** One template in the list: its state, and rename, duplicate, export, versions and delete (confirmed). */
import { useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import type { TemplateSummary } from '../model/types.js';
import { useApp } from '../ui/context.js';
import { Confirm } from '../ui/confirm.js';
import { ErrorNote, Link } from '../ui/controls.js';

export function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Saves a blob under a file name through a temporary link (the browser's download). */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function TemplateRow({ template: t, onChanged }: { template: TemplateSummary; onChanged(): void }) {
  const { announce } = useApp();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(t.name);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
      announce(done);
      onChanged();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const rename = (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return setError('A name cannot be empty.');
    void run(() => api.rename(t.eid, name.trim()), `Renamed to ${name.trim()}`).then(() => setRenaming(false));
  };

  const exportJson = () =>
    run(
      async () => download(await api.exportJson(t.eid), `${t.name.replace(/[^\w.-]+/g, '_')}.json`),
      `Exported ${t.name}`,
    );

  const state = t.publishedVersion === null ? 'Not published' : `Published: version ${t.publishedVersion}`;
  return (
    <li class="template-row">
      <div class="summary">
        <h3>
          <Link to={{ name: 'editor', eid: t.eid }}>{t.name}</Link>
        </h3>
        <p class="meta">
          <span>{state}</span>
          {t.hasUnpublishedChanges && <span class="badge">Unpublished changes</span>}
          <span>
            {t.fieldCount} field{t.fieldCount === 1 ? '' : 's'}
          </span>
          <span>Updated {formatWhen(t.updatedAt)}</span>
        </p>
      </div>
      {renaming ? (
        <form class="rename" onSubmit={rename}>
          <label for={`rename-${t.eid}`}>New name for {t.name}</label>
          <input id={`rename-${t.eid}`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <button type="submit" class="primary" disabled={busy}>
            Save name
          </button>
          <button type="button" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div class="actions" role="group" aria-label={`Actions for ${t.name}`}>
          <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename ${t.name}`}>
            Rename
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => run(() => api.duplicate(t.eid, `${t.name} (copy)`), `Duplicated ${t.name}`)}
            aria-label={`Duplicate ${t.name}`}
          >
            Duplicate
          </button>
          <button type="button" disabled={busy} onClick={exportJson} aria-label={`Export ${t.name}`}>
            Export
          </button>
          <Link to={{ name: 'versions', eid: t.eid }} class="button" aria-label={`Versions of ${t.name}`}>
            Versions
          </Link>
          <button type="button" class="danger" onClick={() => setConfirming(true)} aria-label={`Delete ${t.name}`}>
            Delete
          </button>
        </div>
      )}
      <ErrorNote message={error} />
      {confirming && (
        <Confirm
          title={`Delete ${t.name}?`}
          message="The template and all its versions are deleted. Fills and packets that name it will fail."
          confirmLabel="Delete template"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(() => api.remove(t.eid), `Deleted ${t.name}`);
          }}
        />
      )}
    </li>
  );
}

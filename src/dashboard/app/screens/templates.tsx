/**
 * The organization's templates: search, the list with each template's state and actions, a new
 * template from an uploaded PDF or DOCX (with or without field detection), and import of an export.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import type { TemplateSummary } from '../model/types.js';
import { useApp } from '../ui/context.js';
import { ErrorNote } from '../ui/controls.js';
import { TemplateRow } from './template-row.js';
import { ImportForm, UploadForm } from './upload.js';

/** How long the search waits after the last keystroke before it asks the server. */
const SEARCH_PAUSE_MS = 250;

export function Templates() {
  const { announce } = useApp();
  const [query, setQuery] = useState('');
  const [list, setList] = useState<TemplateSummary[]>();
  const [error, setError] = useState<string>();
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(
      () => {
        api.templates(query).then(
          (templates) => {
            if (stale) return;
            setList(templates);
            setError(undefined);
            if (query) announce(`${templates.length} template${templates.length === 1 ? '' : 's'} found`);
          },
          (e) => !stale && setError(describeError(e)),
        );
      },
      query ? SEARCH_PAUSE_MS : 0,
    );
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [query, reloads]);

  const reload = () => setReloads((n) => n + 1);

  return (
    <section class="templates">
      <h1 tabIndex={-1}>Templates</h1>
      <div class="panels">
        <UploadForm />
        <ImportForm onImported={reload} />
      </div>
      <h2 id="list-heading">Your templates</h2>
      <div class="search" role="search">
        <label for="template-search">Search templates</label>
        <input id="template-search" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      </div>
      <ErrorNote message={error} />
      {list === undefined && !error && <p role="status">Loading templates…</p>}
      {list && list.length === 0 && (
        <p>{query ? 'No template matches.' : 'No templates yet: upload a PDF to start.'}</p>
      )}
      {list && list.length > 0 && (
        <ul class="template-list" aria-labelledby="list-heading">
          {list.map((t) => (
            <TemplateRow key={t.eid} template={t} onChanged={reload} />
          ))}
        </ul>
      )}
    </section>
  );
}

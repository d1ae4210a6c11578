/** The editor's title bar: what is published, the save state (a live region), Save and Publish. */
import type { TemplateDetail } from '../model/types.js';
import { ErrorNote, Link } from '../ui/controls.js';
import { saveStateText, type Autosave } from './autosave.js';

interface HeaderProps {
  detail: TemplateDetail;
  save: Autosave;
  publishing: boolean;
  publishError?: string;
  onPublish(): void;
}

export function EditorHeader({ detail, save, publishing, publishError, onPublish }: HeaderProps) {
  const published =
    detail.publishedVersion === null ? 'Not published yet' : `Published: version ${detail.publishedVersion}`;
  return (
    <div class="editor-header">
      <div class="title">
        <h1 tabIndex={-1}>Edit {detail.name}</h1>
        <p class="meta">
          <span>{published}</span>
          {detail.hasUnpublishedChanges && <span class="badge">Unpublished changes</span>}
          <Link to={{ name: 'versions', eid: detail.eid }}>Versions</Link>
        </p>
      </div>
      <div class="save-bar">
        <p class={`save-state ${save.state.kind}`} role="status" aria-live="polite">
          {saveStateText(save.state)}
        </p>
        <button type="button" onClick={() => void save.flush()} disabled={save.state.kind === 'saving'}>
          Save
        </button>
        <button type="button" class="primary" onClick={onPublish} disabled={publishing}>
          {publishing ? 'Publishing…' : 'Publish'}
        </button>
      </div>
      <ErrorNote message={publishError} />
    </div>
  );
}

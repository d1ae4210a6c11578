/**
 * New templates: an uploaded PDF or DOCX (the server converts DOCX and, unless turned off, detects the
 * fields a person would fill, which the editor then shows as proposals), or an exported template's JSON.
 */
import { useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import { handProposals } from '../io/handoff.js';
import { useApp } from '../ui/context.js';
import { ErrorNote, FieldRow } from '../ui/controls.js';

export function UploadForm() {
  const { navigate, announce } = useApp();
  const [file, setFile] = useState<File>();
  const [name, setName] = useState('');
  const [detect, setDetect] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return setError('Choose a PDF or DOCX file.');
    setBusy(true);
    setError(undefined);
    try {
      const { template, proposals } = await api.upload(file, name, detect);
      handProposals(template.eid, proposals);
      announce(`Uploaded ${template.name}: ${proposals.length} detected field${proposals.length === 1 ? '' : 's'}`);
      navigate({ name: 'editor', eid: template.eid });
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel upload" onSubmit={submit} aria-labelledby="upload-heading" noValidate>
      <h2 id="upload-heading">New template</h2>
      <FieldRow id="upload-file" label="PDF or DOCX file" error={error}>
        {(describedBy, invalid) => (
          <input
            id="upload-file"
            type="file"
            accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            onChange={(e) => setFile(e.currentTarget.files?.[0])}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </FieldRow>
      <FieldRow id="upload-name" label="Name (optional)" hint="Default: the file’s name">
        {(describedBy) => (
          <input
            id="upload-name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-describedby={describedBy}
          />
        )}
      </FieldRow>
      <div class="check-row">
        <input
          id="upload-detect"
          type="checkbox"
          checked={detect}
          onChange={(e) => setDetect(e.currentTarget.checked)}
        />
        <label for="upload-detect">Detect fields (proposals you accept or reject in the editor)</label>
      </div>
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}

export function ImportForm({ onImported }: { onImported(): void }) {
  const { announce } = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [file, setFile] = useState<File>();

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return setError('Choose an exported template (.json).');
    setBusy(true);
    setError(undefined);
    try {
      let body: unknown;
      try {
        body = JSON.parse(await file.text());
      } catch {
        throw new Error('The file is not JSON (choose a file the Export button saved).');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new Error('The file is not an exported template.');
      const t = await api.importJson(body);
      announce(`Imported ${t.name}`);
      onImported();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel import" onSubmit={submit} aria-labelledby="import-heading" noValidate>
      <h2 id="import-heading">Import</h2>
      <FieldRow id="import-file" label="Exported template (JSON)" error={error}>
        {(describedBy, invalid) => (
          <input
            id="import-file"
            type="file"
            accept=".json,application/json"
            onChange={(e) => setFile(e.currentTarget.files?.[0])}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </FieldRow>
      <button type="submit" disabled={busy}>
        {busy ? 'Importing…' : 'Import'}
      </button>
    </form>
  );
}

/** The document's own properties (shown when no field is selected): its title, its style, and the keys. */
import { setDocumentStyle } from '../model/editing.js';
import { KEY_HELP } from '../model/keymap.js';
import { commit, present, sealRun, type PanelProps } from '../model/store.js';
import { TextInput } from './inputs.js';
import { StyleForm } from './style-form.js';

export function DocumentProperties({ state, update, problems }: PanelProps) {
  const doc = present(state);
  const errorAt = (input: string) => problems?.document.find((d) => d.input === input)?.message;
  const seal = () => update(sealRun);
  const unplaced = problems?.other ?? [];
  return (
    <section class="panel properties" aria-labelledby="props-heading">
      <h2 id="props-heading">Document</h2>
      <p class="hint">Select a field on the page (or Tab to it and press Enter) to edit it.</p>
      {unplaced.length > 0 && (
        <ul class="error-list" aria-label="Problems to fix">
          {unplaced.map((e, i) => (
            <li key={i}>{e.property ? `${e.property}: ${e.message}` : e.message}</li>
          ))}
        </ul>
      )}
      <TextInput
        id="doc-title"
        label="Title (written into filled PDFs)"
        value={doc.title}
        error={errorAt('title')}
        onInput={(v) => update((s) => commit(s, { ...present(s), title: v || undefined }, { key: 'doc:title' }))}
        onBlur={seal}
      />
      <StyleForm
        idPrefix="doc-style"
        legend="Document style (every field without its own)"
        inheritFrom="fill request or default"
        style={doc.style}
        errorAt={errorAt}
        onBlur={seal}
        onStyle={(style, input) =>
          update((s) => commit(s, setDocumentStyle(present(s), style ?? {}), { key: `doc:${input}` }))
        }
      />
      <details class="keys">
        <summary>Keyboard</summary>
        <dl>
          {KEY_HELP.map(([keys, what]) => (
            <div key={keys}>
              <dt>{keys}</dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}

/**
 * The fields detection proposed: each one accepted (it becomes a field, selected) or rejected, or all
 * at once; detection can run again. A proposal chosen on the page is the one marked here.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import { acceptProposals, rejectProposals } from '../model/editing.js';
import { FIELD_KINDS } from '../model/field-kinds.js';
import { useApp } from '../ui/context.js';
import { ErrorNote } from '../ui/controls.js';
import { commit, present, type PanelProps } from '../model/store.js';

interface ProposalsProps extends PanelProps {
  eid: string;
  active?: number;
  setActive(i: number | undefined): void;
  focusField(id: string): void;
}

export function Proposals(p: ProposalsProps) {
  const { announce } = useApp();
  const proposals = present(p.state).proposals;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (p.active === undefined) return;
    list.current?.querySelector<HTMLElement>(`[data-proposal="${p.active}"] button`)?.focus();
  }, [p.active]);

  const accept = (indexes: number[]) => {
    p.setActive(undefined);
    p.update((s) => {
      const done = acceptProposals(present(s), indexes);
      return commit(s, done.doc, { select: done.ids });
    });
    announce(`${indexes.length} field${indexes.length === 1 ? '' : 's'} accepted`);
  };
  const reject = (indexes: number[]) => {
    p.setActive(undefined);
    p.update((s) => commit(s, rejectProposals(present(s), indexes)));
    announce(`${indexes.length} proposal${indexes.length === 1 ? '' : 's'} rejected`);
  };
  const detect = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const found = await api.proposals(p.eid);
      p.update((s) => commit(s, { ...present(s), proposals: found }));
      announce(`Detection found ${found.length} field${found.length === 1 ? '' : 's'}`);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const all = proposals.map((_, i) => i);
  return (
    <section class="panel proposals" aria-labelledby="proposals-heading">
      <h2 id="proposals-heading">Detected fields ({proposals.length})</h2>
      <div class="actions">
        <button type="button" class="primary" disabled={proposals.length === 0} onClick={() => accept(all)}>
          Accept all
        </button>
        <button type="button" disabled={proposals.length === 0} onClick={() => reject(all)}>
          Reject all
        </button>
        <button type="button" disabled={busy} onClick={detect}>
          {busy ? 'Detecting…' : 'Detect again'}
        </button>
      </div>
      <ErrorNote message={error} />
      {proposals.length > 0 && (
        <ul class="proposal-list" ref={list}>
          {proposals.map((x, i) => {
            const name = x.label ?? x.field.alias ?? x.field.id;
            return (
              <li key={i} data-proposal={i} class={p.active === i ? 'active' : undefined}>
                <span>
                  <strong>{name}</strong> · {FIELD_KINDS[x.field.type]?.label ?? x.field.type} · page{' '}
                  {x.field.pageNum + 1} · {x.source}, {Math.round(x.confidence * 100)}% sure
                </span>
                <button type="button" onClick={() => accept([i])} aria-label={`Accept ${name}`}>
                  Accept
                </button>
                <button type="button" onClick={() => reject([i])} aria-label={`Reject ${name}`}>
                  Reject
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

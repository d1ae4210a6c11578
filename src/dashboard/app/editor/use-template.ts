/** The template an editor works on: its detail, its PDF's bytes and the proposals an upload handed over. */
import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import { takeProposals } from '../io/handoff.js';
import type { Proposal, TemplateDetail } from '../model/types.js';

export interface LoadedTemplate {
  detail: TemplateDetail;
  bytes: Uint8Array;
  proposals: Proposal[];
}

export function useTemplate(eid: string): { loaded?: LoadedTemplate; error?: string } {
  const [state, setState] = useState<{ loaded?: LoadedTemplate; error?: string }>({});
  useEffect(() => {
    let gone = false;
    Promise.all([api.template(eid), api.pdf(eid)]).then(
      ([detail, bytes]) => !gone && setState({ loaded: { detail, bytes, proposals: takeProposals(eid) ?? [] } }),
      (e) => !gone && setState({ error: describeError(e) }),
    );
    return () => {
      gone = true;
    };
  }, [eid]);
  return state;
}

/** The editor's side: the selection's (or the document's) properties, the proposals, the preview. */
import type { PanelProps } from '../model/store.js';
import { Preview } from './preview.js';
import { Properties } from './properties.js';
import { Proposals } from './proposals.js';

interface SideProps extends PanelProps {
  eid: string;
  flush(): Promise<boolean>;
  activeProposal?: number;
  setActiveProposal(i: number | undefined): void;
  focusField(id: string): void;
}

export function Side(p: SideProps) {
  const { eid, flush, activeProposal, setActiveProposal, focusField, ...panel } = p;
  return (
    <aside class="side" aria-label="Properties and preview">
      <Properties {...panel} />
      <Proposals {...panel} eid={eid} active={activeProposal} setActive={setActiveProposal} focusField={focusField} />
      <Preview {...panel} eid={eid} flush={flush} />
    </aside>
  );
}

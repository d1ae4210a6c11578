/** The template editor's screen: loads the template, then hands it to the workspace. */
import { useEffect } from 'preact/hooks';
import { titleOf } from '../io/route.js';
import { ErrorNote, Link } from '../ui/controls.js';
import { useTemplate } from './use-template.js';
import { Workspace } from './workspace.js';

export function Editor({ eid }: { eid: string }) {
  const { loaded, error } = useTemplate(eid);
  useEffect(() => {
    if (loaded) document.title = titleOf({ name: 'editor', eid }, loaded.detail.name);
  }, [loaded]);
  if (loaded) return <Workspace eid={eid} loaded={loaded} />;
  return (
    <section>
      <h1 tabIndex={-1}>Edit template</h1>
      {error ? (
        <>
          <ErrorNote message={`The template could not be opened: ${error}`} />
          <p>
            <Link to={{ name: 'templates' }}>Back to the templates</Link>
          </p>
        </>
      ) : (
        <p role="status">Loading the template…</p>
      )}
    </section>
  );
}

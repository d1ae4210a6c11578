/**
 * The template editor once its template is loaded: the editor's state (store.ts), the keys, saving,
 * and the parts around the pages (header, toolbar, properties, proposals, preview).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import { docFrom, type Doc } from '../model/editing.js';
import { parentOrigin, publishedMessage, savedMessage, type EmbedMessage } from '../io/embed.js';
import { commandFor, type Command } from '../model/keymap.js';
import type { FieldType, PageSize, TemplateDetail } from '../model/types.js';
import { useApp } from '../ui/context.js';
import { usePdf } from '../ui/pdf-page.js';
import { useAutosave } from './autosave.js';
import { EditorHeader } from './header.js';
import { PageView } from './page-view.js';
import { Side } from '../panels/side.js';
import { commit, present, runCommand, sealRun, select, startEditor, type EditorState } from '../model/store.js';
import { Toolbar, ZOOMS } from './toolbar.js';
import type { LoadedTemplate } from './use-template.js';

/** Commands that act on the fields where they are: only from the pages (a toolbar button keeps Delete for itself). */
const ON_PAGES: ReadonlySet<Command['kind']> = new Set(['nudge', 'grow', 'delete', 'selectAll', 'clearSelection']);

/** The largest zoom step at which the widest page fits the window (a phone starts at 50%, a desktop at 100%). */
function fittingZoom(pages: readonly PageSize[]): number {
  const widest = Math.max(...pages.map((p) => p.width), 1);
  const room = document.documentElement.clientWidth - 48;
  return [...ZOOMS].reverse().find((z) => z <= 1 && widest * z <= room) ?? ZOOMS[0];
}

function post(message: EmbedMessage): void {
  const origin = parentOrigin(window.parent !== window, [...(location.ancestorOrigins ?? [])], document.referrer);
  if (origin) window.parent.postMessage(message, origin);
}

export function Workspace({ eid, loaded }: { eid: string; loaded: LoadedTemplate }) {
  const { announce } = useApp();
  const [detail, setDetail] = useState<TemplateDetail>(loaded.detail);
  const [state, setState] = useState<EditorState>(() => startEditor(docFrom(loaded.detail.working, loaded.proposals)));
  const [dragDoc, setDragDoc] = useState<Doc>();
  const [zoom, setZoom] = useState(() => fittingZoom(loaded.detail.pages));
  const [drawType, setDrawType] = useState<FieldType>('shortText');
  const [drawing, setDrawing] = useState(false);
  const [workPage, setWorkPage] = useState(0);
  const [activeProposal, setActiveProposal] = useState<number>();
  const [focusId, setFocusId] = useState<string>();
  const [publishing, setPublishing] = useState(false);
  const [publishError, setPublishError] = useState<string>();
  const pagesRef = useRef<HTMLDivElement>(null);
  const pdf = usePdf(loaded.bytes);
  const pages = detail.pages;
  const doc = present(state);
  const shown = dragDoc ?? doc;

  const save = useAutosave(eid, doc, loaded.detail.working, (d) => {
    setDetail(d);
    post(savedMessage(eid));
  });

  useEffect(() => {
    if (focusId === undefined) return;
    const target =
      focusId === ''
        ? pagesRef.current
        : pagesRef.current?.querySelector<HTMLElement>(`[data-field-id="${CSS.escape(focusId)}"]`);
    target?.focus();
    setFocusId(undefined);
  }, [focusId, state]);

  const update = (next: (s: EditorState) => EditorState) => setState(next);

  const onKeyDown = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest('input, textarea, select, dialog')) return;
    const cmd = commandFor(e);
    if (!cmd) return;
    // Escape first leaves drawing (the armed type), then clears the selection.
    if (cmd.kind === 'clearSelection' && drawing) {
      setDrawing(false);
      return;
    }
    const onPages = !!target.closest('.pages');
    if (ON_PAGES.has(cmd.kind) && !onPages) return;
    e.preventDefault();
    const focused = target.closest<HTMLElement>('[data-field-id]')?.dataset.fieldId;
    let s = state;
    if (focused && onPages && !s.selection.includes(focused)) s = select(s, [focused]);
    const page =
      s.selection.length > 0 ? (doc.fields.find((f) => f.id === s.selection[0])?.pageNum ?? workPage) : workPage;
    const next = runCommand(s, cmd, pages, page);
    setState(next);
    if (cmd.kind === 'delete') setFocusId('');
    if ((cmd.kind === 'paste' || cmd.kind === 'duplicate') && next.selection[0]) setFocusId(next.selection[0]);
    if (cmd.kind === 'undo' || cmd.kind === 'redo') announce(cmd.kind === 'undo' ? 'Undone' : 'Redone');
  };

  const publish = async () => {
    setPublishing(true);
    setPublishError(undefined);
    try {
      if (!(await save.flush())) throw new Error('the working version has problems to fix first');
      const { versionNumber } = await api.publish(eid);
      setDetail(await api.template(eid));
      announce(`Published version ${versionNumber}`);
      post(publishedMessage(eid, versionNumber));
    } catch (e) {
      setPublishError(`Not published: ${describeError(e)}`);
    } finally {
      setPublishing(false);
    }
  };

  return (
    <section class="editor" onKeyDown={onKeyDown}>
      <EditorHeader
        detail={detail}
        save={save}
        publishing={publishing}
        publishError={publishError}
        onPublish={publish}
      />
      <Toolbar
        state={state}
        update={update}
        pages={pages}
        zoom={zoom}
        setZoom={setZoom}
        drawType={drawType}
        setDrawType={setDrawType}
        drawing={drawing}
        setDrawing={setDrawing}
        workPage={workPage}
        setWorkPage={setWorkPage}
        focusField={setFocusId}
      />
      <div class="editor-body">
        <div class="pages" ref={pagesRef} tabIndex={0} aria-label="Pages of the template">
          {pdf.error && <p class="error-note">The PDF could not be shown: {pdf.error}</p>}
          {pages.map((size, index) => (
            <PageView
              key={index}
              index={index}
              count={pages.length}
              size={size}
              zoom={zoom}
              pdf={pdf.doc}
              doc={shown}
              state={state}
              pages={pages}
              drawType={drawing ? drawType : undefined}
              problems={save.problems}
              activeProposal={activeProposal}
              onProposal={setActiveProposal}
              onPreview={setDragDoc}
              onCommit={(next, selection) => {
                setDragDoc(undefined);
                setState((s) => sealRun(commit(s, next, { select: selection })));
                setWorkPage(index);
                if (drawing) setDrawing(false);
                if (selection?.length === 1) setFocusId(selection[0]);
              }}
              onSelect={(ids, mode) => {
                setWorkPage(index);
                setState((s) => select(s, ids, mode));
              }}
            />
          ))}
        </div>
        <Side
          eid={eid}
          state={state}
          update={update}
          pages={pages}
          problems={save.problems}
          flush={save.flush}
          activeProposal={activeProposal}
          setActiveProposal={setActiveProposal}
          focusField={setFocusId}
        />
      </div>
    </section>
  );
}

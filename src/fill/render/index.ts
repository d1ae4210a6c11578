import type { EngineServices } from '../../services/index.js';
import type { TemplateField } from '../../template/index.js';
import { TextSetter } from '../../text/index.js';
import type { FilledField } from '../../fields/index.js';
import type { FillPlan, PlannedPage } from '../normalize/types.js';
import { OutputDocument } from '../output/document.js';
import type { PreparedTemplate } from '../output/prepared-template.js';
import type { PDFDict, PDFDocument, PDFPage, PDFRef } from '@cantoo/pdf-lib';
import { drawWidgetLooks, widgetField, type AppearanceChecks } from '../../acroform/index.js';
import { ImageEmbedder } from './image.js';
import type { LayoutCache } from '../output/layout-cache.js';
import { pageDraws, renderPage, type BoxOptions } from './page.js';

export interface RenderOptions extends BoxOptions {
  /** Flat output: values drawn into the page, the template's form fields removed. */
  flat: boolean;
  stripAnnotations: boolean;
  title?: string;
  /**
   * Interactive output written in the same update: called with every output page
   * that holds fields (by output index) and the document's text setter; it adds
   * the fields and returns the new AcroForm's reference for the catalog.
   */
  fields?: (doc: PDFDocument, pages: ReadonlyArray<PDFPage | undefined>, text: TextSetter) => PDFRef | undefined;
  /** Template pages whose output pages `fields` adds widgets to even when they hold no value (signature fields). */
  widgetPages?: ReadonlySet<number>;
}

/** Widgets of the PDF's own radio groups (pick-one check boxes too) that the plan turns on, matched by field name and on-state. */
function chosenRadios(
  planned: PlannedPage,
  widgets: PDFDict[],
): { on: Set<PDFDict>; fieldOf: Map<PDFDict, FilledField> } {
  const wanted = new Map<string, { filled: FilledField; state: string }>();
  for (const filled of planned.fields) {
    const f = filled.field;
    if (!f.acroFieldName || f.type !== 'radioGroup') continue;
    const chosen = (f.options ?? []).find((o) => filled.values[o.id] !== undefined);
    if (chosen) wanted.set(f.acroFieldName, { filled, state: chosen.exportValue ?? chosen.id });
  }
  const on = new Set<PDFDict>();
  const fieldOf = new Map<PDFDict, FilledField>();
  if (wanted.size === 0) return { on, fieldOf };
  for (const w of widgets) {
    const { name, onState } = widgetField(w);
    const want = wanted.get(name);
    if (!want || onState !== want.state) continue;
    on.add(w);
    fieldOf.set(w, want.filled);
  }
  return { on, fieldOf };
}

/**
 * The template page's widgets as the cached parse holds them: drawWidgetLooks
 * only reads them (copying each into the update session would make every fill
 * copy and compare them at commit).
 */
function widgetsOf(annotations: ReadonlyArray<{ dict?: PDFDict; widget: boolean }>): PDFDict[] {
  return annotations.flatMap((a) => (a.widget && a.dict ? [a.dict] : []));
}

/** Draws the plan over the template's pages and returns the output PDF (an update of the template's bytes). */
export async function renderPlan(
  prepared: PreparedTemplate,
  fields: TemplateField[],
  plan: FillPlan,
  engine: {
    services: Pick<EngineServices, 'fonts' | 'text' | 'subsets'>;
    layouts: LayoutCache;
    checks?: AppearanceChecks;
  },
  options: RenderOptions,
): Promise<Uint8Array> {
  const out = await OutputDocument.create(prepared);
  const tools = {
    text: {
      setter: new TextSetter(out.doc, engine.services.fonts, {
        layout: engine.services.text,
        subsets: engine.services.subsets,
      }),
      layouts: engine.layouts,
    },
    images: new ImageEmbedder(out.doc),
  };
  const byPage = new Map<number, TemplateField[]>();
  for (const f of fields) byPage.set(f.pageNum, [...(byPage.get(f.pageNum) ?? []), f]);

  const keepPageTree = plan.pages.length === prepared.pages.length && plan.pages.every((p, i) => p.templatePage === i);
  const annotationOptions = { dropWidgets: options.flat, stripAnnotations: options.stripAnnotations };
  const used = new Set<number>();
  const pageRefs: PDFRef[] = [];
  const outputPages: Array<PDFPage | undefined> = [];
  for (const planned of plan.pages) {
    const index = planned.templatePage;
    const first = !used.has(index);
    used.add(index);
    const pageFields = byPage.get(index) ?? [];
    const draws = pageDraws(planned, pageFields, options);
    const holdsFields =
      options.fields !== undefined &&
      (planned.fields.length > 0 || (first && options.widgetPages?.has(index) === true));
    if (keepPageTree && !draws && !holdsFields && !out.annotationsChange(index, annotationOptions)) {
      // Untouched: the template's page object is used as it is, nothing is written for it.
      pageRefs.push(prepared.pages[index]!.ref);
      continue;
    }
    const page = out.addPage(index, { first, keepParent: keepPageTree, ...annotationOptions });
    let shown = planned;
    if (options.flat) {
      // Flat output drops the widgets: their own look (borders, backgrounds, squares, rings) is drawn under the
      // values, and the chosen radio button of the PDF's own form in its own on state instead of our dot. (Check boxes
      // keep the request's check character, default X, drawn over the box's own off look.)
      const widgets = widgetsOf(prepared.pages[index]!.annotations);
      const { on, fieldOf } = chosenRadios(planned, widgets);
      const drawn = drawWidgetLooks(out.doc, page, widgets, on, engine.checks);
      if (drawn.size > 0) {
        const handled = new Set([...drawn].map((w) => fieldOf.get(w)));
        shown = {
          ...planned,
          fields: planned.fields.map((f) =>
            handled.has(f) ? { ...f, contents: f.contents.filter((c) => c.kind !== 'mark' && c.kind !== 'dot') } : f,
          ),
        };
      }
    }
    if (draws) renderPage(page, prepared.pages[index]!.frame, shown, pageFields, tools, options);
    outputPages[pageRefs.length] = page;
    pageRefs.push(page.ref);
  }
  const acroForm = options.fields?.(out.doc, outputPages, tools.text.setter);
  return out.finish({ pageRefs, keepPageTree, dropForm: options.flat, acroForm, title: options.title });
}

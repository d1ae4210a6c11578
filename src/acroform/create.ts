import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { PDF } from '../pdf/index.js';
import type { TextSetter } from '../text/index.js';
import type { LayoutMemo } from './appearance/appearance.js';
import { radioAppearances } from './appearance/toggle.js';
import { bsOf, fieldDict, mkOf, PRINT, rectArray, widgetFor } from './field-dict.js';
import type { InteractiveFieldSpec } from './field-spec.js';
import { completeAcroForm, ensureAcroForm, type FormTarget } from './form-dict.js';
import { FF, readFieldTree, textName } from './tree.js';

/**
 * Adds real AcroForm fields, prefilled, whose appearances are drawn with the
 * text layer's embedded fonts. Editing uses /DA = Helvetica from /DR (see
 * README.md: the embedded fonts are subsets, useless for typing new text).
 */
export function addInteractiveFields(
  doc: PDFDocument,
  specs: InteractiveFieldSpec[],
  text: TextSetter,
  target?: FormTarget,
  layouts?: LayoutMemo,
): void {
  if (specs.length === 0) return;
  const context = doc.context;
  const acroForm = target ? completeAcroForm(doc, target.acroForm) : ensureAcroForm(doc);
  const fieldsArr = acroForm.lookup(PDF.Fields, PDFArray);
  const pages = target ? target.pages : doc.getPages();
  const taken = new Set(!target || target.ownForm ? readFieldTree(doc).map((f) => f.name) : []);
  const created = new Map<string, { kind: InteractiveFieldSpec['kind']; dict: PDFDict; ref: PDFRef }>();

  const uniqueName = (wanted: string): string => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}_${n}`;
    taken.add(name);
    return name;
  };

  // Dotted names become a field hierarchy (`applicant.name` is field `name` under `applicant`),
  // unless the document's own form already uses the first part; then dots become '_'.
  const ownNames = [...taken];
  const groups = new Map<string, { dict: PDFDict; ref: PDFRef }>();
  const hierarchyFree = (first: string): boolean => !ownNames.some((n) => n === first || n.startsWith(`${first}.`));
  /** The non-terminal field for `path` (created on first use), or undefined when a terminal field holds that name. */
  const group = (path: string[]): { dict: PDFDict; ref: PDFRef } | undefined => {
    const full = path.join('.');
    const known = groups.get(full);
    if (known) return known;
    if (taken.has(full)) return undefined;
    const parent = path.length > 1 ? group(path.slice(0, -1)) : undefined;
    if (path.length > 1 && !parent) return undefined;
    const dict = context.obj({ T: PDFHexString.fromText(path[path.length - 1]!), Kids: [] });
    const ref = context.register(dict);
    if (parent) {
      dict.set(PDF.Parent, parent.ref);
      kidsOf(parent.dict).push(ref);
    } else fieldsArr.push(ref);
    const made = { dict, ref };
    groups.set(full, made);
    // A terminal field of the same name would clash with the group.
    taken.add(full);
    return made;
  };
  /** Where a new terminal field goes: its full name, its /T and its parent (none: the form's Fields). */
  const place = (wanted: string): { full: string; partial: string; parent?: { dict: PDFDict; ref: PDFRef } } => {
    const parts = wanted.split('.').filter((p) => p !== '');
    if (parts.length > 1 && hierarchyFree(parts[0]!)) {
      const parent = group(parts.slice(0, -1));
      const prefix = parts.slice(0, -1).join('.');
      if (parent) {
        const full = uniqueName(`${prefix}.${parts[parts.length - 1]}`);
        if (!groups.has(full)) return { full, partial: full.slice(prefix.length + 1), parent };
      }
    }
    const full = uniqueName(wanted.replace(/\./g, '_') || 'field');
    return { full, partial: full };
  };

  // Radio groups: the states used so far, and the groups that need RadiosInUnison.
  const radioStates = new Map<PDFRef, Set<string>>();
  const unison = new Set<PDFRef>();

  const addWidget = (pageIndex: number, widget: PDFDict): PDFRef => {
    const page = pages[pageIndex]!;
    widget.set(PDF.P, page.ref);
    const ref = context.register(widget);
    page.node.addAnnot(ref);
    return ref;
  };

  /** A radio group's option widgets on one page, as kids of `fieldRef`; the state chosen by the value, if any. */
  const addOptions = (spec: InteractiveFieldSpec, fieldRef: PDFRef, kids: PDFArray): string | undefined => {
    let selected: string | undefined;
    const states = radioStates.get(fieldRef) ?? new Set<string>();
    radioStates.set(fieldRef, states);
    (spec.options ?? []).forEach((opt, i) => {
      // The export value is the state name itself (a PDF name may hold any UTF-8), so viewers report it as the value.
      const state = opt.exportValue || String(i);
      // The same value on several buttons (a control repeated on every page): they turn on and off together.
      if (states.has(state)) unison.add(fieldRef);
      states.add(state);
      const apps = radioAppearances(
        doc,
        opt.rect.width,
        opt.rect.height,
        spec.style.textColor,
        spec.box ? { box: spec.box } : {},
      );
      const on = spec.value !== '' && spec.value === opt.exportValue;
      if (on) selected = state;
      const stateName = textName(state);
      const normal = context.obj({ Off: apps.off });
      normal.set(stateName, apps.on);
      const widget = context.obj({
        Type: 'Annot',
        Subtype: 'Widget',
        F: PRINT,
        Rect: rectArray(opt.rect),
        Parent: fieldRef,
        MK: mkOf(spec.box, 0),
      });
      if (spec.box) widget.set(PDF.BS, bsOf(doc, spec.box));
      widget.set(PDF.AP, context.obj({ N: normal }));
      widget.set(PDF.AS, on ? stateName : PDF.Off);
      kids.push(addWidget(spec.pageIndex, widget));
    });
    return selected;
  };

  for (const spec of specs) {
    if (!pages[spec.pageIndex]) continue;
    const existing = created.get(spec.name) ?? created.get(spec.name.replace(/\./g, '_') || 'field');
    if (existing && existing.kind === spec.kind) {
      // Same name again (a value shown on several pages, an alias shared): one field, more widgets
      // showing the same value; a radio group gets the options of this page as more kids.
      if (spec.kind === 'radio') {
        const selected = addOptions(spec, existing.ref, kidsOf(existing.dict));
        if (selected !== undefined && existing.dict.get(PDF.V) === PDF.Off)
          existing.dict.set(PDF.V, textName(selected));
        continue;
      }
      const widget = widgetFor(doc, spec, text, layouts);
      // A check box checked on a later widget: the field's value is that widget's on state.
      const shown = widget.get(PDF.AS);
      if (
        spec.kind === 'checkbox' &&
        shown instanceof PDFName &&
        shown !== PDF.Off &&
        existing.dict.get(PDF.V) === PDF.Off
      )
        existing.dict.set(PDF.V, shown);
      widget.set(PDF.Parent, existing.ref);
      const ref = addWidget(spec.pageIndex, widget);
      kidsOf(existing.dict).push(ref);
      continue;
    }
    const where = place(spec.name);
    const field = fieldDict(doc, spec, where.partial);
    const fieldRef = context.register(field);
    created.set(where.full, { kind: spec.kind, dict: field, ref: fieldRef });
    if (where.parent) {
      field.set(PDF.Parent, where.parent.ref);
      kidsOf(where.parent.dict).push(fieldRef);
    } else fieldsArr.push(fieldRef);
    const kids = context.obj([]);
    field.set(PDF.Kids, kids);
    if (spec.kind === 'radio') {
      const selected = addOptions(spec, fieldRef, kids);
      field.set(PDF.V, selected !== undefined ? textName(selected) : PDF.Off);
    } else {
      const widget = widgetFor(doc, spec, text, layouts);
      widget.set(PDF.Parent, fieldRef);
      kids.push(addWidget(spec.pageIndex, widget));
    }
  }
  for (const ref of unison) {
    const field = context.lookup(ref, PDFDict);
    const ff = field.lookup(PDF.Ff);
    field.set(PDF.Ff, PDFNumber.of((ff instanceof PDFNumber ? ff.asNumber() : 0) | FF.radiosInUnison));
  }
}

function kidsOf(field: PDFDict): PDFArray {
  return field.lookup(PDF.Kids, PDFArray);
}

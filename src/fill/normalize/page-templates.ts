import type { FillPlan } from './types.js';

const VARIABLE = /\{\{\s*(pageNumber|pageIndex|totalPages|pageRepeatNumber|pageRepeatIndex|pageRepeatTotal)\s*\}\}/g;

interface PageNumbers {
  pageNumber: number;
  pageIndex: number;
  totalPages: number;
  pageRepeatNumber: number;
  pageRepeatIndex: number;
  pageRepeatTotal: number;
}

function hasPageVariables(s: string): boolean {
  VARIABLE.lastIndex = 0;
  return VARIABLE.test(s);
}

/** Replaces every known `{{variable}}`; unknown names are left as written. */
function substitutePageVariables(s: string, n: PageNumbers): string {
  return s.replace(VARIABLE, (_all, name: keyof PageNumbers) => String(n[name]));
}

/**
 * Evaluated after repeating, so the numbers are those of the output: page
 * numbers count within one fill (one element of a `data` array), repeat
 * numbers count the copies of one template page.
 */
export function applyPageVariables(plan: FillPlan): void {
  const seen = new Map<number, number>();
  for (const page of plan.pages) {
    const index = seen.get(page.fillIndex) ?? 0;
    seen.set(page.fillIndex, index + 1);
    const numbers: PageNumbers = {
      pageNumber: index + 1,
      pageIndex: index,
      totalPages: plan.pagesPerFill[page.fillIndex] ?? 0,
      pageRepeatNumber: page.repeatNumber,
      pageRepeatIndex: page.repeatNumber - 1,
      pageRepeatTotal: page.repeatTotal,
    };
    for (const filled of page.fields) {
      if (filled.field.type !== 'shortText' && filled.field.type !== 'longText') continue;
      for (const c of filled.contents) {
        if (c.kind === 'text' && hasPageVariables(c.text)) c.text = substitutePageVariables(c.text, numbers);
      }
      const v = filled.values[''];
      if (v !== undefined && hasPageVariables(v)) filled.values[''] = substitutePageVariables(v, numbers);
    }
  }
}

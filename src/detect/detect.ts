/**
 * `detectFields`: a PDF's bytes → the template fields a person would fill, as proposals. Reads the
 * pages once with pdfjs (glyphs and painted paths) and the form once with the kernel; each source
 * (form fields, text tags, flat drawings) proposes, the flat ones only where the others leave room.
 */
import { InvalidPdfError, ValidationError } from '../errors/index.js';
import { loadPdf, pagesOverBudget } from '../pdf/index.js';
import { readPageGlyphs, tagsOnPage, TextTagError, type PageGlyphs } from '../packets/index.js';
import { acroformProposals } from './acroform.js';
import { flatFields, overlapRatio } from './cells.js';
import { flatProposals } from './flat.js';
import { phrasesOf, type Phrase } from './phrases.js';
import { shapesOf } from './shapes.js';
import { LIMITS, type DetectionResult, type DetectOptions, type FieldProposal } from './types.js';
import { withNames } from './names.js';

/** Reads the pages; a file pdfjs cannot open is an InvalidPdfError naming `property`. */
async function readPages(
  pdf: Uint8Array,
  options: DetectOptions & { skipPages: ReadonlySet<number> },
  property: string,
): Promise<{ pages: PageGlyphs[]; count: number }> {
  let count = 0;
  const pages = await readPageGlyphs(pdf, property, {
    onPageCount: (n) => (count = n),
    paths: true,
    maxOperators: LIMITS.maxOperators,
    maxPages: LIMITS.maxPages,
    skipUnreadablePages: true,
    skipImages: true,
    skipPages: options.skipPages,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { pages, count };
}

/**
 * Proposes the fields of `pdf`: its form's fields named for people, its text tags, and on flat
 * pages the boxes, lines, combs and check boxes its drawing shows. Bad bytes give a typed
 * `InvalidPdfError`; a page that cannot be read, or one cut short at a limit, gives a note.
 * Same bytes and options, same proposals (ids included).
 */
export async function detectFields(pdf: Uint8Array, options: DetectOptions = {}): Promise<DetectionResult> {
  const property = options.property ?? 'pdf';
  if (!(pdf instanceof Uint8Array)) throw ValidationError.of(property, 'Expected the bytes of a PDF');
  const flat = options.flat ?? 'auto';
  // The kernel reads the file first: what it refuses (a bomb, a broken file) is a typed error, and
  // pdf.js, which decodes without a bound, reads only pages whose drawing fits the budget.
  const doc = await loadPdf(pdf, property);
  const over = pagesOverBudget(doc, { perPage: LIMITS.maxContentBytes, pages: LIMITS.maxPages });
  const { pages, count } = await readPages(pdf, { ...options, skipPages: new Set(over) }, property);
  const notes: DetectionResult['notes'] = [];
  const phrases = new Map<number, { phrases: Phrase[]; leaders: ReturnType<typeof phrasesOf>['leaders'] }>();
  const phrasesOn = (pageNum: number) => {
    let found = phrases.get(pageNum);
    if (!found) phrases.set(pageNum, (found = phrasesOf(pages[pageNum]?.glyphs ?? [])));
    return found;
  };

  const fromForm = acroformProposals(doc, (n) => phrasesOn(n).phrases, options.tooltips ?? true).filter(
    (p) => p.field.pageNum < pages.length,
  );
  const proposals: FieldProposal[] = [...fromForm];
  for (const page of pages) {
    if (over.includes(page.pageNum))
      notes.push({ pageNum: page.pageNum, message: 'The page draws more than is read: it was passed over' });
    else if (page.unreadable) notes.push({ pageNum: page.pageNum, message: 'The page could not be read' });
    if (page.truncated)
      notes.push({ pageNum: page.pageNum, message: 'The page draws more than is read: only its beginning was' });
    try {
      for (const tag of tagsOnPage(page.glyphs, page.pageNum, { fileId: property, property })) {
        proposals.push({
          field: {
            id: tag.alias ?? tag.type,
            type: tag.type,
            pageNum: tag.pageNum,
            rect: tag.rect,
            ...(tag.alias ? { alias: tag.alias } : {}),
          },
          source: 'tag',
          confidence: 0.97,
          ...(tag.label ? { label: tag.label, labelFrom: 'tag' as const } : {}),
          ...(tag.signerId ? { signerId: tag.signerId } : {}),
        });
      }
    } catch (e) {
      if (!(e instanceof TextTagError)) throw e;
      notes.push({ pageNum: page.pageNum, message: `Text tags skipped: ${e.message}` });
    }
  }
  const taken = (pageNum: number) => proposals.filter((p) => p.field.pageNum === pageNum);
  // A document with a form or tags has said where its fields are: its other pages are instructions.
  const readFlat = flat === 'always' || (flat === 'auto' && proposals.length === 0);
  for (const page of pages) {
    const others = taken(page.pageNum);
    if (!readFlat || !page.paths) continue;
    const { phrases: words, leaders } = phrasesOn(page.pageNum);
    const found = flatFields(shapesOf(page.paths, leaders), words, page.width, LIMITS.maxProposals).filter(
      (f) => !others.some((o) => overlapRatio(o.field.rect, f.rect) > 0.2),
    );
    proposals.push(...flatProposals(found, page.pageNum, words));
  }
  if (count > pages.length)
    notes.push({ pageNum: LIMITS.maxPages - 1, message: `Pages after the first ${LIMITS.maxPages} are not read` });
  if (pages.length === 0) throw new InvalidPdfError('The PDF has no page', property);
  return {
    pages: pages.map((p) => ({ width: p.width, height: p.height })),
    proposals: withNames(ordered(proposals)),
    notes,
  };
}

/** Page by page, top to bottom, then left to right (a stable order: same input, same ids). */
function ordered(proposals: FieldProposal[]): FieldProposal[] {
  return proposals
    .map((p, i) => ({ p, i }))
    .sort(
      (a, b) =>
        a.p.field.pageNum - b.p.field.pageNum ||
        a.p.field.rect.y - b.p.field.rect.y ||
        a.p.field.rect.x - b.p.field.rect.x ||
        a.i - b.i,
    )
    .map(({ p }) => p);
}

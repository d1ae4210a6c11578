/**
 * Difference analysis of a signature: the revision it signed against every later revision of the
 * file, each classified (diff-rules.ts), and held to what the document allows after it — the
 * DocMDP level of a certification signature at or before it (P=1 nothing but the DSS and document
 * timestamps, P=2 form filling and signing, P=3 also annotations), else form filling and signing
 * (an approval signature: ISO 32000-2 lets later signers fill and sign; an annotation after it is
 * flagged, as Acrobat and pyHanko's default policy do).
 */
import {
  XrefRevisions,
  readRevisionGraph,
  readRevisionGraphAfter,
  revisionEnds,
  type RevisionGraph,
  type RevisionWork,
} from '../../../pdf/index.js';
import { dictOf, nameOf, resolve, rolesOf, type ObjectRole } from './roles.js';
import { compareRevisions, LEVEL_RANK, type ChangeLevel, type ObjectChange } from './rules.js';

export type { ChangeLevel, ObjectChange } from './rules.js';

export interface RevisionReport {
  /** Offset just past the later revision's `%%EOF`. */
  end: number;
  /** The worst change in it, compared with the signed revision. */
  classification: ChangeLevel;
  /** The objects that changed (left out: those nothing in the document reaches). */
  changes: ObjectChange[];
}

export interface ModificationReport {
  /** Every later revision stays within what is allowed after this signature. */
  ok: boolean;
  /** The most that may change after this signature. */
  allowed: ChangeLevel;
  /** P of the certification signature (DocMDP) that governs this one, if any. */
  docMdp?: 1 | 2 | 3;
  /** This signature is a certification signature (its dictionary has a DocMDP reference). */
  certification: boolean;
  /** One entry per revision after the signed one, oldest first. */
  revisions: RevisionReport[];
  reason?: string;
}

/** Each revision of one file parsed once, and its objects' roles walked once, however many signatures compare with it. */
export class RevisionReader {
  readonly ends: number[];
  readonly #graphs = new Map<number, Promise<RevisionGraph>>();
  readonly #roles = new WeakMap<RevisionGraph, Map<string, ObjectRole>>();
  /** The same revisions read by their cross-reference sections (what a viewer that follows them shows). */
  readonly xref: XrefRevisions;
  /** What reading the revisions cost so far (bytes parsed, objects read): tests compare it at two sizes. */
  readonly work: RevisionWork = { bytesParsed: 0, objects: 0 };
  constructor(readonly bytes: Uint8Array) {
    this.ends = revisionEnds(bytes);
    this.xref = new XrefRevisions(bytes);
  }

  /**
   * The revision ending at `end`. Built on the nearest earlier revision already read, when there
   * is one: only the update between them is parsed (the signed revision is read whole once, each
   * later one costs its own update), so a signature followed by a DSS and a document timestamp is
   * one parse of the file, not three.
   */
  graph(end: number): Promise<RevisionGraph> {
    let g = this.#graphs.get(end);
    if (!g) {
      const before = [...this.#graphs.keys()].filter((e) => e < end).sort((a, b) => b - a)[0];
      g =
        before === undefined
          ? readRevisionGraph(this.bytes, end, this.work)
          : this.#graphs.get(before)!.then((base) => readRevisionGraphAfter(this.bytes, base, end, this.work));
      this.#graphs.set(end, g);
    }
    return g;
  }

  /** The roles of the objects of `g` (a graph this reader gave). */
  roles(g: RevisionGraph): Map<string, ObjectRole> {
    let r = this.#roles.get(g);
    if (!r) {
      r = rolesOf(g);
      this.#roles.set(g, r);
    }
    return r;
  }

  /** Whether `end` is just past a `%%EOF` marker (and its line end, if any). */
  endsRevision(end: number): boolean {
    const file = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    return /%%EOF(\r\n|\r|\n)?$/.test(file.toString('latin1', Math.max(0, end - 7), end));
  }

  /** Whether the bytes from `from` to `end` hold a cross-reference section (`startxref`), or no object at all. */
  bytesHaveSection(from: number, end: number): boolean {
    const file = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const at = file.indexOf('startxref', from, 'latin1');
    if (at >= 0 && at < end) return true;
    return !/\d+\s+\d+\s+obj\b/.test(file.toString('latin1', from, end));
  }

  /** Revisions ending after `end` with more than white space since the one before. */
  after(end: number): number[] {
    const file = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const out: number[] = [];
    let from = end;
    for (const e of this.ends) {
      if (e <= end) continue;
      if (file.toString('latin1', from, e).trim() !== '') out.push(e);
      from = e;
    }
    return out;
  }
}

/** The DocMDP P of the signature dictionary whose /ByteRange is `byteRange` in `g`, if it certifies. */
export function docMdpOf(g: RevisionGraph, byteRange: number[]): 1 | 2 | 3 | undefined {
  const key = JSON.stringify(byteRange);
  for (const obj of g.objects.values()) {
    const v = obj.value;
    if (v === null || typeof v !== 'object' || !('dict' in v)) continue;
    const range = resolve(g, v.dict.ByteRange);
    if (range === null || typeof range !== 'object' || !('array' in range) || JSON.stringify(range.array) !== key)
      continue;
    const refs = resolve(g, v.dict.Reference);
    for (const r of refs !== null && typeof refs === 'object' && refs !== undefined && 'array' in refs
      ? refs.array
      : []) {
      const ref = dictOf(g, r);
      if (nameOf(ref?.TransformMethod) !== 'DocMDP') continue;
      const p = resolve(g, dictOf(g, ref?.TransformParams)?.P);
      return p === 1 || p === 3 ? p : 2;
    }
    return undefined;
  }
  return undefined;
}

const ALLOWED: Record<1 | 2 | 3, ChangeLevel> = { 1: 'none', 2: 'formFillingAndSigning', 3: 'annotations' };

/**
 * The modification report of the signature whose revision ends at `signedEnd` (its byte range's
 * end); `docMdp` is the P of the certification signature governing it, if any.
 */
export async function analyseModifications(
  reader: RevisionReader,
  signedEnd: number,
  docMdp: 1 | 2 | 3 | undefined,
  certification: boolean,
  signerRevisions: ReadonlySet<number> = new Set(),
): Promise<ModificationReport> {
  try {
    return await analyse(reader, signedEnd, docMdp, certification, signerRevisions);
  } catch (e) {
    // Hostile structure must not crash verification: what cannot be analysed is not allowed.
    return {
      ok: false,
      allowed: ALLOWED[docMdp ?? 2],
      ...(docMdp !== undefined ? { docMdp } : {}),
      certification,
      revisions: [],
      reason: `Cannot analyse the later revisions: ${(e as Error).message}`,
    };
  }
}

async function analyse(
  reader: RevisionReader,
  signedEnd: number,
  docMdp: 1 | 2 | 3 | undefined,
  certification: boolean,
  signerRevisions: ReadonlySet<number>,
): Promise<ModificationReport> {
  const allowed = ALLOWED[docMdp ?? 2];
  const base = { allowed, ...(docMdp !== undefined ? { docMdp } : {}), certification };
  const signed = await reader.graph(signedEnd);
  if (signed.fatal || signed.root === undefined)
    return {
      ok: false,
      ...base,
      revisions: [],
      reason: `The signed revision cannot be read: ${signed.fatal ?? 'no catalog'}`,
    };
  const revisions: RevisionReport[] = [];
  const problems: string[] = [];
  if (!reader.endsRevision(signedEnd))
    problems.push(`the signed bytes end at byte ${signedEnd}, inside a revision, not after its %%EOF`);
  const signedX = reader.xref.graph(signedEnd);
  const laterX: RevisionGraph[] = [signedX];
  const later: RevisionGraph[] = [signed];
  let from = signedEnd;
  for (const end of reader.after(signedEnd)) {
    const g = await reader.graph(end);
    later.push(g);
    if (g.fatal) {
      revisions.push({ end, classification: 'other', changes: [] });
      problems.push(`the revision ending at byte ${end} cannot be read (${g.fatal})`);
      from = end;
      continue;
    }
    const changes = compareRevisions(signed, g, reader.roles(signed), reader.roles(g)).changes;
    const gx = reader.xref.graph(end);
    laterX.push(gx);
    // What a viewer that follows the cross-references shows: an entry re-pointed or freed is a change.
    if (!signedX.fatal) changes.push(...xrefChanges(reader, signedX, gx, end));
    if (!reader.bytesHaveSection(from, end))
      changes.push(structural(`${end}`, 'objects appended without a cross-reference section'));
    from = end;
    const unique = dedupe(changes).map((c) => signedFill(c, later, laterX, signerRevisions));
    let classification: ChangeLevel = 'none';
    for (const c of unique) if (LEVEL_RANK[c.level] > LEVEL_RANK[classification]) classification = c.level;
    revisions.push({ end, classification, changes: unique });
    const over = unique.filter((c) => LEVEL_RANK[c.level] > LEVEL_RANK[allowed] && !(docMdp === 1 && c.ltv));
    if (over.length)
      problems.push(`the revision ending at byte ${end} has changes beyond ${describe(allowed)}: ${summary(over)}`);
  }
  if (problems.length === 0) return { ok: true, ...base, revisions };
  return { ok: false, ...base, revisions, reason: `Changed after signing: ${problems.join('; ')}` };
}

function structural(object: string, what: string): ObjectChange {
  return { object, change: 'changed', role: 'document', level: 'other', what, ltv: false };
}

/** The changes a viewer following cross-references sees between the signed revision and `gx`. */
function xrefChanges(reader: RevisionReader, signedX: RevisionGraph, gx: RevisionGraph, end: number): ObjectChange[] {
  if (gx.fatal || gx.root === undefined)
    return [structural(`${end}`, `cross-reference data that cannot be followed (${gx.fatal ?? 'no catalog'})`)];
  const chain = (gx as { chain?: number[] }).chain ?? [];
  const signedStart = (signedX as { chain?: number[] }).chain?.[0];
  const out = compareRevisions(signedX, gx, reader.roles(signedX), reader.roles(gx)).changes;
  if (signedStart !== undefined && !chain.includes(signedStart))
    out.push(structural(`${end}`, "a cross-reference chain that skips the signed revision's section"));
  return out;
}

/** Each object's change once (the file-order and the cross-reference readings often agree). */
function dedupe(changes: ObjectChange[]): ObjectChange[] {
  const seen = new Map<string, ObjectChange>();
  for (const c of changes) {
    const key = `${c.object} ${c.what}`;
    const had = seen.get(key);
    if (!had || LEVEL_RANK[c.level] > LEVEL_RANK[had.level]) seen.set(key, c);
  }
  return [...seen.values()];
}

/**
 * A read-only field filled in a revision that a later signature covers (castpress's per-signer
 * marks: the signer's date and name fields, set before or with the signer's signature, which
 * vouches for them) is part of signing; filled where no signature follows (after the last one,
 * then at most a document timestamp, which adds time, never permission) it is a change no
 * DocMDP level allows.
 */
function signedFill(
  c: ObjectChange,
  graphs: RevisionGraph[],
  graphsX: RevisionGraph[],
  signerRevisions: ReadonlySet<number>,
): ObjectChange {
  if (!c.readOnly) return c;
  for (const list of [graphs, graphsX]) {
    const last = list.at(-1);
    const text = last?.objects.get(c.object)?.text;
    if (text === undefined) continue;
    let k = list.length - 1;
    while (k > 1 && list[k - 1]!.objects.get(c.object)?.text === text) k--;
    const written = list[k]!.end;
    if (![...signerRevisions].some((e) => e >= written)) return c;
  }
  return { ...c, level: FORM_LEVEL, what: `${c.what}, signed after` };
}

const FORM_LEVEL: ChangeLevel = 'formFillingAndSigning';

/** "page content added (10 0, 11 0, 12 0 and 2 more), …": each kind of change once, with a few of its objects. */
function summary(changes: ObjectChange[]): string {
  const byWhat = new Map<string, string[]>();
  for (const c of changes) byWhat.set(c.what, [...(byWhat.get(c.what) ?? []), c.object]);
  return [...byWhat]
    .map(
      ([what, objects]) =>
        `${what} (${objects.slice(0, 3).join(', ')}${objects.length > 3 ? ` and ${objects.length - 3} more` : ''})`,
    )
    .join(', ');
}

function describe(level: ChangeLevel): string {
  return {
    none: 'no changes',
    formFillingAndSigning: 'form filling and signing',
    annotations: 'form filling, signing and annotations',
    other: 'other changes',
  }[level];
}

/**
 * Workflow definitions from a folder, as `--templates` keeps templates: `<dir>/<name>/v1.json`,
 * `v2.json`… (every published version is kept, new runs take the latest) or a single
 * `<dir>/<name>.json` (version 1). Read and checked once, at start: a bad file stops the server
 * with a WorkflowDefinitionError naming it and the property.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FieldError } from '../../errors/index.js';
import { DEFAULT_ORGANIZATION } from '../../packets/index.js';
import { fieldType } from '../../fields/index.js';
import { toFieldErrors } from '../../schema/index.js';
import { workflowDefinition, type Workflow, type WorkflowDefinition } from './definition.js';
import { WorkflowDefinitionError } from './errors.js';
import { markdownPlaceProblems, placeholdersIn, valuePlaceProblems } from './placeholders.js';
import { EMAIL } from './values.js';

/** Pages of a workflow beside its forges (src/server/workflow-forms routes): no forge may have their slug. */
const RESERVED_SLUGS = new Set(['done', 'confirm']);

/** Cross-checks zod cannot make: unique forge eids/slugs and field names, placeholders and signers naming real forges. */
function checkDefinition(def: WorkflowDefinition): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  def.forges.forEach((f, i) => {
    if (RESERVED_SLUGS.has(f.slug))
      errors.push({ property: `forges[${i}].slug`, message: `"${f.slug}" names a page of every workflow` });
    for (const key of [`eid:${f.eid}`, `slug:${f.slug}`]) {
      if (seen.has(key))
        errors.push({
          property: `forges[${i}].${key.split(':')[0]}`,
          message: `Another forge has ${key.replace(':', ' ')}`,
        });
      seen.add(key);
    }
    const names = new Set<string>();
    f.fields.forEach((field, j) => {
      if (names.has(field.name))
        errors.push({
          property: `forges[${i}].fields[${j}].name`,
          message: `Another field of the forge is named ${field.name}`,
        });
      names.add(field.name);
      const problem = field.format === undefined ? undefined : fieldType(field.type).formatProblem?.(field.format);
      if (problem) errors.push({ property: `forges[${i}].fields[${j}].format`, message: problem });
    });
  });
  const forges = new Map(def.forges.map((f) => [f.slug, new Set(f.fields.map((x) => x.name))]));
  const refs = [...placeholdersIn(def.packet, 'packet'), ...placeholdersIn(def.displayTitle ?? '', 'displayTitle')];
  for (const ref of refs) {
    const fields = forges.get(ref.forge);
    if (!fields) errors.push({ property: ref.path, message: `No forge "${ref.forge}" in this workflow` });
    else if (!fields.has(ref.field))
      errors.push({ property: ref.path, message: `Forge "${ref.forge}" has no field "${ref.field}"` });
  }
  errors.push(...assigneeProblems(def));
  def.packet.signers.forEach((s, i) => {
    if (s.forge !== undefined && !forges.has(s.forge))
      errors.push({ property: `packet.signers[${i}].forge`, message: `No forge "${s.forge}" in this workflow` });
  });
  errors.push(...valuePlaceProblems(def.packet));
  return errors;
}

/**
 * Assignees: none on the public first forge; an email one is a fixed address or exactly one
 * placeholder of an earlier forge's `email` field (its value exists when the party's turn comes).
 */
function assigneeProblems(def: WorkflowDefinition): FieldError[] {
  const errors: FieldError[] = [];
  def.forges.forEach((f, i) => {
    const a = f.assignee;
    const property = `forges[${i}].assignee`;
    if (a === undefined) return;
    if (i === 0) {
      errors.push({ property, message: 'The first forge is public: whoever opens the workflow fills it' });
      return;
    }
    if (a === 'api') return;
    const refs = placeholdersIn(a.email, '');
    if (refs.length === 0) {
      if (!EMAIL.test(a.email))
        errors.push({
          property: `${property}.email`,
          message: 'An email address, or one {{forge.field}} of an email field',
        });
      return;
    }
    const [ref] = refs;
    const whole = refs.length === 1 && a.email.replace(/\s+/g, '') === `{{${ref!.forge}.${ref!.field}}}`;
    const earlier = def.forges.slice(0, i).find((x) => x.slug === ref!.forge);
    const field = whole ? earlier?.fields.find((x) => x.name === ref!.field) : undefined;
    if (field?.type !== 'email')
      errors.push({ property: `${property}.email`, message: `Not an email field of an earlier forge: ${a.email}` });
  });
  return errors;
}

/** Parses one definition file's text. */
export function parseWorkflow(text: string, file: string, version: number): Workflow {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new WorkflowDefinitionError(file, [{ property: '(file)', message: `Not JSON: ${(e as Error).message}` }]);
  }
  const r = workflowDefinition.safeParse(raw);
  if (!r.success) throw new WorkflowDefinitionError(file, toFieldErrors(r.error.issues));
  const problems = checkDefinition(r.data);
  if (problems.length) throw new WorkflowDefinitionError(file, problems);
  return { ...r.data, version, file };
}

/** The workflows a server serves: every version, found by eid or slug. */
export class WorkflowCatalogue {
  readonly #byEid = new Map<string, Map<number, Workflow>>();
  readonly #slugs = new Map<string, string>();

  constructor(workflows: readonly Workflow[]) {
    for (const w of workflows) {
      const versions = this.#byEid.get(w.eid) ?? new Map<number, Workflow>();
      this.#byEid.set(w.eid, versions);
      versions.set(w.version, w);
      const owner = this.#slugs.get(w.slug);
      if (owner !== undefined && owner !== w.eid)
        throw new WorkflowDefinitionError(w.file, [
          { property: 'slug', message: `Workflow ${owner} has slug "${w.slug}" too` },
        ]);
      this.#slugs.set(w.slug, w.eid);
    }
  }

  /** The latest version, or `version`. */
  get(eid: string, version?: number): Workflow | undefined {
    const versions = this.#byEid.get(eid);
    if (!versions) return undefined;
    return version === undefined ? versions.get(Math.max(...versions.keys())) : versions.get(version);
  }

  bySlug(slug: string): Workflow | undefined {
    const eid = this.#slugs.get(slug);
    return eid === undefined ? undefined : this.get(eid);
  }

  /** Every version of every workflow. */
  versions(): Workflow[] {
    return [...this.#byEid.values()].flatMap((v) => [...v.values()]);
  }

  /** The latest version of each workflow. */
  all(): Workflow[] {
    return [...this.#byEid.keys()].map((eid) => this.get(eid)!);
  }
}

/** The organization a workflow belongs to (`default` when its file names none). */
export const organizationOf = (w: Pick<WorkflowDefinition, 'organization'>): string =>
  w.organization ?? DEFAULT_ORGANIZATION;

/**
 * Every workflow's organization checked against the organizations the server knows (the `--org`
 * file's, else the keys file's): one unknown is a WorkflowDefinitionError naming the file and
 * `organization`, and the server does not start (a typo would make runs no key can see).
 */
export function checkOrganizations(
  catalogue: WorkflowCatalogue,
  known: (organization: string) => boolean,
  where: string,
): void {
  for (const w of catalogue.versions()) {
    const organization = organizationOf(w);
    if (!known(organization))
      throw new WorkflowDefinitionError(w.file, [
        { property: 'organization', message: `No organization "${organization}" in ${where}` },
      ]);
  }
}

/** parseWorkflow, then the checks that read Markdown (placeholders.ts `markdownPlaceProblems`). */
async function readWorkflow(file: string, version: number): Promise<Workflow> {
  const workflow = parseWorkflow(await readFile(file, 'utf8'), file, version);
  const problems = await markdownPlaceProblems(workflow.packet);
  if (problems.length) throw new WorkflowDefinitionError(file, problems);
  return workflow;
}

/** Reads every definition under `dir`. */
export async function loadWorkflows(dir: string): Promise<WorkflowCatalogue> {
  const found: Workflow[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch((e: unknown) => {
    throw new WorkflowDefinitionError(dir, [
      { property: '(folder)', message: `Cannot read the workflows folder: ${(e as Error).message}` },
    ]);
  });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name.endsWith('.json')) {
      found.push(await readWorkflow(full, 1));
    } else if (entry.isDirectory() || (entry.isSymbolicLink() && (await stat(full)).isDirectory())) {
      for (const name of await readdir(full)) {
        const m = /^v(\d{1,6})\.json$/.exec(name);
        if (m) found.push(await readWorkflow(path.join(full, name), Number(m[1])));
      }
    }
  }
  const catalogue = new WorkflowCatalogue(found);
  for (const w of found) {
    const latest = catalogue.get(w.eid)!;
    if (latest.file !== w.file && latest.version === w.version)
      throw new WorkflowDefinitionError(w.file, [
        { property: 'eid', message: `${latest.file} defines version ${w.version} of ${w.eid} too` },
      ]);
  }
  return catalogue;
}

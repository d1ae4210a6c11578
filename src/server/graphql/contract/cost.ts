/**
 * What one `/graphql` request may cost, as graphql's own validation rules: they
 * run inside `validate()`, so a refused request is a 400 before any resolver
 * (and so before any token is minted or packet made).
 *
 * - One root field per operation (aliases and fragments counted): a request is
 *   one operation, so every per-request limit (a development key's concurrency,
 *   the rate-limit headers) counts operations. Without it 900 aliased
 *   `generateEtchSignURL` minted 900 tokens in one request.
 * - Depth, total fields and aliases, counted with fragments expanded: a few
 *   fragments that spread each other several times would otherwise grow
 *   exponentially past the parser's token limit.
 * - Introspection (`__schema` and `__type` at the root) is counted apart, with
 *   limits of its own: its answer is bounded by the schema, not the store, and
 *   the standard introspection query (GraphiQL's, codegen's) is 14 levels deep
 *   by its type references alone. Its fields and depth are capped, and
 *   graphql's own MaxIntrospectionDepthRule refuses lists of types nested in
 *   lists of types (`fields { type { fields { type { fields` …), the one
 *   shape whose answer grows with the nesting.
 *
 * Why not a library: see ../README.md ("Cost is checked by our own validation rules").
 */
import {
  GraphQLError,
  Kind,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ASTNode,
  type FieldNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface GraphQLCostLimits {
  /** Root fields of one operation (query or mutation), aliases counted; `__typename` is free. */
  rootFields: number;
  /** Nested selection sets below the root (the packet schema's deepest path is 4: etchPacket.documentGroup.signers.signerTokens.eid). */
  depth: number;
  /** Fields of one operation with fragments expanded (the client's fullest selection has 30). */
  fields: number;
  /** Aliased fields of one operation with fragments expanded (the client sends none). */
  aliases: number;
  /**
   * Fields under `__schema` and `__type` with fragments expanded, those two included (not counted in
   * `fields`); graphql's getIntrospectionQuery selects 220, 230 with every option.
   */
  introspectionFields: number;
  /** Nested selection sets below `__schema` or `__type` (not counted in `depth`); the standard query's is 14. */
  introspectionDepth: number;
}

const DEFAULT_GRAPHQL_COST_LIMITS: Readonly<GraphQLCostLimits> = Object.freeze({
  rootFields: 1,
  depth: 8,
  fields: 200,
  aliases: 20,
  introspectionFields: 400,
  introspectionDepth: 20,
});

/** The root fields whose selections are introspection, counted apart. */
const INTROSPECTION_ROOTS: ReadonlySet<string> = new Set(['__schema', '__type']);

interface Cost {
  fields: number;
  aliases: number;
  /** Levels of selection sets, this one included. */
  depth: number;
  introspectionFields: number;
  /** The deepest `__schema` or `__type` selection: its levels, that field's own set included. */
  introspectionDepth: number;
}

const ZERO: Cost = { fields: 0, aliases: 0, depth: 0, introspectionFields: 0, introspectionDepth: 0 };

/** Saturating: the totals only need to be compared with small limits. */
const add = (a: number, b: number) => Math.min(a + b, Number.MAX_SAFE_INTEGER);

/**
 * Counts a selection set with fragments expanded. Each fragment is counted once
 * and its cost reused (so the work is linear in the document, however often a
 * fragment is spread); a fragment reached again while it is being counted is a
 * cycle, which `NoFragmentCyclesRule` reports, and counts nothing here.
 */
class CostCounter {
  readonly #fragments = new Map<string, Cost | 'counting'>();
  readonly #context: ValidationContext;

  constructor(context: ValidationContext) {
    this.#context = context;
  }

  /**
   * `atRoot`: the operation's own selection set (or a fragment spread in it), where `__schema` and
   * `__type` are introspection; anywhere else they are fields like any other.
   */
  selectionSet(set: SelectionSetNode, atRoot = false): Cost {
    let fields = 0;
    let aliases = 0;
    let inner = 0;
    let introspectionFields = 0;
    let introspectionDepth = 0;
    for (const s of set.selections) {
      let c: Cost;
      if (s.kind === Kind.FIELD) {
        const sub = s.selectionSet ? this.selectionSet(s.selectionSet) : ZERO;
        const alias = (s.alias ? 1 : 0) + sub.aliases;
        c =
          atRoot && INTROSPECTION_ROOTS.has(s.name.value)
            ? { ...ZERO, aliases: alias, introspectionFields: add(1, sub.fields), introspectionDepth: sub.depth }
            : { ...sub, fields: add(1, sub.fields), aliases: alias };
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        c = this.selectionSet(s.selectionSet, atRoot);
        c = { ...c, depth: c.depth - 1 }; // an inline fragment is no level of its own
      } else {
        c = this.#fragment(s.name.value, atRoot);
      }
      fields = add(fields, c.fields);
      aliases = add(aliases, c.aliases);
      inner = Math.max(inner, c.depth);
      introspectionFields = add(introspectionFields, c.introspectionFields);
      introspectionDepth = Math.max(introspectionDepth, c.introspectionDepth);
    }
    return { fields, aliases, depth: 1 + inner, introspectionFields, introspectionDepth };
  }

  #fragment(name: string, atRoot: boolean): Cost {
    // A fragment spread at the root and below it counts differently: one entry for each.
    const key = `${atRoot ? 'root' : 'nested'} ${name}`;
    const known = this.#fragments.get(key);
    if (known === 'counting') return ZERO;
    if (known) return known;
    const def = this.#context.getFragment(name);
    if (!def) return ZERO; // KnownFragmentNamesRule reports it
    this.#fragments.set(key, 'counting');
    const c = this.selectionSet(def.selectionSet, atRoot);
    const cost = { ...c, depth: c.depth - 1 }; // spread in place: no level of its own
    this.#fragments.set(key, cost);
    return cost;
  }

  /** The root fields of an operation, aliases counted, through inline fragments and spreads. */
  rootFields(set: SelectionSetNode, seen = new Set<string>()): FieldNode[] {
    const out: FieldNode[] = [];
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value !== '__typename') out.push(s);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        out.push(...this.rootFields(s.selectionSet, seen));
      } else if (!seen.has(s.name.value)) {
        // Spreading one fragment twice gives the same fields twice, which graphql merges: count it once.
        seen.add(s.name.value);
        const def = this.#context.getFragment(s.name.value);
        if (def) out.push(...this.rootFields(def.selectionSet, seen));
      }
    }
    return out;
  }
}

function refuse(context: ValidationContext, message: string, nodes: ASTNode | readonly ASTNode[]): void {
  context.reportError(new GraphQLError(message, { nodes }));
}

/** The rules to add to `validate()`; limits default to `DEFAULT_GRAPHQL_COST_LIMITS`. */
function costRules(limits: Partial<GraphQLCostLimits> = {}): ValidationRule[] {
  const max: GraphQLCostLimits = { ...DEFAULT_GRAPHQL_COST_LIMITS, ...limits };
  const rule: ValidationRule = (context) => {
    const counter = new CostCounter(context);
    return {
      OperationDefinition(op) {
        const kind = op.operation;
        const roots = counter.rootFields(op.selectionSet);
        if (roots.length > max.rootFields) {
          const names = [...new Set(roots.map((f) => f.name.value))].join(', ');
          refuse(
            context,
            `A request runs at most ${max.rootFields} ${kind} field${max.rootFields === 1 ? '' : 's'} (aliases counted); this ${kind} has ${roots.length} (${names}): send one request per operation`,
            roots.slice(max.rootFields, max.rootFields + 1),
          );
        }
        const cost = counter.selectionSet(op.selectionSet, true);
        // The root selection set is level 0: depth counts the levels below it.
        if (cost.depth - 1 > max.depth)
          refuse(context, `The ${kind} is nested ${cost.depth - 1} levels deep; at most ${max.depth}`, op);
        if (cost.fields > max.fields)
          refuse(context, `The ${kind} selects ${cost.fields} fields (fragments expanded); at most ${max.fields}`, op);
        if (cost.aliases > max.aliases)
          refuse(
            context,
            `The ${kind} has ${cost.aliases} aliased fields (fragments expanded); at most ${max.aliases}`,
            op,
          );
        // The `__schema` or `__type` field's own selection set is its level 1, as the root's children are.
        if (cost.introspectionDepth > max.introspectionDepth)
          refuse(
            context,
            `The ${kind}'s introspection is nested ${cost.introspectionDepth} levels deep; at most ${max.introspectionDepth}`,
            op,
          );
        if (cost.introspectionFields > max.introspectionFields)
          refuse(
            context,
            `The ${kind}'s introspection selects ${cost.introspectionFields} fields (fragments expanded); at most ${max.introspectionFields}`,
            op,
          );
      },
    };
  };
  return [rule];
}

/** The cost rules' errors; graphql's own rules are to run only when there are none (see `runGraphQL`). */
export function costErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  limits: Partial<GraphQLCostLimits> = {},
): readonly GraphQLError[] {
  return validate(schema, document, costRules(limits));
}

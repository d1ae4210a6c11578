/**
 * Variables against the schema's input types. The hosted API's clients declare `$signers: [JSON!]`
 * (the hosted schema takes JSON there) while castpress's argument is `[EtchSigner!]`: a variable
 * declared with `JSON` and used only where one input type is expected takes that type, so the
 * clients' query text validates and their values are checked as the typed input. Values are then
 * checked by graphql's own input coercion, each problem named by its property path
 * (`signers[0].emial`) in castpress's error form, before anything runs.
 */
import {
  coerceInputValue,
  getNamedType,
  getOperationAST,
  GraphQLError,
  isInputObjectType,
  isInputType,
  Kind,
  TypeInfo,
  typeFromAST,
  ValidationContext,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type TypeNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { FieldError } from '../../../errors/index.js';
import { formatPath } from '../../../schema/index.js';

/** The scalar the hosted API's clients declare for arguments castpress types. */
const JSON_SCALAR = 'JSON';

function namedTypeOf(node: TypeNode): NamedTypeNode {
  return node.kind === Kind.NAMED_TYPE ? node : namedTypeOf(node.type);
}

/** For each variable of `operation`, the input object types its uses expect ('' for a use that is not one). */
function expectedTypes(context: ValidationContext, operation: OperationDefinitionNode): Map<string, Set<string>> {
  const byName = new Map<string, Set<string>>();
  for (const usage of context.getRecursiveVariableUsages(operation)) {
    const named = usage.type ? getNamedType(usage.type) : undefined;
    const name = usage.node.name.value;
    const expected = byName.get(name) ?? new Set<string>();
    expected.add(named && isInputObjectType(named) ? named.name : '');
    byName.set(name, expected);
  }
  return byName;
}

/**
 * The document with each `JSON`-declared variable that feeds only one input object type declared
 * as that type (its list and non-null wrappers kept), so graphql's own rules and coercion check it.
 * Any other document is returned as it is; validation reports whatever does not fit.
 */
export function adoptTypedVariables(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const context = new ValidationContext(schema, document, new TypeInfo(schema), () => undefined);
  const retyped = new Map<VariableDefinitionNode, string>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const declaredJson = (definition.variableDefinitions ?? []).filter(
      (v) => namedTypeOf(v.type).name.value === JSON_SCALAR,
    );
    if (declaredJson.length === 0) continue;
    const expected = expectedTypes(context, definition);
    for (const variable of declaredJson) {
      const [only, ...others] = expected.get(variable.variable.name.value) ?? [];
      if (only && others.length === 0) retyped.set(variable, only);
    }
  }
  if (retyped.size === 0) return document;
  return visit(document, {
    VariableDefinition(node) {
      const typed = retyped.get(node);
      if (!typed) return undefined;
      const type = visit(node.type, { NamedType: (named) => ({ ...named, name: { ...named.name, value: typed } }) });
      return { ...node, type };
    },
  });
}

const MESSAGE_CHARS = 300;
/** As graphql's own variable coercion: a list of 10,000 bad signers is answered with the first problems. */
const MAX_ERRORS = 50;

/** graphql names an unknown or missing key at its object's path; the property is the key itself. */
const KEY_OF_OBJECT = /^Field "([^"]+)" (?:is not defined by type|of required type)/;

/** graphql quotes a value it cannot coerce whole: a base64 file where a number belongs would come back entire. */
function bounded(message: string): string {
  return message.length <= MESSAGE_CHARS ? message : `${message.slice(0, MESSAGE_CHARS)}…`;
}

/**
 * Every variable value of the operation checked against its declared type by graphql's input
 * coercion: one error per problem (the first MAX_ERRORS), `fields[0].property` its path. A variable
 * that is not sent is left to `execute` (which names a missing required one).
 */
export function variableErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  values: Record<string, unknown>,
): GraphQLError[] {
  const operation = getOperationAST(document, operationName);
  const errors: GraphQLError[] = [];
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type) || !Object.hasOwn(values, name) || values[name] === undefined) continue;
    coerceInputValue(values[name], type, (path, _value, error) => {
      if (errors.length >= MAX_ERRORS) return;
      const key = KEY_OF_OBJECT.exec(error.message)?.[1];
      const field: FieldError = {
        property: formatPath([name, ...path, ...(key !== undefined ? [key] : [])]),
        message: bounded(error.message),
      };
      errors.push(
        new GraphQLError(`${field.property}: ${field.message}`, {
          nodes: definition,
          extensions: { fields: [field] },
        }),
      );
    });
  }
  return errors;
}

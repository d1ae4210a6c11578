/** The GraphQL schema and what a request is checked against before it runs: its cost, its variables. */
export { packetSchema } from './schema.js';
export { costErrors } from './cost.js';
export type { GraphQLCostLimits } from './cost.js';
export { adoptTypedVariables, variableErrors } from './variables.js';

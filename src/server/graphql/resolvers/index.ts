/** Running one GraphQL request: the operations' resolvers over the packet, workflow and template services. */
export { runGraphQL } from './execute.js';
export type { GraphQLChecks, GraphQLRequestBody, GraphQLResponse } from './execute.js';
export { castResolvers } from './casts.js';
export type { CastCaller, CastOperations, CastResolvers } from './casts.js';

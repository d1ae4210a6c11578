/**
 * Node's network modules, loaded on first use rather than when this folder is imported: every
 * engine imports the resolver, and most processes never fetch (a `castpress fill` of a local
 * template). Loading http, https (with tls), dns and net up front was ~1 % of a cold fill's main
 * thread (bench/results/HISTORY.md). `process.getBuiltinModule` is synchronous (Node 20.16+;
 * this package needs 20.19) and returns the one instance Node keeps of each module.
 */
export const net = (): typeof import('node:net') => process.getBuiltinModule('node:net');

export const dns = (): typeof import('node:dns/promises') => process.getBuiltinModule('node:dns/promises');

/** The client module for an http: or https: URL. */
export const httpClient = (protocol: string): typeof import('node:http') | typeof import('node:https') =>
  protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');

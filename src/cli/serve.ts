import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  cspOrigin,
  DEFAULT_DATA_DIR,
  parseFormRateLimits,
  parseHostPort,
  startServer,
  tsaUrlOf,
} from '../server/index.js';
import { FontRegistry } from '../fonts/index.js';
import { FETCH_FLAGS, fetchOptions, STRICT_FETCH_FLAG } from './fetch-flags.js';
import { FONT_FLAGS, fontOptions } from './font-flags.js';
import { SERVE_USAGE } from './usage.js';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

export async function serve(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      templates: { type: 'string' },
      workflows: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      keys: { type: 'string' },
      'no-auth': { type: 'boolean' },
      'public-url': { type: 'string' },
      'private-key': { type: 'string' },
      'log-level': { type: 'string' },
      data: { type: 'string' },
      postgres: { type: 'string' },
      smtp: { type: 'string' },
      'frame-ancestor': { type: 'string', multiple: true },
      'stylesheet-origin': { type: 'string', multiple: true },
      org: { type: 'string' },
      'font-catalogue': { type: 'string' },
      metrics: { type: 'boolean' },
      'metrics-token-file': { type: 'string' },
      'signing-p12': { type: 'string' },
      'signing-p12-passphrase-env': { type: 'string' },
      'signing-p12-passphrase-file': { type: 'string' },
      tsa: { type: 'string' },
      signatures: { type: 'string' },
      'form-rate-limit': { type: 'string' },
      'trust-proxy': { type: 'string', multiple: true },
      'signature-details': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...FETCH_FLAGS,
      ...STRICT_FETCH_FLAG,
      ...FONT_FLAGS,
    },
    strict: true,
  });
  if (values.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`--port must be 0..65535, got ${values.port}`);
  const level = values['log-level'] ?? 'info';
  if (level !== 'silent' && !(LEVELS as readonly string[]).includes(level))
    throw new Error(`--log-level must be one of ${LEVELS.join(', ')}, silent`);
  if (values.smtp) parseHostPort(values.smtp, '--smtp');
  for (const o of values['frame-ancestor'] ?? []) cspOrigin(o, '--frame-ancestor');
  for (const o of values['stylesheet-origin'] ?? []) cspOrigin(o, '--stylesheet-origin');
  const privateKey = values['private-key'] ? await readFile(values['private-key'], 'utf8') : undefined;
  const catalogueUrl = values['font-catalogue'];
  if (catalogueUrl !== undefined && !/^https?:\/\/[^/]/i.test(catalogueUrl))
    throw new Error(`--font-catalogue must be an http(s) URL, got ${catalogueUrl}`);
  // The token from a file, not the command line (which `ps` shows to every user of the machine).
  const metricsToken = values['metrics-token-file']
    ? (await readFile(values['metrics-token-file'], 'utf8')).trim()
    : undefined;
  if (values['metrics-token-file'] && !metricsToken) throw new Error('--metrics-token-file is empty');
  if (metricsToken && !values.metrics) throw new Error('--metrics-token-file needs --metrics');
  const signingP12 = await signingP12Of(values);
  // `local` or an http(s) URL, reached through the resolver's address check with --allow-host.
  const tsa = values.tsa === undefined || values.tsa === 'local' ? values.tsa : tsaUrlOf(values.tsa);
  const signatures = values.signatures;
  if (signatures !== undefined && signatures !== 'per-signer' && signatures !== 'seal')
    throw new Error(`--signatures takes "per-signer" or "seal", got ${signatures}`);
  const formRateLimit = values['form-rate-limit'] ? parseFormRateLimits(values['form-rate-limit']) : undefined;
  const fonts = fontOptions(values);
  const fontCatalogue = catalogueUrl
    ? { url: catalogueUrl, cacheDir: path.resolve(values.data ?? DEFAULT_DATA_DIR, 'font-cache') }
    : undefined;
  const server = await startServer({
    templates: values.templates,
    workflows: values.workflows,
    port,
    host: values.host,
    keysFile: values.keys,
    noAuth: values['no-auth'] ?? false,
    publicUrl: values['public-url'],
    logger: level === 'silent' ? false : (level as (typeof LEVELS)[number]),
    handleSignals: true,
    engine: {
      ...(privateKey ? { privateKey } : {}),
      ...(fontCatalogue ? { fontCatalogue } : {}),
      ...(fonts ? { fonts } : {}),
    },
    // One list of allowed hosts for fetching and for webhook delivery: both pass the same address check.
    fetch: fetchOptions(values),
    strictResources: values['strict-fetch'] ?? false,
    packets: {
      dataDir: values.data,
      postgres: values.postgres,
      smtp: values.smtp,
      allowHosts: values['allow-host'],
      ...(signingP12 ? { signingP12 } : {}),
      ...(tsa ? { tsa } : {}),
      ...(signatures ? { signatures } : {}),
      ...(values['signature-details'] ? { signatureDetails: true } : {}),
    },
    signingFrameAncestors: values['frame-ancestor'],
    signingStylesheetOrigins: values['stylesheet-origin'],
    ...(values.org ? { organizations: values.org } : {}),
    metrics: values.metrics ? { token: metricsToken } : false,
    ...(formRateLimit ? { formRateLimit } : {}),
    ...(values['trust-proxy'] ? { trustProxy: values['trust-proxy'] } : {}),
  });
  // The one plain line, on stderr, for whoever started the server (scripts wait for it); stdout is
  // the JSON log, where the logger announces the same address.
  console.error(`castpress listening on ${server.url}`);
  // Start-up diagnostic through the log (a plain line would break a reader of the JSON lines): faces
  // the engine picks by itself that this machine lacks (requests that need one fail with the same
  // message; nothing is drawn with a substitute).
  for (const missing of new FontRegistry().missingEngineFaces()) server.app.log.warn(missing.message);
  return -1;
}

/**
 * `--signing-p12 FILE` with its passphrase from an environment variable or a file: never from the
 * command line, which `ps` shows to every user of the machine.
 */
async function signingP12Of(values: {
  'signing-p12'?: string;
  'signing-p12-passphrase-env'?: string;
  'signing-p12-passphrase-file'?: string;
}): Promise<{ pkcs12: Uint8Array; passphrase: string } | undefined> {
  const file = values['signing-p12'];
  const env = values['signing-p12-passphrase-env'];
  const passFile = values['signing-p12-passphrase-file'];
  if (!file) {
    if (env !== undefined || passFile !== undefined) throw new Error('--signing-p12-passphrase-* needs --signing-p12');
    return undefined;
  }
  if ((env === undefined) === (passFile === undefined))
    throw new Error(
      '--signing-p12 needs exactly one of --signing-p12-passphrase-env NAME or --signing-p12-passphrase-file FILE',
    );
  let passphrase: string;
  if (env !== undefined) {
    const value = process.env[env];
    if (value === undefined)
      throw new Error(`--signing-p12-passphrase-env: the environment variable ${env} is not set`);
    passphrase = value;
  } else {
    passphrase = (await readFile(passFile!, 'utf8')).split(/\r?\n/)[0] ?? '';
  }
  return { pkcs12: new Uint8Array(await readFile(file)), passphrase };
}

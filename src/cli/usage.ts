/**
 * Every command's usage text, in a module that imports nothing heavy: `castpress --help`,
 * `castpress help CMD` and an unknown command print these without loading any command
 * (each command module loads the engine, the batch pool or the server).
 */
import os from 'node:os';

/** The queue name `castpress batch --queue` and `castpress worker` use by default (src/batch's DEFAULT_QUEUE_NAME; test/cli-startup.test.ts keeps them equal). */
const DEFAULT_QUEUE_NAME = 'castpress';

const FETCH_USAGE = `  --no-fetch        load no http(s) URL (images, logo, stylesheets, fonts); data: URLs still load
  --allow-host H[:P] let this host (optionally only this port) through the public-address check; repeatable`;

const STRICT_FETCH_USAGE = `  --strict-fetch    a remote resource that does not load is an error (exit 2, no PDF) instead of a warning on stderr`;

const FONT_USAGE = `  --font-dir DIR    also find font families in DIR (.ttf, .otf, .ttc, .woff, .woff2, sub-folders too); repeatable
  --font-package P  an npm font package folder (@fontsource/<name>) or a node_modules holding them; repeatable`;

export const FILL_USAGE = `castpress fill TEMPLATE DATA.json [-o out.pdf]

  TEMPLATE          a template JSON file ({pdf, fields, style?}), a fillable PDF
                    (its AcroForm fields become the template), or an EID with --templates
  DATA.json         the fill request body ({data, title?, fontSize?, ...}); "-" reads stdin
  -o, --output F    the PDF to write (default: stdout when it is not a terminal)
  --templates DIR   template directory for EIDs
  --version N       template version for EIDs (-1: working version)
  --strict          a data key that names no field is an error (exit 2, no PDF) instead of a warning on stderr
${FETCH_USAGE}
${STRICT_FETCH_USAGE}
${FONT_USAGE}`;

export const GENERATE_USAGE = `castpress generate REQUEST.json [-o out.pdf]

  REQUEST.json      the generate-pdf request body (Markdown blocks, or {type: "html", data: {html, css}}); "-" reads stdin
  -o, --output F    the PDF to write (default: stdout when it is not a terminal)
${FETCH_USAGE}
${STRICT_FETCH_USAGE}
${FONT_USAGE}`;

export const IMPORT_USAGE = `castpress import-template FORM.pdf [-o template.json] [--eid EID]

  Turns a fillable PDF's AcroForm fields into a template: writes the template JSON
  (fields with rects, types, aliases = field names) next to a copy of the PDF it
  refers to, ready for \`castpress fill template.json data.json\`.
  -o, --output F    the template JSON (default: FORM.template.json in the current folder,
                    never beside the source PDF, which may be read-only)
  --eid EID         the template's EID (default: the PDF's file name)

  To feed \`castpress serve --templates templates\`: -o templates/<eid>/v1.json`;

export const BATCH_USAGE = `castpress batch JOBS.jsonl --out DIR [--workers N] [--templates DIR] [--no-resume]
castpress batch JOBS.jsonl --queue redis://HOST:PORT/DB --out DIR [--name QUEUE] [--attempts N]

  One job per line: {"id"?, "kind"?: "fill"|"generate", "template"?: "form.json"|"form.pdf"|EID,
  "versionNumber"?, "request": {...}, "output"?: "name.pdf"}. Good jobs write DIR/<output|id|line-N>.pdf,
  failed ones are listed in DIR/errors.jsonl with their line number and typed error. Re-running resumes:
  lines whose output exists are skipped (--no-resume redoes everything).
  --workers N       worker threads (default: one per core, ${os.availableParallelism()} here)
  --queue URL       put the lines on a BullMQ queue in Redis instead, for \`castpress worker\` processes on
                    any number of machines; shows progress until every job is done or failed, then writes
                    DIR/errors.jsonl. Job ids come from the file's content and line: running it again adds nothing.
  --name QUEUE      queue name (default "${DEFAULT_QUEUE_NAME}")
  --attempts N      runs of a job that crashes or times out, with exponential back-off (default 4);
                    a typed error (bad input) fails the job at once`;

export const WORKER_USAGE = `castpress worker --queue redis://HOST:PORT/DB --out DIR [--concurrency N] [--name QUEUE] [--templates DIR]
                 [--timeout MS] [--lock MS] [--stalled MS]

  Takes jobs that \`castpress batch --queue\` put on the queue and writes DIR/<output|id|line-N>.pdf
  atomically (DIR: the shared output folder). Run it on as many machines as you like.
  --concurrency N   engine threads (default 1), each with two jobs in flight
  --name QUEUE      queue name (default "${DEFAULT_QUEUE_NAME}")
  --timeout MS      a job rendering longer is abandoned and retried (default 120000)
  --lock, --stalled BullMQ lock duration and stalled-job check: a killed worker's jobs are
                    taken over after about this long (defaults 30000 / 30000)
  SIGTERM or SIGINT: stop taking jobs, finish the running ones, exit 0.`;

export const SERVE_USAGE = `castpress serve [options]

  --templates DIR   template directory (one folder per EID: template.pdf, v1.json…, working.json)
  --workflows DIR   workflow definitions (Welds: <name>.json or <name>/v1.json, v2.json…), forms at /weld/<slug>
  --port N          default 8080 (0 picks a free port)
  --host H          default 127.0.0.1
  --keys FILE       API keys (JSON: {"keys":[{"key":"…","kind":"development"|"production"}]})
  --no-auth         accept every request as a production key (no keys file)
  --public-url URL  base of signed download links (default: the request's Host)
  --private-key F   PEM private key for RSA-encrypted \`data\` strings
  --log-level L     fatal|error|warn|info|debug|trace|silent (default info)
${FETCH_USAGE} (also webhooks)
  --strict-fetch    a remote resource that does not load is a 400 on its property (default: a warning header)
  --data DIR        signature packets: SQLite store, .eml mail outbox, signing certificate (default ./castpress-data)
  --postgres URL    keep packets in PostgreSQL instead of DIR/packets
  --smtp HOST:PORT  send packet emails through this SMTP relay instead of DIR/mail/*.eml
  --frame-ancestor ORIGIN     an origin (https://app.example) allowed to frame castpress's pages; repeatable.
                              Embeddable pages (embedded signing, workflow forms): any origin unless
                              listed here or by --org
  --stylesheet-origin ORIGIN  an origin a packet's signaturePageOptions.style.stylesheetURL may load from
                              (besides this server's own); repeatable. Default: any https origin
  --org FILE                  organization settings (JSON; docs/reference/organization.md): name, support email,
                              logo, signer defaults, webhook {url, token, hmacSecret}, style, formRateLimit,
                              timestampAuthority, embedOrigins, stylesheetOrigins; or
                              {"organizations": {"<keys file org>": {...}}}. Reloaded when the file changes
                              and on SIGHUP (a bad file keeps the settings in force); GET/PUT /api/organization
  --font-catalogue URL        font families requests name and nothing installed has are looked up in a
                              catalogue laid out like the Google Fonts repository (URL/ofl/<family>/METADATA.pb),
                              fetched like every remote resource and kept in DIR/font-cache (--data)
  --metrics                   serve Prometheus metrics at GET /metrics (GET /health and /ready are always served)
  --metrics-token-file FILE   /metrics asks for \`Authorization: Bearer <the file's token>\` (with --metrics)
  --signing-p12 FILE          seal completed packets with this PKCS#12 identity (the operator's) instead of the
                              local CA; checked at start (key usage for signing, not TLS-only, within validity)
  --signing-p12-passphrase-env NAME   its passphrase from this environment variable (never on the command line)
  --signing-p12-passphrase-file FILE  ... or from this file (first line)
  --tsa local                 timestamp every seal with the built-in TSA of the local CA (B-LTA with the local CA;
                              proves order and the CA's clock, not the operator's honesty) and serve it at
                              POST /tsa (application/timestamp-query, API key). The local CA's CRL is served at
                              GET /signing/crl/<install id>.crl either way
  --tsa URL                   timestamp every completion seal with this RFC 3161 TSA (http or https), reached
                              through the same address check as fetching: a TSA on loopback or a private
                              address needs --allow-host HOST:PORT
  --signatures MODE           how packets are signed: \`seal\` (default: one seal of the operator at completion)
                              or \`per-signer\` (each signer's own signature with a certificate from the local CA,
                              then the seal; the certificate of completion a separate sealed file)
  --form-rate-limit SPEC      throttles of the workflow forms, e.g. address=10,form=60,organization=300,views=120,window=60
                              (those are the defaults: posts per client address, per workflow, per organization,
                              form pages per address, per window of that many seconds); over one: 429 with Retry-After
  --trust-proxy ADDR          a reverse proxy (address or CIDR) whose X-Forwarded-For/-Proto/-Host are believed, so
                              the client's address is the one rate limits and the audit trail see; repeatable
  --signature-details         per-signer: each signature box shows, under the mark, who signed, when (UTC) and
                              the SHA-256 fingerprint of the signature's certificate (a visible signature)
${FONT_USAGE}`;

export const VERIFY_USAGE = `castpress verify FILE.pdf [--trust root.pem ...] [--json]

  Checks every signature of FILE.pdf: integrity, trust (a chain to a --trust root, valid at the
  signing time, a key usage for signing), its PAdES level, and what each later revision changed
  (none / form filling and signing / annotations / other). Exit 0 only when every signature is
  valid and the last covers the whole file; 1 otherwise; 2 for a wrong command line or a file
  that is not a PDF. Nothing is trusted without --trust (no system store).
  --trust FILE   a trusted root certificate (PEM, several allowed; repeatable), e.g. the local
                 CA's <data-dir>/signing/root-ca.pem
  --json         print the full report as JSON on stdout`;

/**
 * deploy/: what an operator runs. Always (cheap): the compose file read as YAML and checked against
 * the image and the server (services, ports, health checks, volumes, the secret, the database and
 * queue addresses), and every flag the compose file, the image and the systemd unit give castpress
 * accepted by the command itself; the unit through `systemd-analyze verify` where it is installed.
 *
 * With CASTPRESS_CONTAINER_TEST=1: deploy/Containerfile built with podman (no registry: the base
 * image comes from deploy/make-base-image.sh when it is not there), then run as compose runs it
 * (read-only root, a tmpfs /tmp, no capabilities, no new privileges, the keys file mounted; /proc
 * unmasked for DOCX uploads, as the guide says for podman) on a
 * private loopback port, its packets in a PostgreSQL server and its queue in a Redis server that
 * this test starts on the host's loopback (reached from the container through slirp4netns), and
 * driven with `@anvilco/anvil`: fill, Markdown, HTML (Chromium and the CJK fonts inside), a DOCX
 * upload (LibreOffice in bubblewrap inside), a batch job taken by `castpress worker` in a second
 * container, and a graceful stop. The build takes minutes of apt and npm, so it is not part of the
 * suite; it prints its figures (build time, image size).
 */
import { execFile, type ExecFileOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import anvilModule from '@anvilco/anvil';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { repoRoot, runCastpress } from './helpers/cli.js';
import { buildDocx } from './helpers/docx.js';
import { pageText, pdffonts } from './helpers/pdf.js';
import { PostgresServer } from './helpers/postgres.js';
import { freePort, RedisServer } from './helpers/redis.js';
import { tempDir } from './helpers/signing.js';

const Anvil = anvilModule.default;
const deployDir = path.join(repoRoot, 'deploy');
const CONTAINER_TEST = process.env.CASTPRESS_CONTAINER_TEST === '1';

// ---------------------------------------------------------------------------------------------
// The files as written.

type Yaml = Record<string, unknown>;
const obj = (v: unknown): Yaml => {
  expect(v, 'an object').toBeTypeOf('object');
  return v as Yaml;
};

/** Compose's variable interpolation as `docker compose config` does it, with every variable unset. */
function interpolate(value: string): string {
  return value.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?::?([-?])([^}]*))?\}/g,
    (_m, name: string, op?: string, arg?: string) => (op === '-' ? (arg ?? '') : op === '?' ? `<${name}>` : ''),
  );
}

function composeCommand(service: Yaml): string[] {
  const command = service.command;
  expect(Array.isArray(command), 'command is a list (no shell splitting)').toBe(true);
  return (command as unknown[]).map((a) => interpolate(String(a)));
}

/** The value after `flag` in an argument list (the last one, as the parser takes it). */
function flagValue(args: readonly string[], flag: string): string | undefined {
  const at = args.lastIndexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
}

/** Instructions of the Containerfile whose argument is a JSON array (exec form). */
function execForm(containerfile: string, instruction: string): string[] {
  const m = new RegExp(`^${instruction}\\s+(\\[.*\\])\\s*$`, 'm').exec(containerfile);
  expect(m, `${instruction} in exec form`).not.toBeNull();
  return JSON.parse(m![1]!) as string[];
}

/** ExecStart of the unit, continuation lines joined, split into words (it has no quoting). */
function unitExecStart(unit: string): string[] {
  const joined = unit.replace(/\\\n/g, ' ');
  const m = /^ExecStart=(.*)$/m.exec(joined);
  expect(m).not.toBeNull();
  return m![1]!.trim().split(/\s+/);
}

/** `castpress <command> ARGS --help`: exit 0 only when the command's parser accepts every flag. */
async function acceptedBy(command: 'serve' | 'worker', args: string[]): Promise<void> {
  const r = await runCastpress([command, ...args, '--help'], repoRoot);
  expect(r.stderr, `castpress ${command} ${args.join(' ')}`).toBe('');
  expect(r.code).toBe(0);
}

describe('deploy/compose.yaml, deploy/Containerfile and deploy/castpress.service as written', () => {
  let compose: Yaml;
  let services: Yaml;
  let containerfile: string;

  beforeAll(async () => {
    compose = obj(parseYaml(await readFile(path.join(deployDir, 'compose.yaml'), 'utf8')));
    services = obj(compose.services);
    containerfile = await readFile(path.join(deployDir, 'Containerfile'), 'utf8');
  });

  it('compose: the server, its worker, PostgreSQL and Redis, each with a health check', () => {
    expect(Object.keys(services).sort()).toEqual(['castpress', 'postgres', 'redis', 'worker']);
    const castpress = obj(services.castpress);
    const build = obj(castpress.build);
    expect(existsSync(path.resolve(deployDir, String(build.context), String(build.dockerfile)))).toBe(true);
    expect(obj(services.worker).image, 'the worker runs the image the server builds').toBe(castpress.image);
    for (const name of ['castpress', 'postgres', 'redis']) {
      const hc = obj(obj(services[name]).healthcheck);
      const test = hc.test as string[];
      expect(test[0], `${name}: an exec-form health check`).toBe('CMD');
      expect(hc.interval, name).toMatch(/^\d+s$/);
      expect(hc.retries, name).toBeGreaterThan(0);
    }
    // The worker serves no HTTP: the image's /health check is switched off rather than left failing.
    expect(obj(obj(services.worker).healthcheck).disable).toBe(true);
    expect(obj(obj(services.postgres).healthcheck).test).toContain('pg_isready');
    expect(obj(obj(services.redis).healthcheck).test).toContain('ping');
  });

  it('compose: the server is published on the host loopback only, at the port its health checks ask', () => {
    const castpress = obj(services.castpress);
    expect(castpress.ports).toEqual(['127.0.0.1:8080:8080']);
    for (const name of ['postgres', 'redis', 'worker']) expect(obj(services[name]).ports, name).toBeUndefined();
    const healthUrl = /fetch\('(http:\/\/127\.0\.0\.1:(\d+)\/health)'\)/;
    const composeCheck = healthUrl.exec((obj(castpress.healthcheck).test as string[]).join(' '));
    const imageCheck = healthUrl.exec(/^HEALTHCHECK[\s\S]*?CMD (\[.*\])$/m.exec(containerfile)?.[1] ?? '');
    expect(composeCheck?.[1]).toBe('http://127.0.0.1:8080/health');
    expect(imageCheck?.[1]).toBe(composeCheck?.[1]);
    expect(flagValue(execForm(containerfile, 'ENTRYPOINT'), '--port')).toBe('8080');
    expect(containerfile).toMatch(/^EXPOSE 8080$/m);
  });

  it('compose: volumes are declared, the data volume is the image’s, the keys secret is what --keys reads', () => {
    const declared = Object.keys(obj(compose.volumes));
    const imageVolume = (JSON.parse(/^VOLUME (\[.*\])$/m.exec(containerfile)![1]!) as string[])[0];
    for (const [name, service] of Object.entries(services)) {
      for (const v of (obj(service).volumes as string[] | undefined) ?? []) {
        const [source] = v.split(':');
        expect(declared, `${name}: ${v}`).toContain(source);
      }
    }
    expect(obj(services.castpress).volumes).toContain(`castpress-data:${imageVolume}`);
    expect(obj(services.postgres).volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(obj(services.redis).volumes).toContain('redis-data:/data');
    // Server and worker share the batch folder: jobs files in, results out.
    const batch = (s: string) => (obj(services[s]).volumes as string[]).find((v) => v.startsWith('batch:'));
    expect(batch('castpress')).toBe(batch('worker'));
    const args = composeCommand(obj(services.castpress));
    const secret = (obj(services.castpress).secrets as Yaml[])[0]!;
    expect(Object.keys(obj(compose.secrets))).toEqual([secret.source]);
    expect(flagValue(args, '--keys')).toBe(secret.target);
    // The image's own CMD reads the keys from the same place.
    expect(flagValue(execForm(containerfile, 'CMD'), '--keys')).toBe(secret.target);
  });

  it('compose: the server keeps packets in the postgres service, the worker takes jobs from the redis service', () => {
    const castpress = obj(services.castpress);
    const postgres = obj(services.postgres);
    const env = obj(postgres.environment);
    const url = new URL(flagValue(composeCommand(castpress), '--postgres')!);
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgres');
    expect(url.username).toBe(env.POSTGRES_USER);
    expect(url.pathname).toBe(`/${String(env.POSTGRES_DB)}`);
    expect(url.password, 'no password on the command line').toBe('');
    // One variable gives both sides the password; compose refuses to start without it.
    expect(obj(castpress.environment).PGPASSWORD).toBe(env.POSTGRES_PASSWORD);
    expect(String(env.POSTGRES_PASSWORD)).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(obj(castpress.depends_on).postgres).toEqual({ condition: 'service_healthy' });
    const worker = obj(services.worker);
    expect(new URL(flagValue(composeCommand(worker), '--queue')!).hostname).toBe('redis');
    expect(obj(worker.depends_on).redis).toEqual({ condition: 'service_healthy' });
    expect(obj(services.redis).command).toEqual(['redis-server', '--appendonly', 'yes']);
  });

  it('compose: the server and the worker run with a read-only root, a tmpfs /tmp, no capabilities', () => {
    for (const name of ['castpress', 'worker']) {
      const s = obj(services[name]);
      expect(s.read_only, name).toBe(true);
      expect(s.tmpfs, name).toEqual(['/tmp']);
      expect(s.cap_drop, name).toEqual(['ALL']);
      expect(s.security_opt, name).toEqual(['no-new-privileges:true']);
    }
  });

  it('every flag the compose file, the image and the unit pass is one castpress accepts', async () => {
    const entrypoint = execForm(containerfile, 'ENTRYPOINT');
    expect(entrypoint.slice(0, 4)).toEqual(['/usr/bin/tini', '--', 'castpress', 'serve']);
    expect(flagValue(entrypoint, '--host')).toBe('0.0.0.0');
    const worker = obj(services.worker);
    expect(worker.entrypoint).toEqual(['/usr/bin/tini', '--', 'castpress', 'worker']);
    const exec = unitExecStart(await readFile(path.join(deployDir, 'castpress.service'), 'utf8'));
    expect(exec.slice(0, 3)).toEqual(['/usr/bin/node', '/opt/castpress/bin/castpress.js', 'serve']);
    await Promise.all([
      acceptedBy('serve', [...entrypoint.slice(4), ...execForm(containerfile, 'CMD')]),
      acceptedBy('serve', composeCommand(obj(services.castpress))),
      acceptedBy('worker', composeCommand(worker)),
      acceptedBy(
        'serve',
        exec.slice(3).map((a) => a.replace('%d', '/run/credentials/castpress.service')),
      ),
    ]);
  }, 120_000);

  it.skipIf(!existsSync('/usr/bin/systemd-analyze'))('the systemd unit passes systemd-analyze verify', async () => {
    const r = await run('systemd-analyze', ['verify', path.join(deployDir, 'castpress.service')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// The image, built and run.

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], options: ExecFileOptions = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', ...options }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

const IMAGE = 'localhost/castpress:container-test';
const BASE_IMAGE = 'docker.io/library/debian:bookworm-slim';
const KEY = 'prod-container-test-0123456789';
const CAST = 'tplContainer';
const APP_UID = 10001;
/** The host's loopback as slirp4netns shows it inside the container (allow_host_loopback). */
const HOST_FROM_CONTAINER = '10.0.2.2';

const skipReason = 'set CASTPRESS_CONTAINER_TEST=1 to build the image with podman (apt and npm: minutes) and run it';

describe.skipIf(!CONTAINER_TEST)(
  `deploy/Containerfile built and run with podman${CONTAINER_TEST ? '' : `: skipped (${skipReason})`}`,
  () => {
    let tmp: { dir: string; remove: () => Promise<void> };
    let env: NodeJS.ProcessEnv;
    let postgres: PostgresServer;
    let redis: RedisServer;
    let base = '';
    const server = `castpress-test-${process.pid}`;
    const worker = `castpress-worker-test-${process.pid}`;
    const masked = `castpress-masked-test-${process.pid}`;
    const podman = (args: string[], timeout = 600_000) =>
      run('podman', ['--runtime', 'runc', ...args], { env, timeout });
    const mustPodman = async (args: string[], timeout?: number) => {
      const r = await podman(args, timeout);
      expect(r.code, `podman ${args.join(' ')}\n${r.stderr}`).toBe(0);
      return r.stdout.trim();
    };

    /**
     * Resolves once the container's server answers /health; a container that stops running fails at once
     * with its logs. No count or clock: the test's own timeout bounds a server that never answers.
     */
    async function untilUp(base: string, container: string): Promise<void> {
      for (;;) {
        const up = await fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) return;
        const state = await mustPodman(['inspect', '--format', '{{.State.Status}}', container]);
        if (state !== 'running') {
          const logs = await podman(['logs', container]);
          throw new Error(`the server did not come up (${state}):\n${logs.stdout}\n${logs.stderr}`);
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    }

    // As compose.yaml runs the server and the worker (checked above).
    const hardening = ['--read-only', '--tmpfs', '/tmp', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges'];
    const network = ['--network', 'slirp4netns:allow_host_loopback=true'];

    beforeAll(async () => {
      tmp = await tempDir('castpress-container-');
      // podman's default ulimits need CAP_SYS_RESOURCE, which this machine's containers lack.
      const conf = path.join(tmp.dir, 'containers.conf');
      await writeFile(conf, '[containers]\ndefault_ulimits = []\n');
      env = { ...process.env, CONTAINERS_CONF: conf };

      if ((await podman(['image', 'exists', BASE_IMAGE])).code !== 0) {
        const made = await run('bash', [path.join(deployDir, 'make-base-image.sh'), BASE_IMAGE], {
          env,
          timeout: 1_200_000,
        });
        expect(made.code, made.stderr).toBe(0);
      }
      // Behind a proxy that intercepts TLS the build's downloads need its CA: the host's bundle.
      const ca = process.env.CASTPRESS_BUILD_CA ?? '/etc/ssl/certs/ca-certificates.crt';
      const secret = existsSync(ca) ? ['--secret', `id=build-ca,src=${ca}`] : [];
      const started = performance.now(); // clock-ok: printed as a figure of the build, never asserted
      const build = await run(
        'nice',
        [
          '-n',
          '10',
          'podman',
          'build',
          '--format',
          'docker',
          '--isolation',
          'chroot',
          '--pull=never',
          ...secret,
          '-f',
          path.join(deployDir, 'Containerfile'),
          '-t',
          IMAGE,
          repoRoot,
        ],
        { env, timeout: 5_400_000 },
      );
      const buildSeconds = (performance.now() - started) / 1000;
      await writeFile(path.join(tmp.dir, 'build.log'), build.stdout + build.stderr);
      expect(build.code, build.stderr.slice(-4000)).toBe(0);
      const size = Number(await mustPodman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
      console.log(
        `container image ${IMAGE}: built in ${buildSeconds.toFixed(0)} s (layers from podman's cache count as done), ${(size / 1e6).toFixed(0)} MB`,
      );

      postgres = await PostgresServer.start();
      await mkdir(path.join(tmp.dir, 'redis'));
      redis = await RedisServer.start(path.join(tmp.dir, 'redis'));

      // The keys file as the guide says to install it: the server's user only.
      const keys = path.join(tmp.dir, 'keys.json');
      await writeFile(keys, JSON.stringify({ keys: [{ key: KEY, kind: 'production', organization: 'acme' }] }));
      await chown(keys, APP_UID, APP_UID);
      await chmod(keys, 0o600);
      const templates = path.join(tmp.dir, 'templates');
      await writeTemplate(path.join(templates, CAST));

      const port = await freePort();
      await mustPodman([
        'run',
        '--detach',
        '--name',
        server,
        ...network,
        '--publish',
        `127.0.0.1:${port}:8080`,
        ...hardening,
        // What the guide adds for DOCX uploads with podman: bubblewrap's new /proc needs /proc unmasked.
        '--security-opt',
        'unmask=/proc/*',
        '--volume',
        `${keys}:/run/secrets/castpress-keys.json:ro`,
        '--volume',
        `${templates}:/srv/castpress/templates:ro`,
        IMAGE,
        '--keys',
        '/run/secrets/castpress-keys.json',
        '--templates',
        '/srv/castpress/templates',
        '--postgres',
        `postgres://castpress@${HOST_FROM_CONTAINER}:${postgres.port}/postgres`,
        '--public-url',
        `http://127.0.0.1:${port}`,
      ]);
      base = `http://127.0.0.1:${port}`;
      await untilUp(base, server);
    }, 6_000_000);

    afterAll(async () => {
      if (env) {
        for (const name of [masked, worker, server]) {
          const logs = await podman(['logs', name]);
          if (logs.code === 0 && tmp) await writeFile(path.join(tmp.dir, `${name}.log`), logs.stdout + logs.stderr);
          await podman(['rm', '--force', '--volumes', name]);
        }
      }
      await redis?.stop();
      await postgres?.stop();
      await tmp?.remove();
    }, 120_000);

    async function writeTemplate(folder: string): Promise<void> {
      await mkdir(folder, { recursive: true });
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      doc.addPage([612, 792]).drawText('Engagement letter. Client:', { x: 72, y: 700, size: 12, font });
      await writeFile(path.join(folder, 'template.pdf'), await doc.save());
      await writeFile(
        path.join(folder, 'v1.json'),
        JSON.stringify({
          title: 'Engagement letter',
          pdf: 'template.pdf',
          fields: [
            { id: 'clientName', type: 'shortText', pageNum: 0, rect: { x: 240, y: 86, width: 250, height: 18 } },
          ],
        }),
      );
    }

    const client = () => new Anvil({ apiKey: KEY, baseURL: base });
    function pdfOf(result: { statusCode: number; data?: unknown; errors?: unknown }): Uint8Array {
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
      expect(result.statusCode).toBe(200);
      const bytes = new Uint8Array(result.data as Buffer);
      expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      return bytes;
    }
    const text = async (bytes: Uint8Array) => (await pageText(bytes)).join('\n');

    it('runs the built, pruned package as an unprivileged user on Node 20.19 or later', async () => {
      expect(await mustPodman(['exec', server, 'id', '-u'])).toBe(String(APP_UID));
      expect(await mustPodman(['exec', server, 'id', '-g'])).toBe(String(APP_UID));
      const version = (await mustPodman(['exec', server, 'node', '--version'])).replace(/^v/, '');
      const [major, minor] = version.split('.').map(Number) as [number, number];
      expect(major > 20 || (major === 20 && minor >= 19), version).toBe(true);
      const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
      expect(await mustPodman(['exec', server, 'castpress', '--version'])).toBe(pkg.version);
      // No sources (the CLI starts from the bundle) and no development dependencies.
      const there = (await mustPodman(['exec', server, 'ls', '/opt/castpress'])).split('\n');
      expect(there).toEqual(expect.arrayContaining(['bin', 'dist', 'node_modules', 'package.json']));
      expect(there).not.toContain('src');
      const modules = ['fastify', 'vitest', 'typescript', 'tsx', '@anvilco/anvil'];
      const present = await mustPodman([
        'exec',
        server,
        'sh',
        '-c',
        `cd /opt/castpress/node_modules && for m in ${modules.join(' ')}; do test -e "$m" && echo "$m"; done; true`,
      ]);
      expect(present.split('\n')).toEqual(['fastify']);
      // The data volume belongs to the server's user; what it wrote at start (the signing CA) too.
      expect(await mustPodman(['exec', server, 'stat', '-c', '%u', '/srv/castpress/castpress-data'])).toBe(
        String(APP_UID),
      );
    });

    it('GET /health, GET /ready (Chromium found, the PostgreSQL store answers) and the image’s HEALTHCHECK', async () => {
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/ready`);
      const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean }> };
      expect(ready.status, JSON.stringify(body)).toBe(200);
      expect(body.checks.chromium?.ok).toBe(true);
      expect(body.checks.store?.ok).toBe(true);
      // podman runs the image's HEALTHCHECK command inside the container: exit 0 is "healthy".
      await mustPodman(['healthcheck', 'run', server]);
    });

    it('fillPDF and generatePDF (Markdown) through @anvilco/anvil', async () => {
      const filled = pdfOf(await client().fillPDF(CAST, { data: { clientName: 'Ada Lovelace' } }));
      expect(await text(filled)).toContain('Ada Lovelace');
      const md = pdfOf(
        await client().generatePDF({
          title: 'Report',
          data: [{ heading: 'From the container' }, { label: 'Summary', content: 'Everything is **fine**.' }],
        }),
      );
      const t = await text(md);
      expect(t).toContain('From the container');
      expect(t).toContain('Everything is fine');
    }, 120_000);

    it('generatePDF (HTML): Chromium inside, CJK text in the TrueType copies the image wrote', async () => {
      const pdf = pdfOf(
        await client().generatePDF({
          type: 'html',
          title: 'HTML',
          data: {
            html: '<h1>Invoice 42</h1><p lang="zh">发票 你好</p>',
            css: 'body { font-family: sans-serif } p { font-family: "Noto CJK" }',
          },
        }),
      );
      const t = await text(pdf);
      expect(t).toContain('Invoice 42');
      expect(t).toContain('你好');
      const fonts = await pdffonts(pdf);
      expect(fonts.map((f) => f.type)).not.toContain('Type 3');
      expect(
        fonts.some((f) => f.name.includes('NotoSansCJKscTT')),
        JSON.stringify(fonts),
      ).toBe(true);
    }, 120_000);

    type CreatedPacket = {
      statusCode: number;
      data?: { data?: { createEtchPacket: { eid: string; status: string } } };
      errors?: Array<{ message: string; extensions?: { name?: string; status?: number } }>;
    };
    /** createEtchPacket with one DOCX file whose text tag makes the signer's box. */
    async function docxPacket(baseURL: string): Promise<CreatedPacket> {
      const docx = buildDocx([[{ text: 'Annex from Word' }], [{ text: 'Signed: {{ signature ::: client }}' }]]);
      return (await new Anvil({ apiKey: KEY, baseURL }).createEtchPacket({
        variables: {
          name: 'Container packet',
          isDraft: false,
          files: [
            {
              id: 'annex',
              title: 'Annex',
              file: Anvil.prepareGraphQLFile(Buffer.from(docx), {
                filename: 'annex.docx',
                mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
              }),
              fields: [],
            },
          ],
          signers: [{ id: 'client', name: 'Ada Lovelace', email: 'ada@example.com', signerType: 'embedded' }],
        },
      })) as CreatedPacket;
    }

    it('createEtchPacket with a DOCX upload: LibreOffice converts it, the packet lands in PostgreSQL', async () => {
      const result = await docxPacket(base);
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
      const packet = result.data!.data!.createEtchPacket;
      expect(packet.status).toBe('sent');
      const db = new pg.Client({ connectionString: postgres.connectionString });
      await db.connect();
      try {
        const rows = await db.query<{ bytes: Buffer }>(
          'SELECT b.bytes FROM documents d JOIN blobs b ON b.hash = d.assembled_hash WHERE d.packet_eid = $1',
          [packet.eid],
        );
        expect(rows.rows).toHaveLength(1);
        expect(await text(new Uint8Array(rows.rows[0]!.bytes))).toContain('Annex from Word');
      } finally {
        await db.end();
      }
    }, 180_000);

    it('with /proc masked (the engine’s default) a DOCX upload is a 503 naming the sandbox, as the guide says', async () => {
      const port = await freePort();
      await mustPodman([
        'run',
        '--detach',
        '--name',
        masked,
        '--publish',
        `127.0.0.1:${port}:8080`,
        ...hardening,
        IMAGE,
        '--no-auth',
      ]);
      const url = `http://127.0.0.1:${port}`;
      await untilUp(url, masked);
      const result = await docxPacket(url);
      expect(result.statusCode).toBe(503);
      expect(result.errors?.[0]?.extensions?.name).toBe('ConversionError');
      expect(result.errors?.[0]?.message).toContain("bwrap: Can't mount proc");
      await mustPodman(['rm', '--force', '--volumes', masked]);
    }, 180_000);

    it('castpress worker in a second container takes a batch job from Redis', async () => {
      const batch = path.join(tmp.dir, 'batch');
      await mkdir(path.join(batch, 'results'), { recursive: true });
      await chown(batch, APP_UID, APP_UID);
      await chown(path.join(batch, 'results'), APP_UID, APP_UID);
      const queueInContainer = `redis://${HOST_FROM_CONTAINER}:${redis.port}/0`;
      await mustPodman([
        'run',
        '--detach',
        '--name',
        worker,
        ...network,
        ...hardening,
        '--volume',
        `${batch}:/srv/castpress/batch`,
        '--entrypoint',
        JSON.stringify(['/usr/bin/tini', '--', 'castpress', 'worker']),
        IMAGE,
        '--queue',
        queueInContainer,
        '--out',
        '/srv/castpress/batch/results',
      ]);
      const jobs = path.join(batch, 'jobs.jsonl');
      await writeFile(
        jobs,
        `${JSON.stringify({ id: 'hello', kind: 'generate', request: { data: [{ heading: 'Queued job' }] } })}\n`,
      );
      // The producer on the host; it waits until every job is done or failed.
      const produced = await runCastpress(
        ['batch', jobs, '--queue', redis.url, '--out', path.join(batch, 'results')],
        batch,
        300_000,
      );
      expect(produced.code, produced.stderr).toBe(0);
      const pdf = new Uint8Array(await readFile(path.join(batch, 'results', 'hello.pdf')));
      expect(await text(pdf)).toContain('Queued job');
    }, 360_000);

    it('stops gracefully on SIGTERM (tini passes it to node): exit code 0', async () => {
      await mustPodman(['stop', '--time', '40', worker]);
      await mustPodman(['stop', '--time', '40', server]);
      expect(await mustPodman(['inspect', '--format', '{{.State.ExitCode}}', server])).toBe('0');
      expect(await mustPodman(['inspect', '--format', '{{.State.ExitCode}}', worker])).toBe('0');
    }, 120_000);
  },
);

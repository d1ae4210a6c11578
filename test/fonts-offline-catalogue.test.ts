/**
 * The offline font catalogue (src/fonts/offline-catalogue.ts): families a request names ("Roboto Slab",
 * "Open Sans"…) resolve offline to exact files of pinned Debian packages that scripts/setup.sh installs,
 * in fill and Markdown (HTML: test/html-fonts-offline.test.ts), whatever else is installed; a name not
 * in it is still the typed 400.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { catalogueFaces, FontRegistry } from '../src/fonts/index.js';
import { CATALOGUE_PACKAGES } from '../src/fonts/offline-catalogue.js';
import { pdffonts, popplerText } from './helpers/pdf.js';
import { repoRoot } from './helpers/cli.js';
import { field, template } from './fixtures/fill/templates.js';
import { basic, EID, PROD_KEY, startTestServer, type TestServer } from './server-setup.js';

/** No system font folder at all: a family can only come from the catalogue's exact files. */
const engine = createEngine({ fonts: { systemDirectories: [] } });
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await engine.close();
  await server.close();
});

/** pdffonts rows of faces whose PostScript name (after the subset tag) starts with `name`. */
const rowsOf = async (pdf: Uint8Array, name: string) =>
  (await pdffonts(pdf)).filter((r) => r.name.replace(/^[A-Z]{6}\+/, '').startsWith(name));

describe('offline font catalogue', () => {
  it('Markdown: "Roboto Slab" by name, with no system fonts and no network, embeds Debian\'s Roboto Slab (regular and bold)', async () => {
    const pdf = await engine.generate({
      fontFamily: 'Roboto Slab',
      logo: false,
      includeTimestamp: false,
      data: [{ content: 'Offline Roboto Slab and **bold** Кириллица' }],
    });
    // fonts-roboto-slab ships OpenType/CFF files: embedded as CID Type 0C (an npm or scanned TrueType copy would not be).
    expect((await rowsOf(pdf, 'RobotoSlab-Regular')).map((r) => [r.type, r.emb])).toEqual([['CID Type 0C', true]]);
    expect((await rowsOf(pdf, 'RobotoSlab-Bold')).map((r) => [r.type, r.emb])).toEqual([['CID Type 0C', true]]);
    expect((await pdffonts(pdf)).filter((r) => r.name.includes('NotoSans'))).toEqual([]);
    expect((await popplerText(pdf))[0]).toContain('Offline Roboto Slab and bold Кириллица');
  });

  it('fill: "Roboto Slab" for the document and "Open Sans" for one field, by name', async () => {
    const t = await template([
      field('shortText', { id: 'a' }),
      field('shortText', { id: 'b', rect: { x: 50, y: 600, width: 300, height: 20 } }),
    ]);
    const pdf = await engine.fill(t, {
      fontFamily: 'Roboto Slab',
      data: { a: 'Document font', b: { value: 'Field font', fontFamily: 'Open Sans', fontWeight: 'bold' } },
    });
    expect(await rowsOf(pdf, 'RobotoSlab-Regular')).toHaveLength(1);
    expect(await rowsOf(pdf, 'OpenSans-Bold')).toHaveLength(1);
  });

  it('the catalogue wins over a same-named family elsewhere on the system, and never needs the system scan', async () => {
    // A "Roboto Slab" of another origin (the npm package's TrueType WOFF) in a system font folder.
    const decoy = mkdtempSync(path.join(tmpdir(), 'castpress-decoy-'));
    try {
      const files = path.join(repoRoot, 'node_modules', '@fontsource', 'roboto-slab', 'files');
      cpSync(path.join(files, 'roboto-slab-latin-400-normal.woff'), path.join(decoy, 'RobotoSlab.woff'));
      const debian = '/usr/share/fonts/opentype/roboto/slab/RobotoSlab-Regular.otf#';
      expect(new FontRegistry({ systemDirectories: [decoy] }).resolve('Roboto Slab', 'normal').id).toBe(
        `${debian}RobotoSlab-Regular`,
      );
      const withDecoy = createEngine({ fonts: { systemDirectories: [decoy] } });
      try {
        const pdf = await withDecoy.generate({ fontFamily: 'Roboto Slab', logo: false, data: [{ content: 'x' }] });
        expect((await rowsOf(pdf, 'RobotoSlab-Regular')).map((r) => r.type)).toEqual(['CID Type 0C']);
      } finally {
        await withDecoy.close();
      }
      // A caller's own folder (named on purpose) still wins over the catalogue.
      const own = new FontRegistry({ directories: [decoy], systemDirectories: [] });
      expect(own.resolve('Roboto Slab', 'normal').id.startsWith(decoy)).toBe(true);
    } finally {
      rmSync(decoy, { recursive: true, force: true });
    }
  });

  it('a name not in the catalogue is the typed 400 in fill and Markdown, through castpress serve', async () => {
    const auth = { authorization: basic(PROD_KEY), 'content-type': 'application/json' };
    const fill = await server.app.inject({
      method: 'POST',
      url: `/api/v1/fill/${EID}.pdf`,
      headers: auth,
      payload: { fontFamily: 'Roboto Slabb', data: { name: 'x' } },
    });
    const markdown = await server.app.inject({
      method: 'POST',
      url: '/api/v1/generate-pdf',
      headers: auth,
      payload: { data: [{ content: 'x', fontFamily: 'roboto slab' }] },
    });
    for (const [res, property, name] of [
      [fill, 'fontFamily', 'Roboto Slabb'],
      [markdown, 'data[0].fontFamily', 'roboto slab'],
    ] as const) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        name: 'ValidationError',
        message: expect.any(String),
        fields: [{ property, message: `Unknown font "${name}"` }],
      });
    }
    // The exact name renders through the server too.
    const ok = await server.app.inject({
      method: 'POST',
      url: '/api/v1/generate-pdf',
      headers: auth,
      payload: { fontFamily: 'Roboto Slab', logo: false, data: [{ content: 'served' }] },
    });
    expect(ok.statusCode).toBe(200);
    expect(await rowsOf(new Uint8Array(ok.rawPayload), 'RobotoSlab-Regular')).toHaveLength(1);
  });

  it('every catalogue file is installed by scripts/setup.sh from its pinned package, with its licence', () => {
    // Read, not run: an old setup.sh without the list would take an unknown flag for a full set-up.
    const setup = readFileSync(path.join(repoRoot, 'scripts/setup.sh'), 'utf8');
    const list = (name: string) =>
      /^[A-Z_]+=\((.*)\)$/m.exec(setup.split('\n').find((l) => l.startsWith(`${name}=(`)) ?? '')?.[1]?.split(' ') ?? [];
    const installed = new Set([...list('FONT_PACKAGES'), ...list('CATALOGUE_PACKAGES')]);
    const packages = [...new Set(catalogueFaces().map((f) => f.source))].sort();
    expect(packages).toEqual(Object.keys(CATALOGUE_PACKAGES).sort());
    for (const pkg of packages) {
      expect(installed.has(pkg), pkg).toBe(true);
      const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });
      expect(version, pkg).toBe(CATALOGUE_PACKAGES[pkg]);
      expect(existsSync(`/usr/share/doc/${pkg}/copyright`), pkg).toBe(true);
    }
    // Each file holds the face it should (file and PostScript name), checked like the engine's own faces.
    expect(new FontRegistry({ systemDirectories: [] }).missingEngineFaces().map((e) => e.message)).toEqual([]);
  });
});

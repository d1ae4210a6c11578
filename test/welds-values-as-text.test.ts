/**
 * Values strangers type are text, never structure. Through a workflow's form (posted to the server as a
 * browser posts it): a value that spells a text tag makes no field, a Markdown link or an HTML `<a>`
 * makes no /URI annotation, a `data:` image (Markdown or `<img>`) embeds no image, markup is shown as
 * typed, and each reads back from the PDF as the text that was typed, in Markdown content, headings,
 * titles, table cells and HTML; a fill value is drawn as text. The definition's own Markdown link, HTML
 * link and text tags still work (the control). A value looks as the same text typed by the author, a
 * lone `{{` fails no packet, and places where a value could only be structure (CSS, an attribute, a
 * link's address, inside a tag) are refused when the definition is loaded. A signer's own name
 * (allowNameChange) and a packet's name are text on the documents and the certificate of completion.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { assemblePacket, certificateRequest } from '../src/packets/index.js';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../src/server/graphql/index.js';
import { LazyWorkflowBackend } from '../src/server/workflow-forms/index.js';
import {
  loadWorkflows,
  packetArguments,
  parseWorkflow,
  resolveSubmission,
  WorkflowDefinitionError,
} from '../src/workflows/index.js';
import { readPageGlyphs } from '../src/packets/tags/glyphs.js';
import { popplerText, withTempFile } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf, until } from './helpers/workflow.js';
import { startTestServer, type TestServer } from './server-setup.js';

const run = promisify(execFile);
const engine = createEngine({ now: () => new Date('2026-01-02T03:04:05Z') });
afterAll(() => engine.close());

/** A 1 × 1 PNG: the only image of that size in these documents (the default logo is larger). */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const definition = {
  eid: 'weldValues01',
  slug: 'values',
  title: 'Values',
  forges: [
    {
      eid: 'forgeApplicant01',
      slug: 'applicant',
      name: 'About you',
      fields: [
        { name: 'fullName', type: 'shortText', label: 'Full name', required: true },
        { name: 'email', type: 'email', label: 'Email', required: true },
        { name: 'notes', type: 'longText', label: 'Notes' },
        { name: 'website', type: 'shortText', label: 'Website' },
      ],
    },
  ],
  packet: {
    name: 'Application of {{applicant.fullName}}',
    isTest: true,
    files: [
      {
        id: 'md',
        filename: 'md.pdf',
        title: 'Application: {{applicant.fullName}}',
        fields: [
          { heading: 'About {{applicant.fullName}}' },
          {
            content:
              'Notes: {{applicant.notes}}\n\nRead [our terms](https://ok.example/terms). Initials: {{ initial ::: applicant }}',
          },
          {
            table: {
              rows: [
                ['Name', 'Notes'],
                ['{{applicant.fullName}}', '{{ applicant.notes }}'],
              ],
            },
          },
          { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 600, width: 200, height: 40 } },
        ],
      },
      {
        id: 'page',
        filename: 'page.pdf',
        title: 'Page of {{applicant.fullName}}',
        markup: {
          html: '<p>Notes: {{applicant.notes}}</p><p><a href="https://ok.example/html">Our terms</a> {{ initial ::: applicant }}</p>',
          // A long value (the data: URL) wraps instead of running off the page.
          css: 'p { overflow-wrap: anywhere }',
        },
        fields: [],
      },
    ],
    signers: [
      {
        id: 'applicant',
        forge: 'applicant',
        name: '{{applicant.fullName}}',
        email: '{{applicant.email}}',
        signerType: 'embedded',
        fields: [{ fileId: 'md', fieldId: 'sig' }],
      },
    ],
  },
};

const TAG = '{{ signature ::: applicant }}';
const NOTES = [
  `Pay [Pay here](https://evil.example/pay) now. ![x](${PNG}) **bold** # not a heading | cell | ${TAG}`,
  `<a href="https://evil.example/html">Pay</a> <img src="${PNG}"> <b>bold</b>`,
].join(' ');
const NAME = `Mallory ${TAG}`;

/** What qpdf finds in the file: every /URI target and every image XObject's size. */
async function structure(pdf: Uint8Array): Promise<{ uris: string[]; images: string[] }> {
  const json = await withTempFile(
    pdf,
    async (file) => JSON.parse((await run('qpdf', ['--json', file])).stdout) as unknown,
  );
  const objects = (json as { qpdf: [unknown, Record<string, { value?: unknown; stream?: { dict: unknown } }>] })
    .qpdf[1];
  const uris: string[] = [];
  const images: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o['/URI'] === 'string') uris.push(o['/URI'].replace(/^u:/, ''));
      if (o['/Subtype'] === '/Image') images.push(`${String(o['/Width'])}x${String(o['/Height'])}`);
      Object.values(o).forEach(walk);
    }
  };
  for (const obj of Object.values(objects)) walk(obj.value ?? obj.stream?.dict);
  return { uris: uris.sort(), images };
}

/** The names of a PDF's form fields (each signature or initials box is an empty /Sig field named by its id). */
async function fieldNames(pdf: Uint8Array): Promise<string[]> {
  return (await PDFDocument.load(pdf))
    .getForm()
    .getFields()
    .map((f) => f.getName())
    .sort();
}

/** The text poppler reads, without white space (lines wrap where the layout decides, inside a long word too). */
async function textOf(pdf: Uint8Array): Promise<string> {
  return bare((await popplerText(pdf)).join(''));
}
const bare = (s: string) => s.replace(/\s+/g, '');

describe('form values posted to a workflow', () => {
  let server: TestServer;
  let backend: PacketBackend;
  let tmp: { dir: string; remove: () => Promise<void> };
  let md: Uint8Array;
  let page: Uint8Array;
  let template: Uint8Array;
  let packetEid = '';

  beforeAll(async () => {
    tmp = await tempDir('castpress-values-');
    await mkdir(path.join(tmp.dir, 'workflows'), { recursive: true });
    // Served with a template too, filled from a value through `data.payloads`.
    const served = {
      ...definition,
      packet: {
        ...definition.packet,
        files: [...definition.packet.files, { id: 'tpl', castEid: 'tplBasic01' }],
        // The template's `photo` is an image field: a typed value must not be loaded as its URL.
        data: { payloads: { tpl: { data: { name: '{{applicant.fullName}}', photo: '{{applicant.website}}' } } } },
      },
    };
    await writeFile(path.join(tmp.dir, 'workflows', 'values.json'), JSON.stringify(served));
    let base = '';
    const packets = new LazyPacketBackend(async () => {
      backend = await openPacketBackend({ dataDir: path.join(tmp.dir, 'data'), engine: server.engine, baseUrl: base });
      return backend;
    });
    const welds = new LazyWorkflowBackend(await loadWorkflows(path.join(tmp.dir, 'workflows')), packets, {
      baseUrl: () => base,
      pollMs: 100,
    });
    server = await startTestServer({ packets, welds });
    base = server.base;

    // The applicant's form, posted as a browser posts it; its last step makes the packet.
    const res = await fetch(`${server.base}/weld/values/applicant`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        fullName: NAME,
        email: 'mallory@example.com',
        notes: NOTES,
        website: PNG,
        submissionEid: `sub_${'v'.repeat(22)}`,
      }).toString(),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const next = new URL((await res.json()).next as string, server.base);
    const service = await welds.get();
    const run = await until(
      async () => (await service.link('values', next.searchParams.get('run'), next.searchParams.get('t'))).run,
      (r) => r.packetEid !== null,
    );
    expect(run.lastError).toBeNull();
    packetEid = run.packetEid!;
    const signer = (await backend.store.signers(run.packetEid!))[0]!;
    const url = await backend.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'mallory' });
    md = (await backend.service.signerDocument(tokenOf(url), 0)).pdf;
    page = (await backend.service.signerDocument(tokenOf(url), 1)).pdf;
    template = (await backend.service.signerDocument(tokenOf(url), 2)).pdf;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await tmp?.remove();
  }, 60_000);

  it('a value spelling a text tag makes no field: only the listed signature and the definition’s own tags', async () => {
    expect(await fieldNames(md)).toEqual(['initial1', 'sig']);
    expect(await fieldNames(page)).toEqual(['initial1']);
  });

  it('a fill value (data.payloads) is drawn as text: tags are read from the template as authored', async () => {
    expect(await fieldNames(template)).toEqual([]);
    expect(await textOf(template)).toContain(bare(NAME));
  });

  it('a fill value never fills an image field: a typed data: URL is left out, with a warning', async () => {
    expect((await structure(template)).images).not.toContain('1x1');
    expect((await backend.service.etchPacket({ eid: packetEid })).warnings).toEqual([
      'data.payloads.tpl.data.photo: typed text cannot fill an image field; left empty',
    ]);
  });

  it('a Markdown link or an HTML <a> in a value makes no /URI annotation; the definition’s own links do', async () => {
    expect((await structure(md)).uris).toEqual(['https://ok.example/terms']);
    expect((await structure(page)).uris).toEqual(['https://ok.example/html']);
  });

  it('a data: image in a value, as Markdown or as HTML <img>, embeds no image', async () => {
    expect((await structure(md)).images).not.toContain('1x1');
    expect((await structure(page)).images).not.toContain('1x1');
  });

  it('the values read back as typed: content, headings, the title and table cells', async () => {
    const mdText = await textOf(md);
    expect(mdText).toContain(bare(`Notes: ${NOTES}`));
    expect(mdText).toContain(bare(`About ${NAME}`));
    expect(mdText).toContain(bare(`Application: ${NAME}`));
    expect(mdText).toContain(bare(`Name Notes ${NAME} ${NOTES}`));
    expect(mdText).toContain('Readourterms.');
    // In HTML a word joiner (U+2060) stands between a value's two braces; poppler's raw mode reads it and a line break.
    const pageText = (await textOf(page)).replace(/\u2060/g, '');
    expect(pageText).toContain(bare(`Notes: ${NOTES}`));
    expect(pageText).toContain(bare(`Page of ${NAME}`));
  });
  it('a signer’s own name (allowNameChange, typed on the signing page) is text on the documents and the certificate', async () => {
    const name = `Mallory [Pay here](https://evil.example/name) ${TAG}`;
    const created = await backend.service.createEtchPacket({
      name: 'Own name',
      signaturePageOptions: { signConsentText: 'I, {{signer.name}}, agree.' },
      files: [
        {
          id: 'doc',
          filename: 'doc.pdf',
          title: 'Doc',
          fields: [
            { content: 'Sign below.' },
            { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
            { id: 'who', type: 'fullName', pageNum: 0, rect: { x: 72, y: 360, width: 400, height: 20 } },
          ],
        },
      ],
      signers: [
        {
          id: 's1',
          name: 'Ada',
          email: 'ada@example.com',
          signerType: 'embedded',
          allowNameChange: true,
          fields: [
            { fileId: 'doc', fieldId: 'sig' },
            { fileId: 'doc', fieldId: 'who' },
          ],
        },
      ],
    });
    const url = await backend.service.generateEtchSignURL({
      signerEid: created.documentGroup.signers[0]!.eid,
      clientUserId: 'ada',
    });
    const { signerEid, token } = tokenOf(url);
    // The signing page's own routes, as the signer's browser posts them.
    const post = (route: string, body: unknown) =>
      fetch(`${server.base}/sign/${signerEid}/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const details = await post('details', { token, name });
    expect(details.status, await details.clone().text()).toBe(200);
    const submitted = await post('submit', {
      token,
      signature: { type: 'typed', text: 'Mallory' },
      accepted: [{ document: 0, fieldId: 'sig' }],
    });
    expect(submitted.status, await submitted.clone().text()).toBe(200);
    const done = await backend.service.etchPacket({ eid: created.eid });
    expect(done.status).toBe('complete');
    const documents = await backend.service.groupDocuments(done.documentGroup.eid);
    let shown = '';
    for (const d of documents) {
      expect((await structure(d.pdf)).uris, d.filename).toEqual([]);
      shown += await textOf(d.pdf);
    }
    // On the document (its fullName field) and in the certificate's consent text.
    expect(shown).toContain(bare(`I, ${name}, agree.`));
    expect(shown.split(bare(name)).length - 1).toBeGreaterThanOrEqual(2);
  }, 120_000);
});

describe('form values in a workflow packet', () => {
  it('a value holding a lone `{{` or `}}` still makes its packet (it opens no tag to leave unclosed)', async () => {
    const workflow = parseWorkflow(JSON.stringify(definition), 'values.json', 1);
    const applicant = resolveSubmission(workflow.forges[0]!, {
      fullName: 'Ada }} {{',
      email: 'ada@example.com',
      notes: 'Braces {{ left open, and {{ signature',
    });
    const assembled = await assemblePacket(engine, packetArguments(workflow, { applicant }));
    expect(assembled.plan.fields.map((f) => `${f.fileId}:${f.fieldId}`).sort()).toEqual([
      'md:initial1',
      'md:sig',
      'page:initial1',
    ]);
  }, 120_000);

  it('looks as typed: the page of a value is the page of the same text typed by the definition’s author', async () => {
    const value = 'Fee {{ signature ::: applicant }} {x} }{ [Pay](https://evil.example/pay) *b* <i>i</i> & done';
    const workflow = parseWorkflow(
      JSON.stringify({
        ...definition,
        packet: {
          ...definition.packet,
          files: [
            { id: 'md', filename: 'md.pdf', title: '', fields: [{ content: 'Notes: {{applicant.notes}}' }] },
            {
              id: 'page',
              filename: 'page.pdf',
              title: '',
              markup: { html: '<p>Notes: {{applicant.notes}}</p>' },
              fields: [],
            },
          ],
        },
      }),
      'looks.json',
      1,
    );
    const args = packetArguments(workflow, {
      applicant: resolveSubmission(workflow.forges[0]!, { fullName: 'A', email: 'a@example.com', notes: value }),
    }) as { files: [{ fields: [{ content: string }] }, { markup: { html: string } }] };
    // Markdown: the same glyphs in the same places (each value is drawn as text runs of its own).
    const glyphs = async (pdf: Uint8Array) =>
      (await readPageGlyphs(pdf))[0]!.glyphs.map((g) => `${g.text}@${g.x.toFixed(2)},${g.y.toFixed(2)}`);
    const markdown = (content: string) =>
      engine.generate({ type: 'markdown', includeTimestamp: false, logo: false, data: [{ content }] });
    // The author's way to show these characters in Markdown: each punctuation character backslash-escaped.
    const typed = value.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
    const drawn = await glyphs(await markdown(args.files[0].fields[0].content));
    expect(drawn.length).toBeGreaterThan(value.replace(/\s/g, '').length);
    expect(drawn).toEqual(await glyphs(await markdown(`Notes: ${typed}`)));
    // HTML: the same pixels (the word joiners around the braces are invisible and take no room).
    const differing = async (a: Uint8Array, b: Uint8Array) => {
      const [pa, pb] = [(await renderPages(a, 2))[0]!.rgba, (await renderPages(b, 2))[0]!.rgba];
      return pa.length === pb.length ? pa.filter((v, i) => v !== pb[i]).length : -1;
    };
    const html = (markup: string) => engine.generate({ type: 'html', data: { html: markup } });
    const escaped = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(await differing(await html(args.files[1].markup.html), await html(`<p>Notes: ${escaped}</p>`))).toBe(0);
  }, 120_000);

  it('in HTML set in any family the author picks, a value’s braces make no tag', async () => {
    const families = ['serif', 'monospace', "'Courier'", "'Noto Sans CJK JP'"];
    const workflow = parseWorkflow(
      JSON.stringify({
        ...definition,
        packet: {
          ...definition.packet,
          files: [
            {
              id: 'page',
              filename: 'page.pdf',
              title: '',
              markup: {
                html: families
                  .map(
                    (f) => `<p style="font-family: ${f.replace(/'/g, '&#39;')}">{{applicant.notes}} {{ initial }}</p>`,
                  )
                  .join(''),
              },
              fields: [],
            },
          ],
          signers: [{ ...definition.packet.signers[0]!, fields: [] }],
        },
      }),
      'families.json',
      1,
    );
    const args = packetArguments(workflow, {
      applicant: resolveSubmission(workflow.forges[0]!, {
        fullName: 'A',
        email: 'a@example.com',
        notes: `{${TAG}} {{x}}}`,
      }),
    });
    const assembled = await assemblePacket(engine, args);
    expect(assembled.plan.fields.map((f) => f.type)).toEqual(families.map(() => 'initial'));
  }, 120_000);

  it('a definition that puts a value where it could only be structure is refused when loaded', async () => {
    const markdown = {
      id: 'md',
      filename: 'md.pdf',
      title: 'T',
      fields: [
        { content: 'Pay [here](https://pay.example/{{applicant.notes}}) or ![x]({{applicant.notes}})' },
        { content: 'Fine: [{{applicant.fullName}}](https://ok.example) and `{{applicant.notes}}`' },
      ],
    };
    const tagged = {
      id: 'tagged',
      filename: 'tagged.pdf',
      title: 'T',
      fields: [{ content: 'Sign: {{ signature : {{applicant.fullName}} }} then {{ initial }}' }],
    };
    const page = {
      id: 'page',
      filename: 'page.pdf',
      title: 'P',
      markup: {
        html: '<p title="{{applicant.notes}}">x</p><style>p{}</style><p>{{applicant.fullName}}</p>',
        css: 'p { background: url({{applicant.notes}}) }',
      },
      fields: [],
    };
    const raw = {
      id: 'raw',
      filename: 'raw.pdf',
      title: 'R',
      markup: { html: '<p>ok</p><script>var a = "{{applicant.notes}}"</script><!-- {{applicant.fullName}} -->' },
      fields: [],
    };
    const refused = async (files: unknown[]) => {
      const dir = await tempDir('castpress-values-bad-');
      try {
        await writeFile(
          path.join(dir.dir, 'bad.json'),
          JSON.stringify({ ...definition, packet: { ...definition.packet, files } }),
        );
        const e = await loadWorkflows(dir.dir).catch((x: unknown) => x);
        expect(e).toBeInstanceOf(WorkflowDefinitionError);
        expect((e as WorkflowDefinitionError).message).toContain('bad.json');
        return (e as WorkflowDefinitionError).fields.map((f) => f.property);
      } finally {
        await dir.remove();
      }
    };
    expect(await refused([tagged, page, raw])).toEqual([
      'packet.files[0].fields[0].content',
      'packet.files[1].markup.html',
      'packet.files[1].markup.css',
      'packet.files[2].markup.html',
    ]);
    // Markdown is read by the renderer's own parser: the link's address and the image's source, not the link text or code.
    expect(await refused([markdown])).toEqual(['packet.files[0].fields[0].content']);
  });
});

describe('names on the certificate of completion', () => {
  it('a packet name and a signer’s name (quoted in the consent text) are text: no link, no image', async () => {
    const name = `Lease [Pay here](https://evil.example/pay) ![x](${PNG})`;
    const pdf = await engine.generate(
      certificateRequest({
        packetName: name,
        packetEid: 'pkt1',
        documents: [{ name: 'a.pdf', sha256Before: 'aa', sha256After: 'bb' }],
        signers: [
          {
            name: 'Mallory',
            email: 'm@example.com',
            routingOrder: 1,
            consentText: `I, Mallory [click](https://evil.example/consent), agree.`,
          },
        ],
        completedAt: new Date('2026-01-02T03:04:05Z'),
      }),
    );
    const found = await structure(pdf);
    expect(found.uris).toEqual([]);
    expect(found.images).not.toContain('1x1');
    const text = await textOf(pdf);
    expect(text).toContain(bare(name));
    expect(text).toContain(bare('I, Mallory [click](https://evil.example/consent), agree.'));
  }, 60_000);
});

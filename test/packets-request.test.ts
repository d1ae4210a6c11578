import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptDataString, decryptDataString } from '../src/crypto/index.js';
import { ValidationError } from '../src/errors/index.js';
import { parsePacketRequest } from '../src/packets/index.js';
import { errorOf } from './helpers/errors.js';

const rect = { x: 10, y: 20, width: 100, height: 30 };
const pdfBase64 = Buffer.from('%PDF-1.7\n% test\n').toString('base64');

function valid() {
  return {
    name: 'Services agreement',
    files: [
      { id: 'nda', castEid: 'tmplNDA', title: 'NDA' },
      { id: 'upload', file: pdfBase64, fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect }] },
      {
        id: 'html',
        filename: 'terms.pdf',
        title: 'Terms',
        markup: { html: '<p>Hello</p>', css: 'p{color:red}' },
        fields: [],
      },
      {
        id: 'md',
        filename: 'summary.pdf',
        title: 'Summary',
        fontSize: 12,
        textColor: '#333333',
        fields: [{ heading: 'Summary' }, { id: 'date', type: 'signatureDate', pageNum: 0, rect }, { content: 'Body' }],
      },
    ],
    signers: [
      { id: 'client', name: 'Ada Lovelace', email: 'ada@example.com', fields: [{ fileId: 'upload', fieldId: 'sig' }] },
      { id: 'agent', name: 'Bob', email: 'bob@example.com', signerType: 'embedded', routingOrder: 1 },
      { id: 'later', isPending: true },
    ],
    allowUpdates: true,
    data: { payloads: { nda: { data: { name: 'Ada' }, filename: 'nda-ada.pdf' } } },
  };
}

describe('createEtchPacket request', () => {
  it('normalises a valid request: kinds, defaults, routing order = position', () => {
    const r = parsePacketRequest(valid());
    expect(r.files.map((f) => f.kind)).toEqual(['template', 'upload', 'html', 'markdown']);
    const upload = r.files[1]!;
    expect(upload.kind === 'upload' && Buffer.from(upload.bytes).toString()).toBe('%PDF-1.7\n% test\n');
    const md = r.files[3]!;
    expect(md.kind === 'markdown' && [md.fields.map((f) => f.id), md.blockIndexes, md.generate.data.length]).toEqual([
      ['date'],
      // The title is the first block (the page header), then the file's blocks 0 and 2.
      ['title', 0, 2],
      3,
    ]);
    expect(
      r.signers.map((s) => [
        s.id,
        s.routingOrder,
        s.signerType,
        s.tokenValidForMinutes,
        s.enableEmails,
        s.acceptEachField,
      ]),
    ).toEqual([
      ['client', 1, 'email', 20160, true, true],
      ['agent', 1, 'embedded', 120, true, true],
      ['later', 3, 'email', 20160, true, true],
    ]);
    expect([r.isDraft, r.isTest, r.mergePDFs, r.allowUpdates]).toEqual([false, false, false, true]);
    expect(r.payloads.nda).toEqual({ data: { name: 'Ada' }, filename: 'nda-ada.pdf' });
  });

  it('accepts the {data, filename, mimetype} upload flavour and bytes', () => {
    const body = valid();
    body.files[1] = {
      id: 'upload',
      file: { data: pdfBase64, filename: 'contract.pdf', mimetype: 'application/pdf' },
      fields: [],
    } as never;
    body.signers[0]!.fields = [];
    const r = parsePacketRequest(body);
    expect(r.files[1]).toMatchObject({ kind: 'upload', filename: 'contract.pdf', mimetype: 'application/pdf' });
    body.files[1] = { id: 'upload', file: new Uint8Array([37, 80, 68, 70]), fields: [] } as never;
    expect(parsePacketRequest(body).files[1]).toMatchObject({
      kind: 'upload',
      bytes: new Uint8Array([37, 80, 68, 70]),
    });
  });

  it('lists every violation in one ValidationError with its property path', () => {
    const body = valid() as Record<string, unknown> & ReturnType<typeof valid>;
    body.allowUpdates = false;
    (body.files as unknown[]).push({ id: 'nda', castEid: '' });
    (body.files[2] as { fields: unknown[] }).fields = [
      { id: 'x', type: 'signature', pageNum: 0, rect: { ...rect, width: 0 } },
    ];
    (body.files[3] as { fields: unknown[] }).fields.push(
      { table: { rows: 'nope' } },
      { id: 'date', type: 'selfie', pageNum: -1, rect },
    );
    (body.files[1] as { fields: unknown[] }).fields.push({ id: 'company', type: 'shortText', pageNum: 0, rect });
    body.signers = [
      {
        id: 'client',
        name: 'Ada',
        email: 'not-an-email',
        tokenValidForMinutes: 86_401,
        fields: [{ fileId: 'upload', fieldId: 'company' }],
      },
      {
        id: 'client',
        name: 'Bob',
        email: 'bob@example.com',
        fields: [{ fileId: 'nowhere', fieldId: 'sig' }],
        requireEmailOnLoad: true,
      },
      { id: 'p', isPending: true, email: 'also bad' },
      {
        id: 'q',
        email: 'q@example.com',
        routingOrder: 0,
        enableEmails: ['etchComplete', 'everything'],
        redirectURL: 'javascript:alert(1)',
      },
    ] as never;
    body.data = { payloads: { ghost: { data: {} } } } as never;
    (body as Record<string, unknown>).signaturePageOptions = {
      title: 'Sign',
      colour: 'red',
      style: { primaryColor: 'blue' },
    };
    (body as Record<string, unknown>).webhookURL = 'ftp://example.com/hook';
    const e = errorOf<ValidationError>(() => parsePacketRequest(body));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.status).toBe(400);
    const props = e.fields.map((f) => f.property);
    for (const p of [
      'files[2].fields[0].rect.width',
      'files[3].fields[3].table.rows',
      'files[3].fields[4].type',
      'files[3].fields[4].pageNum',
      'files[4].castEid',
      'signers[0].email',
      'signers[0].tokenValidForMinutes',
      'signers[0].fields[0].fieldId',
      'signers[1].id',
      'signers[1].fields[0].fileId',
      'signers[1].requireEmailOnLoad',
      'signers[2].email',
      'signers[2].isPending',
      'signers[3].name',
      'signers[3].routingOrder',
      'signers[3].enableEmails[1]',
      'signers[3].redirectURL',
      'data.payloads.ghost',
      'signaturePageOptions.style.primaryColor',
      'webhookURL',
    ]) {
      expect(props, p).toContain(p);
    }
    expect(e.fields.find((f) => f.property === 'signers[0].fields[0].fieldId')!.message).toContain('shortText');
    expect(e.fields.find((f) => f.property === 'signers[1].id')!.message).toContain('Duplicate signer id "client"');
    expect(e.toJSON().name).toBe('ValidationError');
  });

  it("names a Markdown file's field by its place among the content blocks", () => {
    const request = valid();
    const sig = { id: 'date', type: 'signature', pageNum: 0, rect };
    request.files[3]!.fields = [...request.files[3]!.fields!, { content: 'More' }, sig];
    const e = errorOf<ValidationError>(() => parsePacketRequest(request));
    expect(e.fields).toEqual([{ property: 'files[3].fields[4].id', message: 'Duplicate field id "date"' }]);
  });

  it('requires files, signers and a name, and tells file kinds apart', () => {
    const e = errorOf<ValidationError>(() => parsePacketRequest({ files: [{ id: 'a' }, 'x'], signers: [] }));
    expect(e.fields).toEqual(
      expect.arrayContaining([
        { property: 'name', message: 'Required' },
        { property: 'signers', message: 'Must contain at least 1 item' },
        { property: 'files[0]', message: expect.stringContaining('castEid') },
        { property: 'files[1]', message: 'Expected a file object' },
      ]),
    );
    expect(errorOf(() => parsePacketRequest('nope')).fields).toEqual([
      { property: '(body)', message: 'Expected a JSON object' },
    ]);
    const bad = valid();
    bad.files[1] = { id: 'upload', file: '***not base64***', fields: [] } as never;
    // The signer's reference to the bad upload is not reported again: the upload's own error says it all.
    expect(errorOf(() => parsePacketRequest(bad)).fields.map((f) => f.property)).toEqual(['files[1].file']);
  });

  it('decrypts RSA-encrypted data in the fill format', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const body = {
      ...valid(),
      data: encryptDataString(JSON.stringify({ payloads: { html: { data: { x: 1 } } } }), publicKey),
    };
    const r = parsePacketRequest(body, { decrypt: (s) => decryptDataString(s, privateKey) });
    expect(r.payloads).toEqual({ html: { data: { x: 1 } } });
    expect(errorOf(() => parsePacketRequest(body)).fields).toEqual([
      { property: 'data', message: expect.stringContaining('private key') },
    ]);
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(
      errorOf(() => parsePacketRequest(body, { decrypt: (s) => decryptDataString(s, other.privateKey) })).fields[0]!
        .message,
    ).toContain('Cannot decrypt');
  });
});

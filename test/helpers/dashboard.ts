/**
 * The dashboard as a browser's fetch uses it: signing in keeps the session cookie and the CSRF
 * token, and each call sends them the way the app does (the cookie always, the token on
 * mutations unless a test leaves it out). Plus the PDFs the dashboard tests upload.
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

export interface DashboardAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else undefined. */
  json: unknown;
  bytes: Uint8Array;
}

export interface CallOptions {
  /** Send the CSRF header (default true); a string sends that value instead. */
  csrf?: boolean | string;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

export class DashboardClient {
  cookie?: string;
  csrfToken?: string;
  lastSignIn?: DashboardAnswer;

  constructor(readonly base: string) {}

  /** This client with `other`'s session (the same browser, after a server restart on a new port). */
  withSession(other: DashboardClient): this {
    this.cookie = other.cookie;
    this.csrfToken = other.csrfToken;
    return this;
  }

  async signIn(apiKey: string, headers: Record<string, string> = {}): Promise<DashboardAnswer> {
    const r = await this.call('POST', '/dashboard/session', { body: { apiKey }, csrf: false, headers });
    const set = r.headers.get('set-cookie');
    if (r.status === 200 && set) {
      this.cookie = set.split(';')[0];
      this.csrfToken = (r.json as { csrfToken: string }).csrfToken;
    }
    this.lastSignIn = r;
    return r;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<DashboardAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    const csrf = options.csrf ?? true;
    if (typeof csrf === 'string') headers['x-csrf-token'] = csrf;
    else if (csrf && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(this.base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const json =
      type.startsWith('application/json') && bytes.byteLength > 0
        ? JSON.parse(Buffer.from(bytes).toString('utf8'))
        : undefined;
    return { status: res.status, headers: res.headers, json, bytes };
  }

  /** POST /dashboard/api/templates with `file` (and `name`, `detect` when given). */
  upload(bytes: Uint8Array, filename: string, fields: Record<string, string> = {}, type = 'application/pdf') {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return this.call('POST', '/dashboard/api/templates', { form });
  }
}

/** A one-page Letter PDF with `label` printed at its top (the version a fill used is readable in it). */
export async function labelledPdf(label: string, pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++)
    doc.addPage([612, 792]).drawText(`${label} ${i + 1}`, { x: 50, y: 740, size: 14, font });
  return doc.save();
}

/** A fillable PDF: two text fields (`tenant.name` with a tooltip, `rent`) and a check box. */
export async function fillablePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const form = doc.getForm();
  const name = form.createTextField('tenant.name');
  name.addToPage(page, { x: 72, y: 600, width: 240, height: 22 });
  const rent = form.createTextField('rent');
  rent.addToPage(page, { x: 72, y: 560, width: 120, height: 22 });
  const pets = form.createCheckBox('pets');
  pets.addToPage(page, { x: 72, y: 520, width: 14, height: 14 });
  return doc.save();
}

/** A text field of the template schema at `y` (points from the top). */
export const textField = (id: string, y: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'shortText',
  pageNum: 0,
  rect: { x: 72, y, width: 300, height: 24 },
  ...extra,
});

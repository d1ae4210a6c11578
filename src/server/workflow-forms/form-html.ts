/**
 * The forge forms as HTML: one plain POST form per forge (works without JavaScript), every input with
 * its label, errors beside their fields (`aria-invalid`, `aria-describedby`) and listed at the top with
 * links to the fields, keyboard order = reading order, one column that fits phone widths. Styles and
 * the one script (the weldComplete message to a parent frame) carry the response's CSP nonce.
 */
import type { FieldError } from '../../errors/index.js';
import { escapeHtml } from '../../format/index.js';
import type { WorkflowForm, FormField, WorkflowOrganization, Workflow } from '../../workflows/index.js';

const STYLE = `
*{box-sizing:border-box}body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1f21;background:#f6f7f8}
main{max-width:40rem;margin:0 auto;padding:1rem}h1{font-size:1.5rem;margin:.5rem 0}
.field{margin:0 0 1rem}label,legend{display:block;font-weight:600;margin-bottom:.25rem}
input[type=text],input[type=email],input[type=tel],input[type=date],textarea{width:100%;padding:.6rem;font:inherit;border:1px solid #767676;border-radius:4px;background:#fff}
textarea{min-height:6rem}fieldset{border:0;padding:0;margin:0 0 1rem}
.choice{display:flex;gap:.5rem;align-items:center;font-weight:400}.choice input{width:1.25rem;height:1.25rem}
.error{color:#a4161a;margin:.25rem 0 0}[aria-invalid=true]{border-color:#a4161a;border-width:2px}
.summary{border:2px solid #a4161a;padding:.5rem 1rem;margin-bottom:1rem;background:#fff}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.7rem 1.4rem;border:0;border-radius:4px;background:#1985a1;color:#fff;text-decoration:none;cursor:pointer}
:focus-visible{outline:3px solid #f4a261;outline-offset:2px}.step{color:#46494c}
.org{max-width:40rem;margin:0 auto;padding:1rem 1rem 0;font-weight:600}.org img{display:block;max-height:30px;max-width:100%}`;

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The organization's colours over the defaults (checked as hex colours at start; again here: they go into CSS). */
function colours(style: WorkflowOrganization['style']): string {
  const c = (v: string | undefined): string | undefined => (v !== undefined && HEX.test(v) ? v : undefined);
  const primary = c(style?.primaryColor);
  const info = c(style?.infoColor);
  const link = c(style?.linkColor);
  const success = c(style?.successColor);
  return [
    primary ? `button,.button{background:${primary}}h1{color:${primary}}` : '',
    info ? `.step,.org{color:${info}}` : '',
    link ? `a{color:${link}}` : '',
    success ? `.done{color:${success}}` : '',
  ].join('');
}

/** The organization's name and logo above the form (a logo is at most 30 px high, as on the signing page). */
function header(org: WorkflowOrganization | undefined): string {
  if (!org?.name && !org?.logo) return '';
  const logo = org.logo ? `<img src="${escapeHtml(org.logo)}" alt="${escapeHtml(org.name ?? '')}">` : '';
  const name = org.name && !org.logo ? `<span>${escapeHtml(org.name)}</span>` : '';
  return `<header class="org">${logo}${name}</header>`;
}

function page(title: string, nonce: string, body: string, script = '', org?: WorkflowOrganization): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}${colours(org?.style)}</style></head><body>${header(org)}<main>${body}</main>${script}</body></html>`;
}

function input(field: FormField, value: string, error: string | undefined): string {
  const id = `f-${field.name}`;
  const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
  const req = field.required ? ' aria-required="true"' : '';
  const errorLine = error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : '';
  const label = `${escapeHtml(field.label)}${field.required ? ' <span aria-hidden="true">*</span>' : ''}`;
  if (field.type === 'radioGroup') {
    const choices = field
      .options!.map(
        (o, i) =>
          `<label class="choice" for="${id}-${i}"><input type="radio" id="${id}-${i}" name="${field.name}" value="${escapeHtml(o.id)}"${value === o.id ? ' checked' : ''}${described}>${escapeHtml(o.label)}</label>`,
      )
      .join('');
    return `<fieldset class="field"${req}><legend>${label}</legend>${choices}${errorLine}</fieldset>`;
  }
  if (field.type === 'checkbox') {
    return `<div class="field"><label class="choice" for="${id}"><input type="checkbox" id="${id}" name="${field.name}"${value === 'on' || value === 'true' ? ' checked' : ''}${req}${described}>${label}</label>${errorLine}</div>`;
  }
  const attrs = `id="${id}" name="${field.name}"${req}${described}`;
  if (field.type === 'longText')
    return `<div class="field"><label for="${id}">${label}</label><textarea ${attrs}>${escapeHtml(value)}</textarea>${errorLine}</div>`;
  const type =
    field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : field.type === 'date' ? 'date' : 'text';
  const numeric = ['number', 'integer', 'decimalNumber', 'dollar', 'percent'].includes(field.type)
    ? ' inputmode="decimal"'
    : '';
  const auto = field.type === 'email' ? ' autocomplete="email"' : field.type === 'phone' ? ' autocomplete="tel"' : '';
  return `<div class="field"><label for="${id}">${label}</label><input type="${type}" ${attrs} value="${escapeHtml(value)}"${numeric}${auto}>${errorLine}</div>`;
}

export interface FormPage {
  workflow: Workflow;
  forge: WorkflowForm;
  action: string;
  /** Hidden controls: the run, its token, the form's submission id. */
  hidden: Record<string, string>;
  values?: Record<string, unknown>;
  errors?: FieldError[];
  nonce: string;
  /** The workflow's organization: its name, logo and colours. */
  organization?: WorkflowOrganization;
}

export function formPage(p: FormPage): string {
  const errorOf = new Map((p.errors ?? []).map((e) => [e.property, e.message]));
  const index = p.workflow.forges.findIndex((f) => f.eid === p.forge.eid);
  const summary = p.errors?.length
    ? `<div class="summary" role="alert" tabindex="-1" id="problems"><h2>Please correct ${p.errors.length === 1 ? 'this' : 'these'}</h2><ul>${p.errors
        .map((e) => {
          const known = p.forge.fields.some((f) => f.name === e.property);
          return `<li>${known ? `<a href="#f-${escapeHtml(e.property)}">` : ''}${escapeHtml(e.message)}${known ? '</a>' : ''}</li>`;
        })
        .join('')}</ul></div>`
    : '';
  const fields = p.forge.fields
    .map((f) => {
      const v = p.values?.[f.name];
      return input(f, typeof v === 'string' ? v : '', errorOf.get(f.name));
    })
    .join('');
  const hidden = Object.entries(p.hidden)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
    .join('');
  const body = `<h1>${escapeHtml(p.forge.name)}</h1><p class="step">${escapeHtml(p.workflow.title)} — step ${index + 1} of ${p.workflow.forges.length}</p>
${summary}<form method="post" action="${escapeHtml(p.action)}" novalidate>${hidden}${fields}<button type="submit">${index + 1 === p.workflow.forges.length ? 'Submit' : 'Continue'}</button></form>`;
  return page(`${p.forge.name} — ${p.workflow.title}`, p.nonce, body, '', p.organization);
}

/** The last step: thanks, the link to sign now when the person is a signer, and the weldComplete message to a parent frame. */
export function donePage(p: {
  workflow: Workflow;
  signUrl?: string;
  message: Record<string, string>;
  nonce: string;
  organization?: WorkflowOrganization;
}): string {
  const sign = p.signUrl
    ? `<p>Your documents are ready to sign.</p><p><a class="button" id="sign-now" href="${escapeHtml(p.signUrl)}">Sign now</a></p>`
    : '<p>Thank you: your answers are recorded. The documents go out for signature.</p>';
  // JSON inside a script: `<` escaped so no value can close the element.
  const data = JSON.stringify(p.message).replace(/</g, '\\u003c');
  const script = `<script nonce="${p.nonce}">if (window.parent !== window) window.parent.postMessage(${data}, '*');</script>`;
  return page(
    `${p.workflow.title} — done`,
    p.nonce,
    `<h1>${escapeHtml(p.workflow.title)}</h1>${sign}`,
    script,
    p.organization,
  );
}

/**
 * An address's confirmation: the page its link opens shows the address and a button (a POST: mail
 * scanners open links, they do not press buttons); after the POST, or for a link used before, the thanks.
 */
export function confirmPage(p: {
  workflow: Workflow;
  email: string;
  confirmed: boolean;
  action: string;
  hidden: Record<string, string>;
  nonce: string;
  organization?: WorkflowOrganization;
}): string {
  const hidden = Object.entries(p.hidden)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
    .join('');
  const body = p.confirmed
    ? `<p class="done" id="confirmed">Thank you: ${escapeHtml(p.email)} is confirmed.</p>`
    : `<p>Confirm that ${escapeHtml(p.email)} is your address: the documents to sign are sent to it.</p><form method="post" action="${escapeHtml(p.action)}">${hidden}<button type="submit" id="confirm">Confirm my address</button></form>`;
  return page(
    `${p.workflow.title} — confirm your address`,
    p.nonce,
    `<h1>${escapeHtml(p.workflow.title)}</h1>${body}`,
    '',
    p.organization,
  );
}

export function errorPage(title: string, message: string, nonce: string): string {
  return page(title, nonce, `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>`);
}

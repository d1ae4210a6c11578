/**
 * The organization's settings: its name and contact, logo (an upload, saved at once), signing
 * pages' colours, signer defaults, webhook, embedding origins and limits. Saved as one object through
 * the same store as the API's `PUT /api/organization`, in force for the next signing page or delivery;
 * the server's 400 is placed on the inputs it names. A development key reads them only.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, describeError } from '../io/api.js';
import { organizationApi } from '../io/organization.js';
import {
  COLOUR_KEYS,
  formOf,
  placeSettingsErrors,
  settingsOf,
  SIGNER_FLAGS,
  TSA_FLAGS,
  type Choice,
  type FormKey,
  type PlacedSettingsErrors,
  type SettingsForm,
  type SettingsView,
} from '../model/settings.js';
import { useApp } from '../ui/context.js';
import { ErrorNote, FieldRow } from '../ui/controls.js';

const COLOUR_LABELS: Record<(typeof COLOUR_KEYS)[number], string> = {
  primaryColor: 'Primary colour',
  successColor: 'Success colour',
  infoColor: 'Information colour',
  linkColor: 'Link colour',
};
const SIGNER_LABELS: Record<(typeof SIGNER_FLAGS)[number], string> = {
  allowNameChange: 'Signers may change their name',
  allowEmailChange: 'Signers may change their email',
  requireNameOnLoad: 'Ask for the name when the page opens',
  requireEmailOnLoad: 'Ask for the email when the page opens',
};
const TSA_LABELS: Record<(typeof TSA_FLAGS)[number], string> = {
  productionKeys: 'Time stamps for production keys',
  developmentKeys: 'Time stamps for development keys',
};

const id = (key: string) => `org-${key.replace(/[^A-Za-z0-9]/g, '-')}`;

export function Settings() {
  const { announce } = useApp();
  const [view, setView] = useState<SettingsView>();
  const [form, setForm] = useState<SettingsForm>(formOf(null));
  const [loadError, setLoadError] = useState<string>();
  const [placed, setPlaced] = useState<PlacedSettingsErrors>({ inputs: {}, other: [] });
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [logoFile, setLogoFile] = useState<File>();
  const [focusTarget, setFocusTarget] = useState<string>();

  // After a refused save the first input named takes the focus, once the form is enabled again.
  useEffect(() => {
    if (busy || !focusTarget) return;
    document.getElementById(id(focusTarget))?.focus();
    setFocusTarget(undefined);
  }, [busy, focusTarget]);

  useEffect(() => {
    organizationApi.read().then(
      (v) => {
        setView(v);
        setForm(formOf(v.settings));
      },
      (e) => setLoadError(describeError(e)),
    );
  }, []);

  const failed = (e: unknown) => {
    if (e instanceof ApiError && e.status === 400) {
      const p = placeSettingsErrors(e.body.fields);
      setPlaced(p);
      const count = e.body.fields.length;
      setNote(`Not saved: ${count} problem${count === 1 ? '' : 's'} to fix.`);
      announce(`Not saved: ${count} problem${count === 1 ? '' : 's'} to fix`);
      // In the page's order (the logo's group comes first), not the server's.
      setFocusTarget(['logo', ...Object.keys(formOf(null))].find((k) => k in p.inputs));
    } else {
      setPlaced({ inputs: {}, other: [] });
      setNote(describeError(e));
    }
  };

  const done = (v: SettingsView, message: string, keepForm = false) => {
    setView(v);
    if (!keepForm) setForm({ ...formOf(v.settings), 'webhook.hmacSecret': '' });
    setPlaced({ inputs: {}, other: [] });
    setNote(undefined);
    announce(message);
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      done(await organizationApi.update(settingsOf(form, view?.settings?.logo)), 'Settings saved');
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  const uploadLogo = async () => {
    if (!logoFile) return setPlaced({ inputs: { logo: 'Choose an image file.' }, other: [] });
    setBusy(true);
    try {
      // Only the logo changes on the server: unsaved edits of the form stay as typed.
      done(await organizationApi.uploadLogo(logoFile), 'Logo saved', true);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  const removeLogo = async () => {
    setBusy(true);
    try {
      done(await organizationApi.removeLogo(), 'Logo removed', true);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  if (!view)
    return (
      <section class="settings">
        <h1 tabIndex={-1}>Organization settings</h1>
        {loadError ? <ErrorNote message={loadError} /> : <p role="status">Loading the settings…</p>}
      </section>
    );

  const set = (key: FormKey) => (e: JSX.TargetedEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setForm({ ...form, [key]: e.currentTarget.value });
  const error = (key: FormKey | 'logo') => placed.inputs[key];

  const textRow = (
    key: FormKey,
    label: string,
    options: { hint?: string; type?: string; autocomplete?: string } = {},
  ) => (
    <FieldRow id={id(key)} label={label} hint={options.hint} error={error(key)}>
      {(describedBy, invalid) => (
        <input
          id={id(key)}
          type={options.type ?? 'text'}
          value={form[key]}
          onInput={set(key)}
          autocomplete={options.autocomplete ?? 'off'}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
      )}
    </FieldRow>
  );

  const choiceRow = (key: FormKey, label: string) => (
    <FieldRow id={id(key)} label={label} error={error(key)}>
      {(describedBy, invalid) => (
        <select
          id={id(key)}
          value={form[key] as Choice}
          onChange={set(key)}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        >
          <option value="">Default</option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </select>
      )}
    </FieldRow>
  );

  const linesRow = (key: 'embedOrigins' | 'stylesheetOrigins', label: string, hint: string) => (
    <FieldRow id={id(key)} label={label} hint={hint} error={error(key)}>
      {(describedBy, invalid) => (
        <textarea
          id={id(key)}
          rows={3}
          value={form[key]}
          onInput={set(key)}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
      )}
    </FieldRow>
  );

  const logo = view.settings?.logo;
  const kb = Math.round(view.logoMaxBytes / 1024);

  return (
    <section class="settings">
      <h1 tabIndex={-1}>Organization settings</h1>
      {!view.editable && (
        <p class="note">You signed in with a development key: you can read these settings, not change them.</p>
      )}
      <ErrorNote message={note} />
      {placed.other.length > 0 && (
        <ul class="error-list">
          {placed.other.map((p) => (
            <li key={`${p.property}:${p.message}`}>
              {p.property}: {p.message}
            </li>
          ))}
        </ul>
      )}

      <fieldset class="logo" disabled={!view.editable || busy}>
        <legend>Logo</legend>
        {logo?.startsWith('data:') ? (
          <img class="logo-preview" src={logo} alt="The organization's current logo" />
        ) : logo ? (
          <p>{logo} (a file the settings file names)</p>
        ) : (
          <p class="muted">No logo: pages and mails show the name only.</p>
        )}
        <FieldRow
          id={id('logo')}
          label="Logo image"
          hint={`PNG, JPEG, GIF, WebP or SVG, at most ${kb} KB`}
          error={error('logo')}
        >
          {(describedBy, invalid) => (
            <input
              id={id('logo')}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml"
              onChange={(e) => setLogoFile(e.currentTarget.files?.[0])}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </FieldRow>
        <div class="actions">
          <button type="button" onClick={() => void uploadLogo()}>
            Upload logo
          </button>
          {logo && (
            <button type="button" class="danger" onClick={() => void removeLogo()}>
              Remove logo
            </button>
          )}
        </div>
      </fieldset>

      <form onSubmit={save} noValidate>
        <fieldset disabled={!view.editable || busy}>
          <legend>Organization</legend>
          {textRow('name', 'Name', { hint: 'Shown on signing pages and in mails ({{organization.name}})' })}
          {textRow('slug', 'Slug', { hint: 'Lowercase letters, digits and dashes' })}
          {textRow('supportEmail', 'Support email', { type: 'email', hint: 'Where replies to mails go' })}
        </fieldset>

        <fieldset disabled={!view.editable || busy}>
          <legend>Signing page colours</legend>
          <p class="hint">Hex colours such as #1985a1; empty: the default.</p>
          {COLOUR_KEYS.map((k) => (
            <div key={k} class="colour-row">
              {textRow(`style.${k}`, COLOUR_LABELS[k])}
              <span
                class="swatch"
                aria-hidden="true"
                style={{ backgroundColor: form[`style.${k}`] || 'transparent' }}
              />
            </div>
          ))}
        </fieldset>

        <fieldset disabled={!view.editable || busy}>
          <legend>Signer defaults</legend>
          <FieldRow
            id={id('signerDefaults.signatureExperience')}
            label="Signing order"
            error={error('signerDefaults.signatureExperience')}
          >
            {(describedBy, invalid) => (
              <select
                id={id('signerDefaults.signatureExperience')}
                value={form['signerDefaults.signatureExperience']}
                onChange={set('signerDefaults.signatureExperience')}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              >
                <option value="">Default</option>
                <option value="signWhileReviewing">Sign while reviewing</option>
                <option value="signBeforeReviewing">Sign before reviewing</option>
              </select>
            )}
          </FieldRow>
          {SIGNER_FLAGS.map((k) => choiceRow(`signerDefaults.${k}`, SIGNER_LABELS[k]))}
        </fieldset>

        <fieldset disabled={!view.editable || busy}>
          <legend>Webhook</legend>
          {textRow('webhook.url', 'Webhook URL', { type: 'url', hint: 'Receives the events of every packet' })}
          {textRow('webhook.token', 'Webhook token', { hint: "Sent in each delivery's body" })}
          {textRow('webhook.hmacSecret', 'Signing secret', {
            type: 'password',
            autocomplete: 'new-password',
            hint: 'At least 16 characters; never shown again. Empty keeps the secret in force.',
          })}
        </fieldset>

        <fieldset disabled={!view.editable || busy}>
          <legend>Embedding and stylesheets</legend>
          {linesRow(
            'embedOrigins',
            'Origins that may embed',
            'One origin a line (https://app.example.com): they may frame signing pages and the embedded editor',
          )}
          {linesRow(
            'stylesheetOrigins',
            'Stylesheet origins',
            "One origin a line: where a packet's stylesheetURL may point",
          )}
        </fieldset>

        <fieldset disabled={!view.editable || busy}>
          <legend>Limits</legend>
          {textRow('formRateLimit.form', 'Posts to one workflow form per window', { type: 'text' })}
          {textRow('formRateLimit.organization', 'Posts to all workflow forms per window', { type: 'text' })}
          {TSA_FLAGS.map((k) => choiceRow(`timestampAuthority.${k}`, TSA_LABELS[k]))}
        </fieldset>

        {view.editable && (
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
        )}
      </form>
    </section>
  );
}

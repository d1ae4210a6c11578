/**
 * The organization settings a server holds while it runs: the `--org` file as last read without
 * fault. The caller creates it (`OrganizationSettingsStore.open`) and closes it. Everything that
 * uses settings is given `directory`, a lookup that answers from the settings in force at the
 * moment it is called, so a reload shows on the next request without a restart.
 *
 * Reloads come from `reload()` (the server calls it on SIGHUP), from a change of the file (a watch
 * on its folder, so an editor's or our own write-then-rename is seen; changes within the debounce
 * are one reload), and from `update()` (the settings API). A file that does not check keeps the
 * last good settings; the outcome of each reload is a `reload` event (the server logs it). Reloads
 * and updates run one at a time, so an update never writes over a change it has not read.
 */
import { EventEmitter } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { CastpressError, NotFoundError, ValidationError } from '../../errors/index.js';
import { parseWith } from '../../schema/index.js';
import {
  organizationSettingsSchema,
  type OrganizationDirectory,
  type OrganizationSettings,
} from '../../packets/index.js';
import {
  checkLogoDataUrl,
  isMultiOrganization,
  parseOrganizationText,
  readOrganizationFile,
  type OrganizationFileContent,
} from './load.js';

/** How a reload ended: the settings now in force came from the file, or the file was refused (its error). */
export type ReloadOutcome =
  { ok: true; cause: ReloadCause } | { ok: false; cause: ReloadCause; error: ValidationError | CastpressError };

export type ReloadCause = 'signal' | 'watch' | 'update' | 'call';

export interface OrganizationSettingsStoreOptions {
  /** Watch the file for changes from the start (default true; else from `watch()`). */
  watch?: boolean;
  /** Changes within this many milliseconds make one reload (default 100). */
  debounceMs?: number;
}

/** 409: the settings file cannot take this change (shared by several organizations, or invalid on disk now). */
export class OrganizationSettingsConflictError extends CastpressError {
  constructor(message: string, property = 'organization') {
    super('OrganizationSettingsConflictError', 409, message, [{ message, property }]);
  }
}

export class OrganizationSettingsStore extends EventEmitter<{ reload: [ReloadOutcome] }> {
  readonly file: string;
  #content: OrganizationFileContent;
  #queue: Promise<unknown> = Promise.resolve();
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #debounceMs: number;

  private constructor(file: string, content: OrganizationFileContent, options: OrganizationSettingsStoreOptions) {
    super();
    this.file = path.resolve(file);
    this.#content = content;
    this.#debounceMs = options.debounceMs ?? 100;
    if (options.watch !== false) this.watch();
  }

  /** Reads and checks the file; a bad file is a ValidationError naming the file and each property (the server does not start). */
  static async open(file: string, options: OrganizationSettingsStoreOptions = {}): Promise<OrganizationSettingsStore> {
    return new OrganizationSettingsStore(file, await readOrganizationFile(file), options);
  }

  /** The settings in force when called (not when taken): give this to whatever reads settings. */
  readonly directory: OrganizationDirectory = (organization) => this.#content.directory(organization);

  /** Whether one settings object applies to every organization (the one-organization form of the file). */
  get shared(): boolean {
    return !isMultiOrganization(this.#content.json);
  }

  /**
   * An organization's settings as the file holds them (a logo as its file path or data URL), without
   * `webhook.hmacSecret`, which is never read back; NotFoundError when the file has none for it.
   */
  read(organization: string): OrganizationSettings {
    const json = this.#content.json;
    const own = isMultiOrganization(json) ? json.organizations[organization] : json;
    if (own === undefined)
      throw new NotFoundError(`No settings for organization "${organization}" in the settings file`, 'organization');
    return withoutSecret(own as OrganizationSettings);
  }

  /** Reads the file again; the settings change only when it checks. */
  reload(cause: ReloadCause = 'call'): Promise<ReloadOutcome> {
    return this.#serial(() => this.#reload(cause, false));
  }

  /**
   * Replaces one organization's settings (checked by the settings schema; a logo only as a data URL
   * or the file's own value; `webhook.hmacSecret` left out keeps the current one), written to the file
   * (a temporary file renamed over it, so a reader never sees half of it) and in force at once.
   */
  update(organization: string, body: unknown): Promise<OrganizationSettings> {
    return this.#serial(async () => {
      const given = parseWith(organizationSettingsSchema, body);
      // What is on disk now (a hand edit since the last reload included): a bad file is not written over.
      const disk = await readOrganizationFile(this.file).catch((e: unknown) => {
        throw new OrganizationSettingsConflictError(
          `The settings file is not valid now, fix it first: ${e instanceof Error ? e.message : String(e)}`,
          'file',
        );
      });
      const json = disk.json as Record<string, unknown>;
      const multi = isMultiOrganization(json);
      const current = (multi ? json.organizations[organization] : json) as OrganizationSettings | undefined;
      if (given.logo !== undefined && given.logo !== current?.logo) checkLogoDataUrl(given.logo, 'logo');
      const secret = current?.webhook?.hmacSecret;
      const next: OrganizationSettings =
        given.webhook && given.webhook.hmacSecret === undefined && secret !== undefined
          ? { ...given, webhook: { ...given.webhook, hmacSecret: secret } }
          : given;
      const written = multi ? { ...json, organizations: { ...json.organizations, [organization]: next } } : next;
      const text = `${JSON.stringify(written, null, 2)}\n`;
      // Checked as a reload would check it (logos read) before anything is written.
      const content = await parseOrganizationText(this.file, text);
      await writeAtomically(this.file, text);
      this.#content = content;
      this.emit('reload', { ok: true, cause: 'update' });
      return withoutSecret(next);
    });
  }

  /** Stops watching; the settings stay readable. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(job, job);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #reload(cause: ReloadCause, unlessSame: boolean): Promise<ReloadOutcome> {
    let outcome: ReloadOutcome;
    try {
      const content = await readOrganizationFile(this.file);
      // A watch event for bytes already in force (our own update's rename, a touch) changes nothing.
      if (unlessSame && content.text === this.#content.text) return { ok: true, cause };
      this.#content = content;
      outcome = { ok: true, cause };
    } catch (e) {
      if (!(e instanceof CastpressError)) throw e;
      outcome = { ok: false, cause, error: e };
    }
    this.emit('reload', outcome);
    return outcome;
  }

  /** Reloads on changes of the file from now on (once started, further calls do nothing). */
  watch(): void {
    if (this.#watcher || this.#closed) return;
    const name = path.basename(this.file);
    // The folder, not the file: a rename over the file would leave a watch on the old one.
    this.#watcher = watch(path.dirname(this.file), { persistent: false }, (_event, changed) => {
      if (this.#closed || (changed !== null && changed !== name)) return;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => {
        if (!this.#closed) void this.#serial(() => this.#reload('watch', true)).catch(() => undefined);
      }, this.#debounceMs);
      this.#timer.unref();
    });
    this.#watcher.on('error', () => {
      // The folder went away: reloads still come from the signal and the API.
      this.#watcher?.close();
      this.#watcher = undefined;
    });
  }
}

function withoutSecret(settings: OrganizationSettings): OrganizationSettings {
  if (settings.webhook?.hmacSecret === undefined) return settings;
  const { hmacSecret: _secret, ...webhook } = settings.webhook;
  return { ...settings, webhook };
}

/** Writes `text` to a new file beside `file`, flushed, then renames it over `file`: the file is either old or new. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  // The file's own permissions (it may hold a webhook secret): the renamed file keeps them.
  const mode = ((await stat(file).catch(() => undefined))?.mode ?? 0o600) & 0o777;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.chmod(mode);
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * What every workflow operation works with: the catalogue of definitions, the packet store (runs
 * and submissions live in its database, so they commit with the outbox), the packet service that
 * makes and sends packets, the clock. Made once by the façade (service.ts).
 */
import type { OrganizationDirectory, PacketService, PacketStore, RetryPolicy } from '../../packets/index.js';
import type { WorkflowCatalogue } from '../definition/load.js';

export interface WorkflowServiceOptions {
  catalogue: WorkflowCatalogue;
  store: PacketStore;
  packets: PacketService;
  /** Public address of the server: weldComplete's document URLs start with it. */
  baseUrl: string | (() => string);
  /** The server's webhook, used when neither the definition nor its organization's settings name one. */
  webhookURL?: string;
  /**
   * Each organization's settings (`--org`, src/packets/request/org.ts): the forms' look, `organizationSlug`,
   * the weldComplete webhook's URL (its token and HMAC secret are read at delivery, as for packets).
   */
  organizations?: OrganizationDirectory;
  clock?: () => Date;
  /** How often runs are looked at (packets made again after a failure, completed packets); default 1 s; 0: never by itself. */
  pollMs?: number;
  /** Packet retries of a run after a failure (default retries.ts' WELD_RETRY); then the run is `failed`. */
  retry?: RetryPolicy;
  /** Told about a failure of the background pass (default: ignored; the pass runs again). */
  onError?: (e: unknown) => void;
  /** Called after a commit that queued a weldComplete webhook (the dispatcher's poke). */
  onEvents?: () => void;
}

export interface WorkflowContext {
  readonly options: WorkflowServiceOptions;
  readonly catalogue: WorkflowCatalogue;
  readonly store: PacketStore;
  readonly packets: PacketService;
  now(): number;
  baseUrl(): string;
  /** Runs whose packet this process is making now (so the background pass does not make a second one). */
  readonly making: Set<string>;
}

export function weldContext(options: WorkflowServiceOptions): WorkflowContext {
  return {
    options,
    catalogue: options.catalogue,
    store: options.store,
    packets: options.packets,
    making: new Set(),
    now: () => (options.clock ? options.clock() : new Date()).getTime(),
    baseUrl: () => (typeof options.baseUrl === 'string' ? options.baseUrl : options.baseUrl()).replace(/\/+$/, ''),
  };
}

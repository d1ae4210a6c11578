/**
 * The workflow service as the server holds it: made on first use over the packet backend (the same
 * store and packet service), closed with the server.
 */
import { WorkflowService, type WorkflowServiceOptions, type WorkflowCatalogue } from '../../workflows/index.js';
import type { LazyPacketBackend } from '../graphql/index.js';

export class LazyWorkflowBackend {
  #made: Promise<WorkflowService> | undefined;

  constructor(
    readonly catalogue: WorkflowCatalogue,
    private readonly packets: LazyPacketBackend,
    private readonly options: Pick<
      WorkflowServiceOptions,
      'baseUrl' | 'webhookURL' | 'pollMs' | 'onError' | 'organizations' | 'retry'
    >,
  ) {}

  get(): Promise<WorkflowService> {
    this.#made ??= this.packets.get().then(
      ({ service, store }) =>
        new WorkflowService({ ...this.options, catalogue: this.catalogue, store, packets: service }),
      (e: unknown) => {
        this.#made = undefined;
        throw e;
      },
    );
    return this.#made;
  }

  async close(): Promise<void> {
    const made = this.#made;
    this.#made = undefined;
    if (made) await (await made.catch(() => undefined))?.close();
  }
}

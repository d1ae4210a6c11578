/**
 * The packet workflow as the server holds it: created on first use (so a server
 * that never sees a packet opens no store), closed with the server.
 */
import type { PacketService, PacketStore } from '../../packets/index.js';

export interface PacketBackend {
  service: PacketService;
  store: PacketStore;
  close(): Promise<void>;
}

/** Creates the backend once, on first call; `close` closes it only if it was made. */
export class LazyPacketBackend {
  readonly #make: () => Promise<PacketBackend>;
  #made: Promise<PacketBackend> | undefined;

  constructor(make: () => Promise<PacketBackend>) {
    this.#make = make;
  }

  get(): Promise<PacketBackend> {
    this.#made ??= this.#make().catch((e: unknown) => {
      // A failed start (e.g. PostgreSQL not reachable) is tried again by the next request.
      this.#made = undefined;
      throw e;
    });
    return this.#made;
  }

  async service(): Promise<PacketService> {
    return (await this.get()).service;
  }

  async close(): Promise<void> {
    const made = this.#made;
    this.#made = undefined;
    if (made) await (await made.catch(() => undefined))?.close();
  }
}

/** The server's database (packets, organizations' templates, dashboard sessions), opened on first use and closed with the server. */
export class LazyPacketStore {
  readonly #open: () => Promise<PacketStore>;
  #opened: Promise<PacketStore> | undefined;

  constructor(open: () => Promise<PacketStore>) {
    this.#open = open;
  }

  get(): Promise<PacketStore> {
    this.#opened ??= this.#open().catch((e: unknown) => {
      // A database that could not be opened (PostgreSQL down) is tried again by the next request.
      this.#opened = undefined;
      throw e;
    });
    return this.#opened;
  }

  async close(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    if (opened) await (await opened.catch(() => undefined))?.close();
  }
}

/**
 * The assembler an engine's callers keep: template tags read once across packets, and (made by
 * createPacketAssembler) its own DOCX converter, closed with it. One assembly is assemble.ts.
 */
import { DocxConverter, type DocxConverterOptions } from '../docx/convert.js';
import { scanPdf, type ScannedPdf, type TagSource } from '../tags/find.js';
import { assembleWith } from './assemble.js';
import type { AssembleCallOptions, AssembledPacket, AssembleOptions } from './assembled.js';
import type { PacketEngine } from './port.js';

/**
 * Assembles packets with one engine and keeps what can be reused between them: the text
 * tags of each template, read once (templates are immutable once handed to a store, which
 * returns the same object each time). Create one per engine. Made by `createPacketAssembler`
 * it owns its DOCX converter (LibreOffice processes) and `close()` ends it; made with `new`
 * it holds no process or file of its own and `close()` does nothing.
 */
export class PacketAssembler {
  readonly #engine: PacketEngine;
  readonly #options: AssembleOptions;
  readonly #templateScans = new WeakMap<Uint8Array, Promise<ScannedPdf>>();
  readonly #owned?: DocxConverter;

  /** `owned`: a converter this assembler closes (createPacketAssembler's own). */
  constructor(engine: PacketEngine, options: AssembleOptions = {}, owned?: DocxConverter) {
    this.#engine = engine;
    this.#options = options;
    if (owned) this.#owned = owned;
  }

  /** Ends the converter this assembler made: queued conversions fail (503), running ones are killed. */
  close(): void {
    this.#owned?.close();
  }

  assemble(body: unknown, call: AssembleCallOptions = {}): Promise<AssembledPacket> {
    return assembleWith(this.#engine, body, this.#options, (pdf, source) => this.#scanTemplate(pdf, source), call);
  }

  #scanTemplate(pdf: Uint8Array, source: TagSource): Promise<ScannedPdf> {
    let scan = this.#templateScans.get(pdf);
    if (!scan) {
      scan = scanPdf(pdf, source);
      this.#templateScans.set(pdf, scan);
      // A failure names this packet's file: never hand it to the next packet.
      scan.catch(() => this.#templateScans.delete(pdf));
    }
    return scan;
  }
}

export interface PacketAssemblerOptions extends Omit<AssembleOptions, 'docx'> {
  /** The LibreOffice converter's options (concurrency, deadline, memory limit, sandbox: docs/reference/packets.md), or a converter the caller shares and closes. */
  docx?: DocxConverterOptions | DocxConverter;
}

/**
 * An assembler for one engine with its own DOCX converter (bounded LibreOffice processes):
 * the caller closes it. createPacketWorkflow makes one; so do the server's packet threads.
 */
export function createPacketAssembler(engine: PacketEngine, options: PacketAssemblerOptions = {}): PacketAssembler {
  const { docx, ...rest } = options;
  if (docx instanceof DocxConverter) return new PacketAssembler(engine, { ...rest, docx });
  const converter = new DocxConverter(docx);
  return new PacketAssembler(engine, { ...rest, docx: converter }, converter);
}

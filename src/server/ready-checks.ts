/**
 * The dependencies `/ready` asks about. Chromium: the executable
 * the engine's browser pool would launch exists and is executable (launching a
 * browser per probe would cost more than the renders it guards; a running pool
 * relaunches by itself). Packet store: one trivial query (a packet nobody has);
 * the first probe opens the store, as the first packet request would.
 */
import type { LazyPacketBackend } from './graphql/index.js';
import type { ReadinessCheck } from './routes/health.js';

/** `executablePath` as given to the engine's `chromium` options; undefined: CASTPRESS_CHROMIUM, then the usual paths. */
export function chromiumCheck(executablePath?: string): ReadinessCheck {
  return {
    name: 'chromium',
    failure: 'Chromium cannot be started: its executable is missing or not executable',
    async probe() {
      // Loaded on first probe: the HTML renderer's module graph is the heaviest of the engine.
      const { findChromium } = await import('../html/index.js');
      findChromium(executablePath);
    },
  };
}

export function packetStoreCheck(packets: LazyPacketBackend): ReadinessCheck {
  return {
    name: 'store',
    failure: 'The packet store does not answer',
    async probe() {
      const { store } = await packets.get();
      await store.packet('readiness-probe');
    },
  };
}

import { fileURLToPath } from 'node:url';

/** The worker-thread entry of every castpress pool: batch, queue worker and the server's render pool. */
export const WORKER_FILE = fileURLToPath(new URL('./worker-entry.mjs', import.meta.url));

/**
 * Runs a guide's ts blocks (already transpiled to .mjs) one after another in one process, for
 * test/docs.test.ts: a process of its own per block would pay the package's import (~2 s of CPU
 * in dist's ES modules on Node 20) again for every block.
 *   stdin: one JSON line per block, {"file": "<absolute .mjs>", "cwd": "<folder>"}
 *   stdout: what the block prints, then a line `<MARK> {"ok":true}` or `<MARK> {"ok":false,"error":"..."}`
 * A block counts as ended where its own process would have exited: once it has no handle left
 * that keeps the event loop alive beyond what this runner itself holds (a server or engine left
 * open fails, as it hung the process before). A block that sets a failing exitCode fails. An
 * uncaught error or a rejection nobody handles ends the runner, as it ended the block's process.
 */
import { pathToFileURL } from 'node:url';

const MARK = '\u0000castpress-block-end';

/** Resources keeping the loop alive, counted by type. */
function resources() {
  const counts = new Map();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

function extra(baseline) {
  const left = [];
  for (const [type, n] of resources())
    if (n > (baseline.get(type) ?? 0)) left.push(`${type} x${n - (baseline.get(type) ?? 0)}`);
  return left;
}

/** Resolves once nothing beyond the baseline keeps the loop alive; rejects after `ceilingMs`. */
function settled(baseline, ceilingMs) {
  const until = Date.now() + ceilingMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      // Called from the timer's own callback, which still counts as an active Timeout here.
      const left = extra(new Map([...baseline, ['Timeout', (baseline.get('Timeout') ?? 0) + 1]]));
      if (left.length === 0) resolve();
      else if (Date.now() > until) reject(new Error(`the block left the process running: ${left.join(', ')}`));
      else setTimeout(poll, 20);
    };
    setTimeout(poll, 0);
  });
}

function report(result) {
  process.stdout.write(`\n${MARK} ${JSON.stringify(result)}\n`);
}

async function runBlock({ file, cwd }) {
  // What the runner itself holds (stdin, stdout) keeps the loop alive before the block too.
  const baseline = resources();
  process.chdir(cwd);
  process.exitCode = undefined;
  try {
    await import(pathToFileURL(file).href);
    await settled(baseline, Number(process.env.BLOCK_SETTLE_MS ?? 150_000));
    if (process.exitCode) throw new Error(`the block set exit code ${process.exitCode}`);
    report({ ok: true });
  } catch (error) {
    report({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    process.exitCode = undefined;
  }
}

// The runner's own handles, made now so that each block's baseline holds them: stdout and stderr
// (a pipe's handle is made on first use), and stdin, read line by line.
void process.stdout;
void process.stderr;
let pending = '';
let queue = Promise.resolve();
process.stdin.on('data', (d) => {
  const lines = (pending + d.toString()).split('\n');
  pending = lines.pop();
  for (const line of lines.filter(Boolean)) queue = queue.then(() => runBlock(JSON.parse(line)));
});
process.stdin.on('end', () => queue.then(() => process.exit(0)));

// CPU of a fresh process from its start to one packet completed with adopted marks (the
// certificate's marks load no pdf.js). Bundles test/helpers/workflow-crash-child.ts of each
// checkout given (as the crash test does, one CommonJS file) and runs them alternately, each child
// under /usr/bin/time -v: `go`, wait for `done`, close stdin (the child exits). Prints user+sys per run
// and the medians.
//   node bench/completion-cold.mjs RUNS CHECKOUT [CHECKOUT...]
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [runs, ...roots] = process.argv.slice(2);
const { build } = await import('esbuild');
const children = [];
for (const root of roots.map((r) => path.resolve(r))) {
  const { cjsBundleOptions } = await import(pathToFileURL(path.join(root, 'scripts/bundle.mjs')).href);
  // Two levels below the checkout, as src/<capability>/ is, so paths taken from import.meta.url hold.
  const out = path.join(root, 'test-output', 'completion-cold', 'child.cjs');
  await mkdir(path.dirname(out), { recursive: true });
  await build(cjsBundleOptions(path.join(root, 'test/helpers/workflow-crash-child.ts'), out));
  children.push({ root, out, cpu: [] });
}

function once(child) {
  return new Promise(async (resolve, reject) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'completion-cold-'));
    const p = spawn(
      '/usr/bin/time',
      ['-v', process.execPath, child.out, path.join(dir, 's'), path.join(dir, 'i'), 'http://127.0.0.1:9/h'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => {
      out += d;
      if (/ready\n/.test(out) && !out.includes('\u0000go')) {
        out += '\u0000go';
        p.stdin.write('go\n');
      }
      if (/done /.test(out)) p.stdin.end();
    });
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', async () => {
      await rm(dir, { recursive: true, force: true });
      const user = Number(/User time \(seconds\): ([\d.]+)/.exec(err)?.[1]);
      const sys = Number(/System time \(seconds\): ([\d.]+)/.exec(err)?.[1]);
      if (!/done /.test(out) || !Number.isFinite(user)) reject(new Error(`${child.root}: ${err.slice(-2000)}`));
      else resolve(user + sys);
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let i = 0; i < Number(runs); i++) {
  for (const child of children) {
    const cpu = await once(child);
    child.cpu.push(cpu);
    console.log(`${child.root}\trun ${i + 1}\tuser+sys ${cpu.toFixed(2)} s`);
  }
}
for (const c of children)
  console.log(`${c.root}\tmedian ${median(c.cpu).toFixed(2)} s\t[${c.cpu.map((x) => x.toFixed(2)).join(', ')}]`);

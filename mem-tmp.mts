import { createEngine } from './src/index.js';
import { demoTemplate } from './examples/demo-template.js';
const engine = createEngine();
const template = await demoTemplate();
const gc = (globalThis as { gc?: () => void }).gc!;
for (let i = 1; i <= 12000; i++) {
  await engine.fill(template, { data: { name: { firstName: 'Ada', lastName: `Lovelace ${i}` }, ssn: '123456789', salary: i, notes: `Fill number ${i}` } });
  if (i % 2000 === 0 || i === 100) { gc(); const m = process.memoryUsage(); console.log(i, 'heap', (m.heapUsed / 1048576).toFixed(1), 'rss', (m.rss / 1048576).toFixed(0), 'ext', (m.external / 1048576).toFixed(1), 'ab', (m.arrayBuffers / 1048576).toFixed(1)); }
}
await engine.close();

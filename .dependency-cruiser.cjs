/**
 * The floors of src/ (README "Layout of the code"), checked by `npm run lint:deps`.
 *
 * Each floor may import the floors below it; within a floor, a folder may import the folders
 * listed before it (never after), so no two folders import each other. src/index.ts, the public
 * API, stands above every floor. Imports between folders go through the folder's index.ts, and
 * no file cycle exists anywhere (inside a folder either). Type-only imports count like any other:
 * a type that runs back up is the same tangle to a reader.
 */
const FLOORS = [
  // ground: no PDF, no fonts; errors first, everything may report one; geometry is types only.
  ['errors', 'geometry', 'format', 'crypto', 'images', 'resources', 'schema', 'page-options'],
  // kernel: the only place that loads, edits and writes PDFs.
  ['pdf'],
  // text: fonts, then measuring and drawing text with them.
  ['fonts', 'text'],
  // writers: the one AcroForm field writer (and reader of fillable PDFs' forms).
  ['acroform'],
  // fields: the field types and their vocabulary, the template built of them, what an engine lends renderers.
  ['fields', 'template', 'services'],
  // renderers: fill, Markdown, HTML (Chromium), signing (identities, seals, marks).
  ['fill', 'markdown', 'html', 'signing'],
  ['engine'],
  // packets: beside the engine, through their own port (src/packets/assemble/port.ts); field detection after
  // them (it reads pages with their glyph reader and tag finder).
  ['packets', 'detect'],
  // workflows: workflows (forms whose submissions make packets), above packets, below the faces.
  ['workflows'],
  // faces: batch jobs (whose worker entry is also the server's thread pool), the dashboard (which the server
  // registers), the server, the command line over both.
  ['batch', 'dashboard', 'server', 'cli'],
];

const order = FLOORS.flat();
const floorOf = new Map(FLOORS.flatMap((floor, i) => floor.map((folder) => [folder, i])));
/** What `folder` may import: every folder on a lower floor, and those before it on its own. */
const allowed = (folder) =>
  order.filter(
    (other) =>
      other !== folder &&
      (floorOf.get(other) < floorOf.get(folder) ||
        (floorOf.get(other) === floorOf.get(folder) && order.indexOf(other) < order.indexOf(folder))),
  );
const alt = (names) => `(${names.join('|')})`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A file may not reach itself through its imports (in one folder or across folders).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'No two folders (at any depth) import each other, even through different files.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'through-index',
      severity: 'error',
      comment: "Another src folder is imported only through its index.ts, the folder's one door.",
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'unplaced-folder',
      severity: 'error',
      comment: 'Every src folder has its floor in .dependency-cruiser.cjs (and in the README layout section).',
      // src/api holds the package's other doors (castpress/packets, /signing, /server, /batch): like
      // src/index.ts it stands above every floor and nothing in src imports it.
      from: { path: `^src/(?!${alt([...order, 'api'])}/)[^/]+/` },
      to: {},
    },
    ...order.map((folder) => ({
      name: `floors-${folder}`,
      severity: 'error',
      comment: `${folder} imports only from the floors below it (and the folders before it on its own floor): ${allowed(folder).join(', ') || 'nothing'}.`,
      from: { path: `^src/${folder}/` },
      to: {
        path: '^src/',
        pathNot: [`^src/${folder}/`, ...(allowed(folder).length ? [`^src/${alt(allowed(folder))}/`] : [])],
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // .tsx: the dashboard app's components (their imports name `.js`, as every module's do).
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};

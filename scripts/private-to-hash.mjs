// One private-member style: class members are ECMAScript `#` members, not TypeScript
// `private` ones. `node scripts/private-to-hash.mjs --check` lists every `private` member of a
// class in src/ and exits 1 when there is one; `--write` converts them: the keyword goes and the
// member and every reference to it (the language service's rename locations) become `#name`.
// Left as they are: `private constructor` (no `#` form) and `protected` members (subclasses use them).
// A parameter property (`constructor(private readonly x: T)`) is reported, not rewritten: it
// becomes a `#x` field assigned in the constructor, by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const write = process.argv.includes('--write');
const config = ts.getParsedCommandLineOfConfigFile(
  path.join(root, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(d.messageText) },
);
const files = new Map(config.fileNames.map((f) => [f, readFileSync(f, 'utf8')]));
const service = ts.createLanguageService(
  {
    getScriptFileNames: () => [...files.keys()],
    getScriptVersion: () => '0',
    getScriptSnapshot: (f) => {
      const text = files.get(f) ?? (ts.sys.fileExists(f) ? ts.sys.readFile(f) : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => config.options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  },
  ts.createDocumentRegistry(),
);
const src = path.join(root, 'src') + path.sep;
const edits = new Map();
const add = (file, start, end, text) => (edits.get(file) ?? edits.set(file, []).get(file)).push({ start, end, text });
const found = [];
const problems = [];
const where = (file, pos) => `${path.relative(root, file)}:${files.get(file).slice(0, pos).split('\n').length}`;
const isPrivate = (node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);

for (const sf of service.getProgram().getSourceFiles()) {
  if (!sf.fileName.startsWith(src)) continue;
  const visit = (node) => {
    if (ts.isParameter(node) && isPrivate(node) && ts.isConstructorDeclaration(node.parent)) {
      found.push(where(sf.fileName, node.getStart(sf)));
      problems.push(
        `${where(sf.fileName, node.getStart(sf))}: parameter property ${node.name.getText(sf)}: make it a # field by hand`,
      );
    }
    const member =
      ts.isPropertyDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node);
    if (member && isPrivate(node) && ts.isIdentifier(node.name)) {
      const name = node.name.text;
      found.push(`${where(sf.fileName, node.getStart(sf))}: ${name}`);
      if (node.parent.members.some((m) => m.name && ts.isPrivateIdentifier(m.name) && m.name.text === `#${name}`))
        problems.push(`${where(sf.fileName, node.getStart(sf))}: #${name} exists beside private ${name}`);
      const keyword = ts.getModifiers(node).find((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
      add(sf.fileName, keyword.getStart(sf), keyword.getEnd() + 1, '');
      for (const loc of service.findRenameLocations(sf.fileName, node.name.getStart(sf), false, false, {
        providePrefixAndSuffixTextForRename: false,
      }) ?? []) {
        const text = files.get(loc.fileName);
        const start = loc.textSpan.start;
        const end = start + loc.textSpan.length;
        const declaration = loc.fileName === sf.fileName && start === node.name.getStart(sf);
        const access = /\??\.\s*$/.test(text.slice(Math.max(0, start - 8), start));
        if (text.slice(start, end) !== name || (!declaration && !access)) {
          problems.push(`${where(loc.fileName, start)}: ${name} used other than as a member access: convert by hand`);
          continue;
        }
        add(loc.fileName, start, end, `#${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

if (write) {
  for (const [file, list] of edits) {
    let text = files.get(file);
    for (const e of list.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
    writeFileSync(file, text);
  }
  console.log(`${found.length} private members converted in ${edits.size} files`);
} else if (found.length > 0) {
  console.log(
    `${found.length} TypeScript private members (this project writes # members: node scripts/private-to-hash.mjs --write):\n${found.join('\n')}`,
  );
}
if (problems.length > 0) console.error(problems.join('\n'));
process.exit(!write && found.length > 0 ? 1 : problems.length > 0 ? 1 : 0);

/**
 * The API reference (TypeDoc) names each module by the path users import it from, and opens on the
 * README's overview: every export of package.json is an entry point whose `@module` is that path.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  name: string;
  exports: Record<string, string | { import: string }>;
};
const typedoc = JSON.parse(readFileSync('typedoc.json', 'utf8')) as { entryPoints: string[]; readme: string };

describe('API reference modules', () => {
  const entries = Object.entries(pkg.exports).filter(([, t]) => typeof t !== 'string');
  it('has one entry point per package export, named by its import path', () => {
    expect(entries.length).toBeGreaterThanOrEqual(5);
    const named = entries.map(([key, target]) => {
      const built = (target as { import: string }).import;
      const source = built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      const module = /@module (\S+)/.exec(readFileSync(source, 'utf8'))?.[1];
      return { source, module, want: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}` };
    });
    expect(named.map((n) => n.module)).toEqual(named.map((n) => n.want));
    expect([...typedoc.entryPoints].sort()).toEqual(named.map((n) => n.source).sort());
  });

  it("opens on the README's overview", () => {
    expect(typedoc.readme).toBe('README.md');
  });
});

import { describe, expect, it } from 'vitest';
import { clientModules } from '../src/routes/static.js';

const assets = (files: Record<string, string>) =>
  new Map(Object.entries(files).map(([name, text]) => [name, { body: Buffer.from(text) }]));

describe('clientModules', () => {
  it('should list the entry, then each module its static imports reach, once, in the order found', () => {
    const found = clientModules(
      assets({
        'app.js': "import { a } from './a.js';\nimport './b.js';\n",
        'a.js': "import { c } from './c.js';\nimport { b } from './b.js';\n",
        'b.js': "import { a } from './a.js';\n", // a cycle
        'c.js': "// import { x } from './not-an-import.js';\nexport const c = 1;\n",
        'unused.js': 'export const u = 1;\n',
        'app.css': '',
      }),
    );
    expect(found).toEqual(['app.js', 'a.js', 'b.js', 'c.js']);
  });

  it('should skip a module it does not serve and anything but a sibling import', () => {
    const found = clientModules(
      assets({
        'app.js':
          "import { a } from './gone.js';\nimport x from 'pkg';\nimport { y } from '../up.js';\nconst z = import('./lazy.js');\n",
        'lazy.js': '',
      }),
    );
    expect(found).toEqual(['app.js']);
  });

  it('should list nothing without the entry module', () => {
    expect(clientModules(assets({ 'a.js': '' }))).toEqual([]);
  });
});

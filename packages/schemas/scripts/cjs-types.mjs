// After tsc: gives the CommonJS entry (dist/index.cjs) its own declarations. tsc's dist/**/*.d.ts describe ES
// modules (the package is "type": "module"), and TypeScript refuses them to a `require` caller, so each one is
// copied to a .d.cts beside it with its relative imports pointing at the .cjs twins. dist/index.cjs exports the same
// values as dist/index.js (scripts/build-assets.mjs), so the declarations are the same.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from './schema-files.mjs';

const dist = join(packageDir, 'dist');
const declarations = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.d.ts'));
for (const file of declarations) {
  const text = readFileSync(join(dist, file), 'utf8')
    .replace(/(from\s+['"]\.{1,2}\/[^'"]*?)\.js(['"])/g, '$1.cjs$2')
    // The declaration map belongs to the .d.ts; the .d.cts is a copy without one.
    .replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
  writeFileSync(join(dist, `${file.slice(0, -'.d.ts'.length)}.d.cts`), text);
}
console.log(`cjs-types: ${declarations.length} declarations copied as .d.cts.`);

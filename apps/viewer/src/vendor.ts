import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Third-party client modules the viewer serves as its own static files (never from a CDN): the name under
 * /static/, the package and its self-contained ES module build. apps/cli/scripts/bundle.mjs copies the same
 * files into the bundle's static/ (where no node_modules exist).
 */
export const VENDOR_MODULES = [
  { name: 'dagre.js', pkg: '@dagrejs/dagre', file: 'dist/dagre.esm.js' },
] as const;

/** The module's text as served: its license text inline (not a pointer to a file), no source-map comment. */
export function servable(text: string, license: string | undefined): string {
  // The pattern is spelled so that this file's own text holds no source-map comment marker (the bundle is checked).
  const t = text.replace(/\n?\/\/# sourceMapping(?:URL)=\S+\s*$/, '\n');
  return license ? t.replace(/\/\*! For license information please see \S+ \*\//, () => license.trim()) : t;
}

/** The vendor modules that resolve from here, by name; a bundled viewer finds them in its static/ instead. */
export function vendorAssets(): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const require = createRequire(import.meta.url);
  for (const v of VENDOR_MODULES) {
    try {
      const dir = dirname(require.resolve(`${v.pkg}/package.json`));
      const path = join(dir, v.file);
      const license = existsSync(`${path}.LEGAL.txt`) ? readFileSync(`${path}.LEGAL.txt`, 'utf8') : undefined;
      out.set(v.name, Buffer.from(servable(readFileSync(path, 'utf8'), license)));
    } catch {
      // Not installed beside this file (the bundled CLI): static/ holds the copy.
    }
  }
  return out;
}

// A case's file tree: written before a run, read back after it. JSON written by a JSON.stringify(v, null, 2) + '\n'
// (the original's format) is kept as a value, anything else as its text, so fixture files stay readable.
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The JSON serialisation both tools write. */
export const serialize = (v) => `${JSON.stringify(v, null, 2)}\n`;

/** Writes `files` (path → value, or text) and `dirs` (path → {mtime}) under `root`. */
export function writeTree(root, files = {}, dirs = {}) {
  for (const [rel, v] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, typeof v === 'string' ? v : serialize(v));
  }
  for (const [rel, d] of Object.entries(dirs)) {
    const p = join(root, rel);
    mkdirSync(p, { recursive: true });
    if (d.mtime) utimesSync(p, new Date(d.mtime), new Date(d.mtime));
  }
}

/** Reads every file under `root` back: path → value when the text is canonical JSON, else the text. */
export function readTree(root) {
  const out = {};
  const walk = (dir, rel) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(p).isDirectory()) walk(p, r);
      else out[r] = decode(readFileSync(p, 'utf8'));
    }
  };
  walk(root, '');
  return out;
}

function decode(text) {
  try {
    const v = JSON.parse(text);
    if (typeof v !== 'string' && serialize(v) === text) return v;
  } catch {
    // Not JSON: kept as text.
  }
  return text;
}

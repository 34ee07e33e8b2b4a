#!/usr/bin/env node
// The floor: the least any validator must do. Walks the tree (skipping node_modules and .git, as ckpt does),
// reads every .json file synchronously and JSON.parses it. No validation, no output but a count on stderr.
import { readdirSync, readFileSync, statSync } from 'node:fs';

let files = 0;
function visit(p) {
  if (p.endsWith('.json')) {
    JSON.parse(readFileSync(p, 'utf8'));
    files++;
  }
}
function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== '.git') walk(p);
    } else if (e.isFile()) visit(p);
  }
}
for (const arg of process.argv.slice(2)) {
  if (statSync(arg).isDirectory()) walk(arg);
  else visit(arg);
}
if (process.env.FLOOR_VERBOSE) process.stderr.write(`${files} files\n`);

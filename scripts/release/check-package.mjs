#!/usr/bin/env node
// Checks what a packed package (a .tgz as the registry serves it) holds, beyond what publint and attw look at:
// no test files, every source map's sources and every sourceMappingURL inside the tarball, every exports/bin/
// main/types target present (a wildcard target matching at least one file), no `workspace:` range left, and a
// repository.url (npm provenance needs it).
// Usage: check-package.mjs <package.tgz>...  Exit 1 with one line per problem.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';

const TEST_FILE =
  /(^|\/)(test|tests|__tests__|test-fixtures)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test-[^/]*\.[cm]?[jt]s$/;

/** Every string target under an exports value, with the condition path that leads to it. */
function exportTargets(value, path) {
  if (typeof value === 'string') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => exportTargets(v, `${path} > ${k}`));
}

function wildcardMatches(target, files) {
  const [head, tail] = target.replace(/^\.\//, '').split('*');
  return files.some((f) => f.startsWith(head) && f.endsWith(tail) && f.length >= head.length + tail.length);
}

function checkTarball(tgz) {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-check-'));
  try {
    execFileSync('tar', ['-xzf', tgz, '-C', dir]);
    const root = join(dir, 'package');
    const files = execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    const has = new Set(files);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const problems = [];

    for (const f of files) if (TEST_FILE.test(f)) problems.push(`ships a test file: ${f}`);

    for (const f of files.filter((x) => x.endsWith('.map'))) {
      const map = JSON.parse(readFileSync(join(root, f), 'utf8'));
      map.sources.forEach((s, i) => {
        const resolved = posix.normalize(posix.join(posix.dirname(f), map.sourceRoot ?? '', s));
        if (!has.has(resolved) && map.sourcesContent?.[i] == null)
          problems.push(`${f}: source ${s} is not in the package and not inlined`);
      });
    }
    for (const f of files.filter((x) => /\.(c|m)?(js|ts)$/.test(x))) {
      const m = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(root, f), 'utf8'));
      if (m && !m[1].startsWith('data:') && !has.has(posix.join(posix.dirname(f), m[1])))
        problems.push(`${f}: sourceMappingURL ${m[1]} is not in the package`);
    }

    const targets = [
      ...exportTargets(pkg.exports ?? {}, 'exports'),
      ...Object.entries(typeof pkg.bin === 'string' ? { bin: pkg.bin } : (pkg.bin ?? {})).map(([k, v]) => [
        `bin > ${k}`,
        v,
      ]),
      ...['main', 'module', 'types'].filter((k) => pkg[k]).map((k) => [k, pkg[k]]),
    ];
    for (const [where, target] of targets) {
      const ok = target.includes('*')
        ? wildcardMatches(target, files)
        : has.has(posix.normalize(target.replace(/^\.\//, '')));
      if (!ok) problems.push(`${where}: ${target} is not in the package`);
    }
    for (const [, target] of targets.filter(([w]) => w.startsWith('bin'))) {
      const text = readFileSync(join(root, target), 'utf8');
      if (!text.startsWith('#!')) problems.push(`bin ${target} has no #! line`);
    }

    // npm provenance refuses a package whose repository.url does not name the repository that built it.
    if (!/github\.com\/ckpt-dev\/ckpt(\.git)?$/.test(pkg.repository?.url ?? ''))
      problems.push(
        `repository.url is ${JSON.stringify(pkg.repository?.url)}: provenance needs this repository's`,
      );

    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
      for (const [name, range] of Object.entries(pkg[field] ?? {}))
        if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} is still ${range}`);

    return { name: `${pkg.name}@${pkg.version}`, files: files.length, problems };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let failed = false;
for (const tgz of process.argv.slice(2)) {
  const r = checkTarball(tgz);
  if (r.problems.length === 0) console.log(`check-package: ${r.name}: ${r.files} files, all good`);
  else {
    failed = true;
    console.error(`check-package: ${r.name} (${dirname(tgz)}):\n  ${r.problems.join('\n  ')}`);
  }
}
process.exitCode = failed ? 1 : 0;

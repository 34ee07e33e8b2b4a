#!/usr/bin/env node
// Builds the self-contained `ckpt` into dist/bundle/: what the packed @ckpt/cli ships, needing nothing from the
// workspace or the registry at run time (the package has no runtime dependencies).
//
//   ckpt.js, chunks   the full program (commander, core, the viewer with fastify), one chunk per lazy command
//   validate.cjs      the `ckpt validate` fast path in one CommonJS file (loading ~100 modules costs more than a
//                     check; bin/ckpt.js compiles it with a V8 code cache, which Node 20 offers only for scripts),
//                     holding the catalog too
//   pool-worker.js    the worker thread of core's pool (validate on many files)
//   load-worker.js    the viewer's loader thread (loads the project while the server answers)
//   tinyglobby.js     glob matching, loaded by both only for glob arguments (tinyglobby.cjs: the fast path's copy)
//   schemas/          @ckpt/schemas' JSON: catalog.json and <dialect>/<kind>.schema.json
//   validators/       the precompiled validators, with the ajv runtime they require bundled beside them
//   static/           the viewer's client files
// @parcel/watcher (the viewer's file watcher) is native: it stays external, an optional dependency of the package
// that the viewer imports at run time, falling back to fs.watch when it is not installed.
//
// Core loads the catalog, schemas and validators on first use with `require('@ckpt/schemas/…')`, which no
// bundler can follow; the `schemasNextToBundle` plugin points those requires at the copies above (relative to
// the chunk, which always sits in dist/bundle/) and the build fails if one is left over.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const cli = join(import.meta.dirname, '..');
const dist = join(cli, 'dist');
const final = join(dist, 'bundle');
// Built beside the old bundle and swapped in, so a `ckpt` running meanwhile finds a whole bundle or none (bin/ckpt.js
// then loads tsc's modules).
const out = join(dist, 'bundle.new');
const require = createRequire(join(cli, 'package.json'));
const schemasDir = dirname(require.resolve('@ckpt/schemas/package.json'));
const viewerDir = dirname(require.resolve('@ckpt/viewer/package.json'));
const coreDir = dirname(require.resolve('@ckpt/core/package.json'));
const coreWorker = join(coreDir, 'dist', 'pool', 'pool-worker.js');

for (const need of [join(dist, 'main.js'), join(schemasDir, 'json', 'catalog.json')]) {
  if (!existsSync(need))
    fail(`${relative(cli, need)} is missing: run \`pnpm build\` (turbo builds what it needs)`);
}

// `--if-stale` (prepack): keep a bundle newer than everything it is made from, so packing during tests never
// rewrites the bundle other tests are running.
const inputs = [
  join(dist, 'main.js'),
  join(dist, 'commands', 'validate-fast.js'),
  join(cli, 'scripts', 'bundle.mjs'),
  join(schemasDir, 'dist', 'index.js'),
  join(schemasDir, 'json', 'catalog.json'),
  join(dirname(require.resolve('@ckpt/core/package.json')), 'dist', 'index.js'),
  coreWorker,
  join(viewerDir, 'dist', 'index.js'),
  join(viewerDir, 'dist', 'load-worker.js'),
  ...walk(join(viewerDir, 'static')),
];
if (process.argv.includes('--if-stale') && isFresh(join(final, 'ckpt.js'), inputs)) {
  process.stderr.write('dist/bundle/ is newer than what it is made from: kept\n');
  process.exit(0);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(join(schemasDir, 'json'), join(out, 'schemas'), { recursive: true, filter: jsonOrDir });
cpSync(join(viewerDir, 'static'), join(out, 'static'), { recursive: true });
// The viewer's vendor modules (apps/viewer/src/vendor.ts serves them from node_modules), without source maps.
for (const v of [{ name: 'dagre.js', pkg: '@dagrejs/dagre', file: 'dist/dagre.esm.js' }]) {
  const dir = dirname(createRequire(join(viewerDir, 'package.json')).resolve(`${v.pkg}/package.json`));
  const path = join(dir, v.file);
  const license = existsSync(`${path}.LEGAL.txt`) ? readFileSync(`${path}.LEGAL.txt`, 'utf8').trim() : '';
  const text = readFileSync(path, 'utf8')
    .replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n')
    .replace(/\/\*! For license information please see \S+ \*\//, () => license);
  writeFileSync(join(out, 'static', v.name), text);
}

/** Rewrites core's runtime requires of @ckpt/schemas to the copies in dist/bundle/. */
function schemasNextToBundle() {
  return {
    name: 'ckpt-schemas-next-to-bundle',
    transform(code) {
      if (!code.includes('@ckpt/schemas/')) return null;
      return code
        .replaceAll("'@ckpt/schemas/catalog.json'", "'./schemas/catalog.json'")
        .replaceAll('`@ckpt/schemas/schemas/', '`./schemas/')
        .replace(/`@ckpt\/schemas\/validators\/(\$\{\w+\})`/g, (_, kind) => `\`./validators/${kind}.cjs\``);
    },
    renderChunk(code, chunk) {
      if (code.includes('@ckpt/schemas/'))
        this.error(
          `${chunk.fileName} still requires @ckpt/schemas/… at run time: teach bundle.mjs the new form`,
        );
      return null;
    },
  };
}

/**
 * picocolors works out at load time whether its default colours are on, reading `process.stdout.isTTY`, which
 * builds the stdout stream (several modules, ~2 ms). ckpt never uses those defaults (it always calls
 * `createColors(on)` with its own answer: output/color.ts), so the bundle leaves the stream alone.
 */
function picocolorsWithoutStdout() {
  const probe = '((p.stdout || {}).isTTY && env.TERM !== "dumb")';
  return {
    name: 'ckpt-picocolors-without-stdout',
    transform(code, id) {
      if (!/[\\/]picocolors[\\/]picocolors\.js$/.test(id)) return null;
      if (!code.includes(probe))
        this.error(`${id}: picocolors no longer reads stdout as bundle.mjs expects: look again`);
      return code.replace(probe, 'false');
    },
  };
}

/**
 * For the fast path only: core's `require(\`@ckpt/schemas/validators/${kind}\`)` becomes a require of
 * ./validators/<kind>.cjs by validate.cjs's own `require`, the one its loader hands it: bin/ckpt.js's loader
 * compiles those files (and the ajv runtime chunks they require) with a code cache too (~2 ms of a one-file run
 * otherwise). Node's require, where the bundle is loaded some other way, loads the same files.
 */
function validatorsByOwnRequire() {
  const id = '\0ckpt-validators';
  const call = /require\(`@ckpt\/schemas\/validators\/\$\{(\w+)\}`\)/;
  return {
    name: 'ckpt-validators-by-own-require',
    resolveId: (source) => (source === 'ckpt:validators' ? id : null),
    load: (source) =>
      source === id ? "module.exports = (kind) => require('./validators/' + kind + '.cjs');" : null,
    transform(code) {
      if (!call.test(code)) return null;
      return `import __ckptValidatorModule from 'ckpt:validators';\n${code.replace(call, (_, kind) => `__ckptValidatorModule(${kind})`)}`;
    },
  };
}

/**
 * For the fast path only: schemas/catalog.json (5 KB, read by every run) becomes part of validate.cjs instead of a
 * file required at run time through Node's module loader.
 */
function catalogInline() {
  const call = "require('@ckpt/schemas/catalog.json')";
  return {
    name: 'ckpt-catalog-inline',
    transform(code) {
      if (!code.includes(call)) return null;
      const json = JSON.stringify(join(schemasDir, 'json', 'catalog.json'));
      return `import __ckptCatalog from ${json};\n${code.replaceAll(call, '__ckptCatalog')}`;
    },
  };
}

// tinyglobby (for glob arguments only) is one file of its own that both programs import on demand.
const common = {
  platform: 'node',
  plugins: [schemasNextToBundle(), picocolorsWithoutStdout()],
  external: ['tinyglobby', '@parcel/watcher'],
  logLevel: 'warn',
};
const paths = { tinyglobby: './tinyglobby.js' };

// The full program: bin/ckpt.js imports `main`. Lazily imported commands stay separate chunks.
await build({ ...common, input: { ckpt: join(dist, 'main.js') } }, { dir: out, codeSplitting: true, paths });

/**
 * The fast path's entry: `fastValidate`, and what its pool's workers need to run the same file (bin/ckpt.js starts
 * them on itself, loading validate.cjs with the code cache the main thread wrote): `setPoolWorker`, `servePool`, and
 * `adoptPoolWorker` for the worker it starts at its first line.
 */
function fastPathEntry() {
  const id = '\0ckpt-validate-entry';
  const from = (file) => JSON.stringify(file);
  return {
    name: 'ckpt-validate-entry',
    resolveId: (source) => (source === 'ckpt:validate-entry' ? id : null),
    load: (source) =>
      source === id
        ? [
            `export { fastValidate } from ${from(join(dist, 'commands', 'validate-fast.js'))};`,
            `export { adoptPoolWorker, setPoolWorker } from ${from(join(coreDir, 'dist', 'pool', 'pool.js'))};`,
            `export { servePool } from ${from(join(coreDir, 'dist', 'pool', 'serve.js'))};`,
          ].join('\n')
        : null,
  };
}

// The fast path: one CommonJS file (bin/ckpt.js runs it through vm.Script with a code cache), where the import of
// tinyglobby becomes a require of its CommonJS copy: a script compiled by vm cannot import().
await build(
  {
    ...common,
    plugins: [fastPathEntry(), validatorsByOwnRequire(), catalogInline(), ...common.plugins],
    input: { validate: 'ckpt:validate-entry' },
  },
  {
    dir: out,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    codeSplitting: false,
    dynamicImportInCjs: false,
    paths: { tinyglobby: './tinyglobby.cjs' },
    // ASCII only (other characters escaped): Node decodes an ASCII file several times faster (~2 ms for this one
    // against ~6), and V8 keeps it as a one-byte string.
    charset: 'ascii',
  },
);
const fastPath = readFileSync(join(out, 'validate.cjs'), 'utf8');
if (/\bimport\s*\(/.test(fastPath))
  fail(
    'dist/bundle/validate.cjs still has an import(): bin/ckpt.js compiles it with vm.Script, which cannot',
  );
if (/[^\x00-\x7f]/.test(fastPath)) fail('dist/bundle/validate.cjs is not ASCII only: see `charset` above');

// The worker thread of core's pool (validate's per-file pass on large inputs): one file beside the chunks, where
// core's pool.js looks for it (`new URL('pool-worker.js', import.meta.url)` from whichever chunk holds it).
await build({ ...common, input: { 'pool-worker': coreWorker } }, { dir: out, codeSplitting: false, paths });

// The viewer's loader thread: one file beside the chunks, where the viewer's project.js looks for it.
await build(
  { ...common, input: { 'load-worker': join(viewerDir, 'dist', 'load-worker.js') } },
  { dir: out, codeSplitting: false, paths },
);

for (const format of ['esm', 'cjs'])
  await build(
    {
      platform: 'node',
      input: { tinyglobby: fileURLToPath(import.meta.resolve('tinyglobby')) },
      logLevel: 'warn',
    },
    { dir: out, codeSplitting: false, format, entryFileNames: format === 'cjs' ? '[name].cjs' : '[name].js' },
  );

// The validators are CommonJS requiring small ajv runtime modules: each is bundled with them into one file (~10 KB
// of runtime repeated per validator), so a one-file validate loads two files, not five.
const validators = validatorFiles();
for (const [kind, file] of Object.entries(validators))
  await build(
    { platform: 'node', input: { [kind]: file }, logLevel: 'warn' },
    {
      dir: join(out, 'validators'),
      format: 'cjs',
      entryFileNames: '[name].cjs',
      codeSplitting: false,
      exports: 'auto',
    },
  );

rmSync(`${final}.old`, { recursive: true, force: true });
rmSync(join(dist, 'validate.bundle.js'), { force: true }); // where the fast path's bundle was before dist/bundle/
if (existsSync(final)) renameSync(final, `${final}.old`);
renameSync(out, final);
rmSync(`${final}.old`, { recursive: true, force: true });

const size = walk(final).reduce((n, f) => n + statSync(f).size, 0);
process.stderr.write(
  `bundled ckpt into dist/bundle/ (${walk(final).length} files, ${Math.round(size / 1024)} KB): ` +
    `${Object.keys(validators).length} validators, the viewer's client, no runtime dependencies\n`,
);

async function build(input, output) {
  const bundle = await rolldown(input);
  await bundle.write({ format: 'esm', minify: true, ...output });
  await bundle.close();
}

/** Kind (`team/run`) → the precompiled validator's file in @ckpt/schemas. */
function validatorFiles() {
  const dir = join(schemasDir, 'dist', 'validators');
  return Object.fromEntries(
    walk(dir)
      .filter((f) => f.endsWith('.cjs'))
      .map((f) => [relative(dir, f).slice(0, -'.cjs'.length).split('\\').join('/'), f]),
  );
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function isFresh(file, sources) {
  const made = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  return made !== undefined && sources.every((s) => statSync(s).mtimeMs <= made);
}

function jsonOrDir(src) {
  return src.endsWith('.json') || statSync(src).isDirectory();
}

function fail(message) {
  process.stderr.write(`bundle: ${message}\n`);
  process.exit(1);
}

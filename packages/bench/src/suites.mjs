// What each suite runs. Every command gets the same files: the floor and ckpt walk the whole tree; ajv-cli and
// sourcemeta validate the task events (98.5% of the files) against the same schema ckpt uses for them.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const node = process.execPath;
const pkgDir = (name) => dirname(require.resolve(`${name}/package.json`));

function sourcemetaBinary() {
  const os = platform() === 'win32' ? 'windows' : platform();
  const cpu = arch() === 'x64' ? 'x86_64' : arch();
  const musl = os === 'linux' && process.report?.getReport().header.glibcVersionRuntime === undefined;
  const exe = join(
    pkgDir('@sourcemeta/jsonschema'),
    'build',
    'github-releases',
    `jsonschema-${os}-${cpu}${musl ? '-musl' : ''}${os === 'windows' ? '.exe' : ''}`,
  );
  return existsSync(exe) ? exe : undefined;
}

const schemaOf = (ctx) => join(ctx.repoRoot, 'schemas', 'team', 'task-event.schema.json');
const ckptEnv = { GITHUB_ACTIONS: 'false', GITHUB_STEP_SUMMARY: '', NO_COLOR: '1' };

/** Suite name → label and the command for a target (undefined when the suite does not apply). */
export const suiteTable = {
  'node-e0': {
    label: '`node -e 0`',
    command: () => ({ argv: [node, '-e', '0'], display: 'node -e 0' }),
  },
  floor: {
    label: 'floor: read + JSON.parse',
    command: (t) => ({ argv: [node, 'src/floor.mjs', ...t.paths], display: `node src/floor.mjs <dir>` }),
  },
  ckpt: {
    label: '**ckpt validate** (json)',
    command: (t, ctx) => ({
      argv: [node, ctx.ckptBin, 'validate', ...t.paths, '--reporter', 'json'],
      env: ckptEnv,
      display: 'ckpt validate <dir> --reporter json > /dev/null',
    }),
  },
  'ckpt-serial': {
    label: 'ckpt validate (json), one thread',
    command: (t, ctx) => ({
      argv: [node, ctx.ckptBin, 'validate', ...t.paths, '--reporter', 'json'],
      env: { ...ckptEnv, CKPT_THREADS: '1' },
      display: 'CKPT_THREADS=1 ckpt validate <dir> --reporter json > /dev/null (no worker thread)',
    }),
  },
  'ckpt-installed': {
    label: 'ckpt validate (json), installed package',
    command: (t, ctx) =>
      ctx.installedBin && {
        argv: [node, ctx.installedBin, 'validate', ...t.paths, '--reporter', 'json'],
        env: ckptEnv,
        display:
          '<prefix>/bin/ckpt validate <dir> --reporter json > /dev/null (npm install -g of the packed @ckpt/cli)',
      },
  },
  'ckpt-quiet': {
    label: 'ckpt validate --quiet (text)',
    command: (t, ctx) => ({
      argv: [node, ctx.ckptBin, 'validate', ...t.paths, '--quiet'],
      env: ckptEnv,
      display: 'ckpt validate <dir> --quiet',
    }),
  },
  ajv: {
    label: 'ajv-cli 5.0.0',
    command: (t, ctx) => ({
      argv: [
        node,
        join(pkgDir('ajv-cli'), 'dist', 'index.js'),
        'validate',
        '--spec=draft2020',
        '-c',
        require.resolve('ajv-formats'),
        '-s',
        schemaOf(ctx),
        '-d',
        t.eventGlob,
      ],
      display:
        'ajv validate --spec=draft2020 -c ajv-formats -s task-event.schema.json -d "<runs>/*/events/*.json"',
    }),
  },
  sourcemeta: {
    label: 'sourcemeta jsonschema 16.11 (npm bin)',
    command: (t, ctx) => ({
      argv: [
        node,
        join(pkgDir('@sourcemeta/jsonschema'), 'npm', 'cli.js'),
        'validate',
        schemaOf(ctx),
        ...t.eventDirs,
      ],
      display: 'jsonschema validate task-event.schema.json <events dirs...>',
    }),
  },
  'sourcemeta-native': {
    label: 'sourcemeta jsonschema 16.11 (native binary)',
    command: (t, ctx) => {
      const exe = sourcemetaBinary();
      if (!exe) return undefined;
      return {
        argv: [exe, 'validate', schemaOf(ctx), ...t.eventDirs],
        display: '<native jsonschema binary> validate task-event.schema.json <events dirs...>',
      };
    },
  },
};

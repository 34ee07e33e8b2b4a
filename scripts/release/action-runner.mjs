// Runs a composite action (action.yml) the way the GitHub runner does, close enough to test it on a machine:
// steps in order, `run:` with `bash --noprofile --norc -eo pipefail {0}`, GITHUB_* and RUNNER_* variables set,
// a fresh $GITHUB_OUTPUT per step read back into steps.<id>.outputs, $GITHUB_PATH and $GITHUB_ENV applied to the
// steps after, $GITHUB_STEP_SUMMARY collected, `if:` and `${{ }}` evaluated in `if:`, `env:` and `with:` only
// (a `run:` holding `${{` is refused: inputs must reach scripts as environment variables). `uses:` steps are
// simulated: actions/setup-node keeps the Node on PATH (noted), actions/cache restores and saves a directory
// under `cacheDir` by key. Steps after a failed one are skipped unless their `if:` calls always() or failure().
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** Evaluates the small expression language actions use: contexts, literals, ==, !=, !, &&, ||, (), always(). */
export function evaluate(expr, ctx) {
  const tokens =
    expr.match(/'(?:[^']|'')*'|==|!=|&&|\|\||[!()]|[A-Za-z_][\w.-]*(?:\(\))?|\d+(?:\.\d+)?|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const value = () => {
    const t = next();
    if (t === '(') {
      const v = or();
      if (next() !== ')') throw new Error(`expected ) in ${expr}`);
      return v;
    }
    if (t === '!') return !truthy(value());
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(t)) return Number(t);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (t === 'always()') return true;
    if (t === 'success()') return !ctx.failed;
    if (t === 'failure()') return ctx.failed;
    if (t === 'cancelled()') return false;
    if (/^[A-Za-z_]/.test(t))
      return t.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), ctx) ?? '';
    throw new Error(`unexpected ${t} in ${expr}`);
  };
  const eq = () => {
    let v = value();
    while (peek() === '==' || peek() === '!=') {
      const op = next();
      const w = value();
      const same = String(v).toLowerCase() === String(w).toLowerCase();
      v = op === '==' ? same : !same;
    }
    return v;
  };
  const and = () => {
    let v = eq();
    while (peek() === '&&') {
      next();
      const w = eq();
      v = truthy(v) ? w : v;
    }
    return v;
  };
  const or = () => {
    let v = and();
    while (peek() === '||') {
      next();
      const w = and();
      v = truthy(v) ? v : w;
    }
    return v;
  };
  const v = or();
  if (i !== tokens.length) throw new Error(`trailing ${tokens.slice(i).join(' ')} in ${expr}`);
  return v;
}
const truthy = (v) => v !== '' && v !== false && v !== 0 && v !== null && v !== undefined;

/** Substitutes every `${{ expr }}` in a string value (env:, with:). */
const substitute = (text, ctx) =>
  String(text).replace(/\$\{\{(.*?)\}\}/g, (_, e) => {
    const v = evaluate(e.trim(), ctx);
    return v === true || v === false ? String(v) : String(v ?? '');
  });

/** `if:` is an expression with or without ${{ }}; none means success(). */
function shouldRun(cond, ctx) {
  if (cond === undefined) return !ctx.failed;
  const text = String(cond).trim();
  const expr = text.startsWith('${{') && text.endsWith('}}') ? text.slice(3, -2).trim() : text;
  const usesStatus = /\b(always|failure|success|cancelled)\(\)/.test(expr);
  return (usesStatus || !ctx.failed) && truthy(evaluate(expr, ctx));
}

/** Reads $GITHUB_OUTPUT / $GITHUB_ENV: `name=value` lines and `name<<DELIM` … `DELIM` blocks. */
export function readCommandFile(path) {
  const out = {};
  if (!existsSync(path)) return out;
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const body = [];
      while (++i < lines.length && lines[i] !== heredoc[2]) body.push(lines[i]);
      out[heredoc[1]] = body.join('\n');
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}

/**
 * Runs the action in `actionDir` with `inputs` in `workspace`. `env` is the runner's environment (PATH, HOME,
 * registry settings); `tempDir` holds RUNNER_TEMP and the command files; `cacheDir` is actions/cache's store.
 * Returns the job's outcome, each step's record, the action's outputs, the log and the step summary.
 */
export function runAction({
  actionDir,
  workspace,
  inputs = {},
  env = {},
  tempDir,
  cacheDir,
  ref = 'v0.0.0',
}) {
  const action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8'));
  if (action.runs?.using !== 'composite') throw new Error('not a composite action');
  const withInputs = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {}))
    withInputs[name] = name in inputs ? String(inputs[name]) : String(spec.default ?? '');
  for (const name of Object.keys(inputs))
    if (!(name in withInputs)) throw new Error(`input ${name} is not declared in action.yml`);

  const runnerTemp = join(tempDir, 'runner-temp');
  rmSync(runnerTemp, { recursive: true, force: true });
  mkdirSync(runnerTemp, { recursive: true });
  const ctx = {
    inputs: withInputs,
    steps: {},
    runner: { os: 'Linux', temp: runnerTemp, arch: 'X64' },
    github: { action_path: actionDir, workspace, action_ref: ref, action_repository: 'ckpt-dev/ckpt' },
    failed: false,
  };
  let path = env.PATH ?? process.env.PATH;
  const extraEnv = {};
  const records = [];
  const posts = [];
  let log = '';
  let summary = '';

  action.runs.steps.forEach((step, index) => {
    const name = step.name ?? step.uses ?? `step ${index + 1}`;
    const record = { name, id: step.id, ran: false, note: '' };
    records.push(record);
    if (!shouldRun(step.if, ctx)) {
      record.note = 'skipped (if: false)';
      if (step.id) ctx.steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
      return;
    }
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, ctx)]),
    );
    const withArgs = Object.fromEntries(
      Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(v, ctx)]),
    );
    let outputs = {};
    record.ran = true;
    if (step.uses) {
      const [what] = step.uses.split('@');
      if (what === 'actions/setup-node') {
        record.note = `simulated: kept Node ${process.version} on PATH (asked for ${withArgs['node-version']})`;
      } else if (what === 'actions/cache') {
        const stored = join(cacheDir, encodeURIComponent(withArgs.key));
        const hit = existsSync(stored);
        if (hit) cpSync(stored, withArgs.path, { recursive: true });
        outputs = { 'cache-hit': String(hit) };
        record.note = `simulated: cache ${hit ? 'hit' : 'miss'} for ${withArgs.key}`;
        if (!hit)
          posts.push(() => existsSync(withArgs.path) && cpSync(withArgs.path, stored, { recursive: true }));
      } else throw new Error(`no simulation for uses: ${step.uses}`);
    } else {
      if (String(step.run).includes('${{'))
        throw new Error(`step "${name}": run: holds \${{ }}; pass inputs through env: instead`);
      if (step.shell !== 'bash') throw new Error(`step "${name}": shell ${step.shell} is not bash`);
      const files = Object.fromEntries(
        ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY'].map((k) => [
          k,
          join(tempDir, `${k.toLowerCase()}_${index}`),
        ]),
      );
      for (const f of Object.values(files)) writeFileSync(f, '');
      const script = join(tempDir, `step_${index}.sh`);
      writeFileSync(script, step.run);
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd: workspace,
        encoding: 'utf8',
        env: {
          ...env,
          ...extraEnv,
          PATH: path,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: workspace,
          GITHUB_ACTION_PATH: actionDir,
          GITHUB_ACTION_REPOSITORY: ctx.github.action_repository,
          GITHUB_ACTION_REF: ref,
          RUNNER_OS: 'Linux',
          RUNNER_TEMP: runnerTemp,
          ...files,
          ...stepEnv,
        },
      });
      record.code = r.status;
      record.stdout = r.stdout;
      record.stderr = r.stderr;
      log += `##[step] ${name}\n${r.stdout}${r.stderr}`;
      outputs = readCommandFile(files.GITHUB_OUTPUT);
      Object.assign(extraEnv, readCommandFile(files.GITHUB_ENV));
      const added = readFileSync(files.GITHUB_PATH, 'utf8').split('\n').filter(Boolean);
      if (added.length > 0) path = `${added.reverse().join(':')}:${path}`;
      summary += readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8');
      if (r.status !== 0) ctx.failed = true;
    }
    if (step.id)
      ctx.steps[step.id] = {
        outputs,
        outcome: record.code ? 'failure' : 'success',
        conclusion: record.code ? 'failure' : 'success',
      };
  });
  if (!ctx.failed) for (const post of posts) post();

  const outputs = Object.fromEntries(
    Object.entries(action.outputs ?? {}).map(([k, spec]) => [k, substitute(spec.value ?? '', ctx)]),
  );
  return { success: !ctx.failed, steps: records, outputs, log, summary, path };
}

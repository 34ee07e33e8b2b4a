/**
 * Which artifacts a stage gate needs. The skill states no file-name convention, so a run needs only what it
 * declares: `<STAGE>_ARTIFACTS` (a list) or a `<STAGE>_..._ARTIFACT...` key naming a file, in state.env or
 * checklist.state.env. ckpt's own writer declares its convention by recording artifacts/contract.env: its runs
 * need at least one `artifacts/<STAGE>-*` file per done stage when the stage declares nothing.
 */
import type { EnvValues } from './stages.js';

const DECLARING_KEY = /^([SM][0-9]+)_(?:[A-Z0-9_]+_)?ARTIFACTS?(?:_[A-Z0-9_]+)?$/;

/**
 * The file names a declaration lists (commas or whitespace between them). Only a word with a `.`, a `/` or a `*`
 * names a file: a number is a count or a 0/1 flag (`S3_ARTIFACT_CAPTURED="1"`) and a bare word is a status or a
 * note (`S2_ARTIFACT_STATUS="captured"`), never a file the gate can look for.
 */
function fileNames(value: string): string[] {
  return value.split(/[\s,]+/).filter((n) => /[./*]/.test(n));
}

/** The keys of a stage that declare artifacts, with their values, from state.env then the checklist. */
export function artifactDeclarations(
  stage: string,
  state: EnvValues,
  checklist: EnvValues,
): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  for (const values of [state, checklist])
    for (const [key, value] of Object.entries(values)) {
      const m = DECLARING_KEY.exec(key);
      // An empty list declares "no artifacts"; a value naming no file (a flag, a note) declares nothing.
      if (m?.[1] === stage && (value.trim() === '' || fileNames(value).length > 0)) out.push({ key, value });
    }
  return out;
}

/** `$NAME/rest` and `${NAME}/rest`: a shell variable as a script writes it into a value. */
const shellForms = (name: string, rest: string) => [`$${name}/${rest}`, `\${${name}}/${rest}`];

/**
 * A declared name as a path relative to artifacts/: `$ARTIFACT_ROOT/x`, `<ARTIFACT_ROOT>/x`, `<RUN_ROOT>/artifacts/x`,
 * `artifacts/x` and `x` all give `x`. Undefined for a path outside the run's artifacts (it cannot be checked here).
 */
export function artifactPath(name: string, state: EnvValues): string | undefined {
  let v = name.trim().replace(/^\.\//, '');
  const roots = [
    ...shellForms('ARTIFACT_ROOT', ''),
    ...shellForms('RUN_ROOT', 'artifacts/'),
    ...(state.ARTIFACT_ROOT ? [`${state.ARTIFACT_ROOT.replace(/\/+$/, '')}/`] : []),
    ...(state.RUN_ROOT ? [`${state.RUN_ROOT.replace(/\/+$/, '')}/artifacts/`] : []),
    'artifacts/',
  ];
  const root = roots.find((r) => v.startsWith(r));
  if (root) v = v.slice(root.length);
  else if (v.startsWith('/') || v.startsWith('$') || v.startsWith('~')) return undefined;
  v = v.replace(/\/+$/, '');
  return v === '' || v.split('/').includes('..') ? undefined : v;
}

function matches(pattern: string, artifacts: readonly string[]): boolean {
  if (!pattern.includes('*')) return artifacts.some((a) => a === pattern || a.startsWith(`${pattern}/`));
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}(/.*)?$`,
  );
  return artifacts.some((a) => re.test(a));
}

/** The declared artifact paths of a stage (relative to artifacts/), each once. */
export function declaredArtifacts(stage: string, state: EnvValues, checklist: EnvValues): string[] {
  const names = artifactDeclarations(stage, state, checklist).flatMap((d) =>
    fileNames(d.value).flatMap((n) => artifactPath(n, state) ?? []),
  );
  return [...new Set(names)];
}

/**
 * The artifacts a done stage lacks. `rule` says why they are needed: the run declared them, ckpt's writer
 * convention (`<STAGE>-*`, runs with artifacts/contract.env), or nothing is required.
 */
export function missingArtifacts(
  stage: string,
  state: EnvValues,
  checklist: EnvValues,
  artifacts: readonly string[],
  ckptConvention: boolean,
): { missing: string[]; rule: 'declared' | 'ckpt-prefix' | 'none' } {
  if (artifactDeclarations(stage, state, checklist).length > 0)
    return {
      missing: declaredArtifacts(stage, state, checklist).filter((n) => !matches(n, artifacts)),
      rule: 'declared',
    };
  if (!ckptConvention) return { missing: [], rule: 'none' };
  const has = artifacts.some((a) => a.startsWith(`${stage}-`) || a.startsWith(`${stage}/`));
  return { missing: has ? [] : [`${stage}-*`], rule: 'ckpt-prefix' };
}

/** The artifact files a stage shows: those it declares and those named after it (`<STAGE>-*`, `<STAGE>/`). */
export function stageArtifacts(
  stage: string,
  state: EnvValues,
  checklist: EnvValues,
  artifacts: readonly string[],
): string[] {
  const declared = declaredArtifacts(stage, state, checklist);
  return artifacts.filter(
    (a) => a.startsWith(`${stage}-`) || a.startsWith(`${stage}/`) || declared.some((d) => matches(d, [a])),
  );
}

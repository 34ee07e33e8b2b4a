import type { ValidateFlags, ValidateHooks } from './validate.js';

const CHOICES: Record<string, readonly string[]> = {
  reporter: ['text', 'json', 'github', 'junit', 'sarif'],
  dialect: ['team', 'resumable', 'ulpi', 'agent-context'],
  color: ['auto', 'always', 'never'],
};
const VALUED: Record<string, keyof typeof CHOICES> = {
  '--reporter': 'reporter',
  '-r': 'reporter',
  '--dialect': 'dialect',
  '-d': 'dialect',
  '--color': 'color',
};
const SWITCHES: Record<string, 'strict' | 'quiet'> = {
  '--strict': 'strict',
  '--quiet': 'quiet',
  '-q': 'quiet',
};

/**
 * Parses the arguments after `validate` when they are plain: paths, and the validate options spelled out with
 * valid values. Anything else (help, an unknown or malformed option, a bad choice, `--`, combined short flags)
 * gives undefined, and the full commander program handles it, with its messages and exit codes.
 */
export function parsePlainValidateArgs(
  args: readonly string[],
): { paths: string[]; flags: ValidateFlags } | undefined {
  const paths: string[] = [];
  const flags: Record<string, string | boolean> = { color: 'auto' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') {
      paths.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const key = VALUED[name];
    if (key) {
      const value = name === a ? args[++i] : a.slice(eq + 1);
      if (value === undefined || !CHOICES[key]!.includes(value)) return undefined;
      flags[key] = value;
      continue;
    }
    const sw = SWITCHES[a];
    if (!sw) return undefined;
    flags[sw] = true;
  }
  return { paths, flags: flags as ValidateFlags };
}

/**
 * `ckpt validate` without commander and the other commands: what bin/ckpt.js runs for plain arguments, so one
 * file is checked in about the time Node takes to start. Returns undefined to hand over to the full program.
 */
export async function fastValidate(
  args: readonly string[],
  hooks: ValidateHooks = {},
): Promise<number | undefined> {
  const parsed = parsePlainValidateArgs(args);
  // CKPT_MAX_FILE_SIZE is checked (a malformed one is exit 2) by the full program.
  if (!parsed || process.env.CKPT_MAX_FILE_SIZE !== undefined) return undefined;
  const [{ runValidate }, { exitCodeFor }] = await Promise.all([
    import('./validate.js'),
    import('../exit-code.js'),
  ]);
  try {
    return await runValidate(parsed.paths, parsed.flags, hooks);
  } catch (e) {
    return exitCodeFor(e);
  }
}

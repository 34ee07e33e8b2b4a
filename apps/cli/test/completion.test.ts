import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const bashScript = runCli(['completion', 'bash']).stdout;

/** Sources the bash script and completes `line` (the word under the cursor is the last one), as bash does. */
function completeBash(line: string): string[] {
  const words = line.split(' ');
  const script = `${bashScript}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_ckpt_completions
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('ckpt completion', () => {
  it('should complete top-level commands in bash', () => {
    const top = completeBash('ckpt ');
    for (const c of ['validate', 'schema', 'completion', 'doctor']) expect(top).toContain(c);
    expect(completeBash('ckpt do')).toEqual(['doctor']);
  });

  it('should complete options, option values and subcommands in bash', () => {
    expect(completeBash('ckpt validate --rep')).toEqual(['--reporter']);
    expect(completeBash('ckpt validate --reporter ')).toEqual(['text', 'json', 'github', 'junit', 'sarif']);
    expect(completeBash('ckpt validate -d a')).toEqual(['agent-context']);
    expect(completeBash('ckpt schema ')).toEqual(['list', 'show']);
    expect(completeBash('ckpt completion --h')).toEqual(['--help']);
  });

  it('should leave file names to bash where a command takes paths', () => {
    expect(completeBash('ckpt validate some')).toEqual([]);
    expect(bashScript).toContain('complete -o default -o bashdefault -F _ckpt_completions ckpt');
  });

  it('should print zsh and fish scripts naming every command and option value', () => {
    const zsh = runCli(['completion', 'zsh']).stdout;
    const fish = runCli(['completion', 'fish']).stdout;
    expect(zsh.startsWith('#compdef ckpt\n')).toBe(true);
    expect(zsh).toContain('("/validate --reporter"|"/validate -r") compadd -- text json github junit sarif');
    expect(fish).toContain(`complete -c ckpt -n 'test (__ckpt_cmdpath) = ""' -f -a doctor`);
    expect(fish).toContain("-l reporter -s r -x -a 'text json github junit sarif'");
    for (const shell of ['zsh', 'fish']) {
      const has = spawnSync(shell, ['-c', 'exit 0']).status === 0;
      if (!has) continue;
      const r = spawnSync(shell, ['-n'], { input: shell === 'zsh' ? zsh : fish, encoding: 'utf8' });
      expect(r.status, `${shell} -n: ${r.stderr}`).toBe(0);
    }
  });

  it('should refuse an unknown shell with exit 2', () => {
    const r = runCli(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bash, zsh, fish');
  });
});

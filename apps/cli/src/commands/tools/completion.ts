import type { Command } from 'commander';
import { allNodes, type CommandNode, commandTree, flagsOf, pathKey } from './command-tree.js';

export type Shell = 'bash' | 'zsh' | 'fish';

// Completion scripts embed words in shell source: keep only characters that need no quoting.
const safe = (s: string) => s.replace(/[^A-Za-z0-9_./:@%+=,-]/g, '');
const words = (list: readonly string[]) => list.map(safe).join(' ');
const known = (root: CommandNode) =>
  allNodes(root)
    .slice(1)
    .map((n) => pathKey(n.path));
const optionWords = (n: CommandNode) => n.options.flatMap(flagsOf);
const valueOptions = (root: CommandNode) =>
  allNodes(root).flatMap((n) =>
    n.options
      .filter((o) => o.choices)
      .map((o) => ({ key: pathKey(n.path), flags: flagsOf(o), choices: o.choices! })),
  );

function bash(root: CommandNode): string {
  const caseKnown = known(root).join('|');
  const values = valueOptions(root)
    .map(
      (v) =>
        `    ${v.flags.map((f) => `"${v.key} ${f}"`).join('|')}) COMPREPLY=($(compgen -W "${words(v.choices)}" -- "$cur")); return ;;`,
    )
    .join('\n');
  const nodes = allNodes(root)
    .map((n) => {
      const subs = words(n.subcommands.map((s) => s.path.at(-1)!));
      return `    "${pathKey(n.path)}") subs="${subs}"; opts="${words(optionWords(n))}" ;;`;
    })
    .join('\n');
  return `# bash completion for ckpt. Load it with: source <(ckpt completion bash)
_ckpt_completions() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath="" w i subs="" opts=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$cmdpath/$w" in
      ${caseKnown}) cmdpath="$cmdpath/$w" ;;
    esac
  done
  case "$cmdpath $prev" in
${values}
  esac
  case "$cmdpath" in
${nodes}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  else
    COMPREPLY=()
  fi
}
complete -o default -o bashdefault -F _ckpt_completions ckpt
`;
}

function zsh(root: CommandNode): string {
  const caseKnown = known(root).join('|');
  const values = valueOptions(root)
    .map(
      (v) =>
        `    (${v.flags.map((f) => `"${v.key} ${f}"`).join('|')}) compadd -- ${words(v.choices)}; return ;;`,
    )
    .join('\n');
  const nodes = allNodes(root)
    .map((n) => {
      const subs = words(n.subcommands.map((s) => s.path.at(-1)!));
      return `    ("${pathKey(n.path)}") subs=(${subs}); opts=(${words(optionWords(n))}) ;;`;
    })
    .join('\n');
  // \`path\` is zsh's tied copy of PATH: the command path lives in \`cmdpath\`.
  return `#compdef ckpt
# zsh completion for ckpt. Save it as _ckpt in a directory of $fpath, or: source <(ckpt completion zsh)
_ckpt() {
  local cmdpath="" w i cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  local -a subs opts
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    case "$cmdpath/$w" in
      (${caseKnown}) cmdpath="$cmdpath/$w" ;;
    esac
  done
  case "$cmdpath $prev" in
${values}
  esac
  case "$cmdpath" in
${nodes}
  esac
  if [[ "$cur" == -* ]]; then
    compadd -- $opts
  elif (( \${#subs} )); then
    compadd -- $subs
  else
    _files
  fi
}
if [[ "$funcstack[1]" == "_ckpt" ]]; then _ckpt "$@"; else compdef _ckpt ckpt; fi
`;
}

const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fish(root: CommandNode): string {
  const lines = [
    '# fish completion for ckpt. Save it as ~/.config/fish/completions/ckpt.fish',
    'function __ckpt_cmdpath',
    `    set -l known ${known(root).join(' ')}`,
    '    set -l p ""',
    '    for t in (commandline -opc)[2..-1]',
    '        if contains -- "$p/$t" $known',
    '            set p "$p/$t"',
    '        end',
    '    end',
    '    echo "$p"',
    'end',
  ];
  for (const n of allNodes(root)) {
    const cond = `-n 'test (__ckpt_cmdpath) = "${pathKey(n.path)}"'`;
    for (const s of n.subcommands)
      lines.push(
        `complete -c ckpt ${cond} -f -a ${safe(s.path.at(-1)!)} -d ${fishQuote(s.description.split('\n')[0]!)}`,
      );
    for (const o of n.options) {
      const flags = [
        o.long ? `-l ${safe(o.long.slice(2))}` : '',
        o.short ? `-s ${safe(o.short.slice(1))}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      const value = o.choices ? ` -x -a ${fishQuote(words(o.choices))}` : o.takesValue ? ' -r' : '';
      lines.push(`complete -c ckpt ${cond} ${flags}${value} -d ${fishQuote(o.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script for a shell, generated from the program's own command tree. */
export function completionScript(program: Command, shell: Shell): string {
  const root = commandTree(program);
  return shell === 'bash' ? bash(root) : shell === 'zsh' ? zsh(root) : fish(root);
}

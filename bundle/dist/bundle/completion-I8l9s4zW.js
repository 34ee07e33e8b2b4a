function e(t,n=[]){let r=t.options.filter(e=>!e.hidden).map(e=>({...e.long?{long:e.long}:{},...e.short?{short:e.short}:{},description:e.description,takesValue:e.required||e.optional,...e.argChoices?{choices:e.argChoices}:{}}));return r.push({long:`--help`,short:`-h`,description:`display help`,takesValue:!1}),{path:n,description:t.description(),subcommands:t.commands.filter(e=>e.name()!==`help`&&!e._hidden).map(t=>e(t,[...n,t.name()])),options:r}}function t(e){return[e,...e.subcommands.flatMap(t)]}function n(e){return e.map(e=>`/${e}`).join(``)}function r(e){return[e.long,e.short].filter(e=>e!==void 0)}const i=e=>e.replace(/[^A-Za-z0-9_./:@%+=,-]/g,``),a=e=>e.map(i).join(` `),o=e=>t(e).slice(1).map(e=>n(e.path)),s=e=>e.options.flatMap(r),c=e=>t(e).flatMap(e=>e.options.filter(e=>e.choices).map(t=>({key:n(e.path),flags:r(t),choices:t.choices})));function l(e){return`# bash completion for ckpt. Load it with: source <(ckpt completion bash)
_ckpt_completions() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath="" w i subs="" opts=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$cmdpath/$w" in
      ${o(e).join(`|`)}) cmdpath="$cmdpath/$w" ;;
    esac
  done
  case "$cmdpath $prev" in
${c(e).map(e=>`    ${e.flags.map(t=>`"${e.key} ${t}"`).join(`|`)}) COMPREPLY=($(compgen -W "${a(e.choices)}" -- "$cur")); return ;;`).join(`
`)}
  esac
  case "$cmdpath" in
${t(e).map(e=>{let t=a(e.subcommands.map(e=>e.path.at(-1)));return`    "${n(e.path)}") subs="${t}"; opts="${a(s(e))}" ;;`}).join(`
`)}
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
`}function u(e){return`#compdef ckpt
# zsh completion for ckpt. Save it as _ckpt in a directory of $fpath, or: source <(ckpt completion zsh)
_ckpt() {
  local cmdpath="" w i cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  local -a subs opts
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    case "$cmdpath/$w" in
      (${o(e).join(`|`)}) cmdpath="$cmdpath/$w" ;;
    esac
  done
  case "$cmdpath $prev" in
${c(e).map(e=>`    (${e.flags.map(t=>`"${e.key} ${t}"`).join(`|`)}) compadd -- ${a(e.choices)}; return ;;`).join(`
`)}
  esac
  case "$cmdpath" in
${t(e).map(e=>{let t=a(e.subcommands.map(e=>e.path.at(-1)));return`    ("${n(e.path)}") subs=(${t}); opts=(${a(s(e))}) ;;`}).join(`
`)}
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
`}const d=e=>`'${e.replace(/\\/g,`\\\\`).replace(/'/g,`\\'`)}'`;function f(e){let r=[`# fish completion for ckpt. Save it as ~/.config/fish/completions/ckpt.fish`,`function __ckpt_cmdpath`,`    set -l known ${o(e).join(` `)}`,`    set -l p ""`,`    for t in (commandline -opc)[2..-1]`,`        if contains -- "$p/$t" $known`,`            set p "$p/$t"`,`        end`,`    end`,`    echo "$p"`,`end`];for(let o of t(e)){let e=`-n 'test (__ckpt_cmdpath) = "${n(o.path)}"'`;for(let t of o.subcommands)r.push(`complete -c ckpt ${e} -f -a ${i(t.path.at(-1))} -d ${d(t.description.split(`
`)[0])}`);for(let t of o.options){let n=[t.long?`-l ${i(t.long.slice(2))}`:``,t.short?`-s ${i(t.short.slice(1))}`:``].filter(Boolean).join(` `),o=t.choices?` -x -a ${d(a(t.choices))}`:t.takesValue?` -r`:``;r.push(`complete -c ckpt ${e} ${n}${o} -d ${d(t.description)}`)}}return`${r.join(`
`)}\n`}function p(t,n){let r=e(t);return n===`bash`?l(r):n===`zsh`?u(r):f(r)}export{p as completionScript};
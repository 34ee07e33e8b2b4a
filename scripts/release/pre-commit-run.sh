#!/usr/bin/env bash
# The pre-commit hooks for real: the `pre-commit` program, a scratch repository whose .pre-commit-config.yaml
# points at a clone of this repository at a commit (repo: <path>, rev: <sha>), `pre-commit run --all-files` with
# a good checkpoint file (exit 0), then with a bad one too (exit 1, ckpt's findings printed), and a dialect hook
# that does not select the bad file (exit 0). The clone is HEAD (CI's fresh clone); --worktree commits the
# working tree into the clone first. npm is pointed at a dead registry and offline: the hooks must need neither.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ckpt-pre-commit.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
fail() {
  echo "not ok - $*"
  echo "pre-commit: $passed passed, 1 failed"
  exit 1
}
ok() {
  passed=$((passed + 1))
  echo "ok - $*"
}
gitc() { git -c user.name=ci -c user.email=ci@localhost -c init.defaultBranch=main "$@"; }

command -v pre-commit >/dev/null || fail "pre-commit is not installed (apt-get install pre-commit)"
echo "$(pre-commit --version), $(node --version)"

clone="$work/ckpt"
if [ "${1:-}" = --worktree ]; then
  mkdir -p "$clone"
  (cd "$repo" && git ls-files -z -co --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
    tar -x -C "$clone"
  (cd "$clone" && gitc init -q && gitc add -A && gitc commit -qm 'working tree')
else
  gitc clone -q "$repo" "$clone"
fi
rev=$(git -C "$clone" rev-parse HEAD)

project="$work/project"
mkdir -p "$project/.ulpi/runs"
cp -r "$repo/test-fixtures/team/valid-build-run/.team" "$project/.team"
echo '# a project with agent runs' >"$project/README.md"
config() {
  printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: %s\n' "$clone" "$rev" "$1" \
    >"$project/.pre-commit-config.yaml"
}
config ckpt-validate
(cd "$project" && gitc init -q && gitc add -A && gitc commit -qm 'good checkpoints')

run() {
  (cd "$project" && env -u GITHUB_ACTIONS -u GITHUB_STEP_SUMMARY PRE_COMMIT_HOME="$work/cache" \
    npm_config_registry=http://127.0.0.1:9 npm_config_offline=true NO_COLOR=1 \
    pre-commit run --all-files --color never) >"$work/out" 2>&1
}

code=0
run || code=$?
cat "$work/out"
[ "$code" = 0 ] || fail "pre-commit run --all-files on good files exited $code"
grep -q 'ckpt validate (all checkpoint files).*Passed' "$work/out" || fail "the hook did not report Passed"
ok "good checkpoint files only: pre-commit run --all-files exits 0 (hook ckpt-validate at $rev)"

printf '{\n  "schemaVersion": 2,\n  "id": 5\n}\n' >"$project/.ulpi/runs/add-oauth.json"
(cd "$project" && git add -A)
code=0
run || code=$?
cat "$work/out"
[ "$code" = 1 ] || fail "pre-commit run --all-files with a bad file exited $code, expected 1"
grep -q 'ckpt validate (all checkpoint files).*Failed' "$work/out" || fail "the hook did not report Failed"
grep -Eq '^ *\.ulpi/runs/add-oauth\.json:[0-9]+:[0-9]+ +error +[a-z-]+/[a-z-]+ ' "$work/out" ||
  fail "ckpt's finding (path:line:col error code) is not in the output"
grep -q '\.team/' "$work/out" && fail "a good team file was reported"
ok "with a bad checkpoint file: exit 1, ckpt's finding printed as path:line:col error code message"

config ckpt-validate-team
(cd "$project" && git add -A)
code=0
run || code=$?
cat "$work/out"
[ "$code" = 0 ] || fail "the team hook exited $code though the bad file is a ulpi file"
grep -q 'ckpt validate (team checkpoint files).*Passed' "$work/out" || fail "the team hook did not run"
ok "the ckpt-validate-team hook selects only team files: exit 0 beside the bad ulpi file"
echo "pre-commit: $passed passed, 0 failed"

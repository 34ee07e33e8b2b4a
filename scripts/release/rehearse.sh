#!/usr/bin/env bash
# Release rehearsal: the release workflow's steps, for real, against a local registry (verdaccio).
# In a copy of the repository (the working tree; `--from-head`: the last commit) it applies the changesets,
# builds, starts verdaccio, publishes with `changeset publish` (pnpm rewrites workspace: ranges), checks what was
# published (check-package.mjs, publint, attw), then uses the packages as a user would from a scratch folder whose
# .npmrc names the registry: `npx @ckpt/cli validate` on the sample project, `npm install -g @ckpt/cli` into a
# temp prefix and `ckpt --version`, and a TypeScript project that type-checks and runs @ckpt/schemas from ESM and
# CommonJS. The registry is stopped by its process id on exit. CKPT_KEEP=1 keeps the work folder.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
here="$repo/scripts/release"
work=$(mktemp -d "${TMPDIR:-/tmp}/ckpt-rehearsal.XXXXXX")
registry_pid=''
passed=0
cleanup() {
  if [ -n "$registry_pid" ]; then kill "$registry_pid" 2>/dev/null || true; wait "$registry_pid" 2>/dev/null || true; fi
  if [ -n "${CKPT_KEEP:-}" ]; then echo "rehearsal: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
group() { echo "::group::rehearsal: $*"; }
endgroup() { echo "::endgroup::"; }
fail() {
  echo "::error title=release rehearsal::$*"
  echo "rehearsal: $passed passed, 1 failed"
  exit 1
}
ok() {
  passed=$((passed + 1))
  echo "ok - $*"
}

group "tools (verdaccio, publint, attw)"
bash "$here/install-tools.sh"
tools="$here/tools/node_modules"
endgroup

group "copy of the repository, installed offline from the pnpm store"
src="$work/repo"
mkdir -p "$src"
action_tree=--worktree # what action-run.mjs takes the action from: the same tree
if [ "${1:-}" = --from-head ]; then
  git -C "$repo" archive HEAD | tar -x -C "$src"
  action_tree=''
else
  (cd "$repo" && git ls-files -z -co --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
    tar -x -C "$src"
fi
cd "$src"
git init -q -b main
git add -A
git -c user.name=rehearsal -c user.email=rehearsal@localhost commit -qm snapshot
pnpm install --offline --frozen-lockfile --reporter=silent
endgroup

group "version: pending changesets → versions and changelogs"
pnpm --silent exec changeset status
bash scripts/release/version-packages.sh
git add -A
git -c user.name=rehearsal -c user.email=rehearsal@localhost commit -qm 'Version Packages'
version_of() { node -p "require('./$1/package.json').version"; }
v_schemas=$(version_of packages/schemas)
v_core=$(version_of packages/core)
v_cli=$(version_of apps/cli)
[ -z "$(find .changeset -name '*.md' ! -name README.md)" ] || fail "changeset version left changesets behind"
for d in packages/schemas packages/core apps/cli; do
  [ -s "$d/CHANGELOG.md" ] || fail "no CHANGELOG.md in $d"
  grep -q "^## $(version_of "$d")$" "$d/CHANGELOG.md" || fail "$d/CHANGELOG.md has no section for $(version_of "$d")"
done
[ -d "packages/schemas/released/$v_schemas" ] || fail "schemas $v_schemas not recorded as a compat baseline"
ok "changeset version: @ckpt/schemas $v_schemas, @ckpt/core $v_core, @ckpt/cli $v_cli, changelogs written"
endgroup

group "registry: verdaccio on 127.0.0.1"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
registry="http://127.0.0.1:$port/"
mkdir -p "$work/verdaccio/storage"
touch "$work/verdaccio/htpasswd"
sed -e "s|__STORAGE__|$work/verdaccio/storage|" -e "s|__HTPASSWD__|$work/verdaccio/htpasswd|" \
  -e "s|__UPLINK__|$(npm config get registry)|" "$here/verdaccio.yaml" >"$work/verdaccio/config.yaml"
node "$tools/verdaccio/bin/verdaccio" --config "$work/verdaccio/config.yaml" --listen "127.0.0.1:$port" \
  >"$work/verdaccio/log" 2>&1 &
registry_pid=$!
for _ in $(seq 150); do
  curl -sf "${registry}-/ping" >/dev/null && break
  kill -0 "$registry_pid" 2>/dev/null || { cat "$work/verdaccio/log"; fail "verdaccio exited"; }
  sleep 0.2
done
curl -sf "${registry}-/ping" >/dev/null || fail "verdaccio did not answer on $registry"
token=$(curl -sf -X PUT -H 'content-type: application/json' \
  -d '{"name":"rehearsal","password":"rehearsal-password"}' \
  "${registry}-/user/org.couchdb.user:rehearsal" | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).token')
[ -n "$token" ] && [ "$token" != undefined ] || fail "could not create a registry user"
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=%s\n' "$registry" "$port" "$token" >"$work/publisher.npmrc"
ok "verdaccio (pid $registry_pid) on $registry, user created through its API"
endgroup

group "publish: pnpm release (build, changeset publish)"
# What the release workflow runs, minus provenance (that needs GitHub's OIDC token).
NPM_CONFIG_USERCONFIG="$work/publisher.npmrc" npm_config_registry="$registry" NPM_CONFIG_PROVENANCE=false \
  pnpm --silent release
for tag in "@ckpt/schemas@$v_schemas" "@ckpt/core@$v_core" "@ckpt/cli@$v_cli"; do
  git rev-parse -q --verify "refs/tags/$tag" >/dev/null || fail "changeset publish made no tag $tag"
done
view() { npm view --registry "$registry" "$@"; }
[ "$(view "@ckpt/cli@$v_cli" version)" = "$v_cli" ] || fail "@ckpt/cli@$v_cli is not on the registry"
[ "$(view "@ckpt/core@$v_core" dependencies.@ckpt/schemas)" = "$v_schemas" ] ||
  fail "@ckpt/core's dependency on @ckpt/schemas is not $v_schemas: $(view "@ckpt/core@$v_core" dependencies --json)"
[ -z "$(view "@ckpt/cli@$v_cli" dependencies --json)" ] ||
  fail "@ckpt/cli has runtime dependencies: $(view "@ckpt/cli@$v_cli" dependencies --json)"
ok "published @ckpt/schemas@$v_schemas, @ckpt/core@$v_core, @ckpt/cli@$v_cli; workspace: ranges rewritten; tags made"
endgroup

group "published contents: check-package, publint, attw"
mkdir -p "$work/tarballs"
for p in "@ckpt/schemas@$v_schemas" "@ckpt/core@$v_core" "@ckpt/cli@$v_cli"; do
  (cd "$work/tarballs" && npm pack --registry "$registry" --silent "$p" >/dev/null)
done
tgz() { ls "$work/tarballs/ckpt-$1-"*.tgz; }
node "$here/check-package.mjs" "$(tgz schemas)" "$(tgz core)" "$(tgz cli)" || fail "check-package found problems"
for p in schemas core cli; do
  "$tools/.bin/publint" run "$(tgz "$p")" --level warning --strict || fail "publint: @ckpt/$p"
done
attw() { "$tools/.bin/attw" --format ascii --no-emoji "$@"; }
# node10 resolution cannot see exports subpaths (@ckpt/schemas/catalog.json); node16 and bundlers can.
attw "$(tgz schemas)" --profile node16 || fail "attw: @ckpt/schemas"
attw "$(tgz core)" --profile esm-only || fail "attw: @ckpt/core"
ok "package contents: no tests, source maps and entries resolve, publint clean, types right for ESM and CJS"
endgroup

consumer="$work/consumer"
mkdir -p "$consumer"
printf 'registry=%s\n' "$registry" >"$consumer/.npmrc"
# The user's environment: the scratch folder's .npmrc (also as the user config: `npm install -g` reads no
# project config), an empty npm cache, no publisher token.
as_user() {
  env -u npm_config_registry -u NPM_CONFIG_REGISTRY NPM_CONFIG_USERCONFIG="$consumer/.npmrc" \
    npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npm_config_fund=false \
    npm_config_audit=false "$@"
}

group "npx @ckpt/cli validate on the sample project"
cp -r "$repo/test-fixtures/sample-project" "$consumer/sample-project"
cd "$consumer"
[ "$(as_user npm config get registry)" = "$registry" ] || fail "the scratch folder's .npmrc is not in effect"
code=0
as_user npx --yes "@ckpt/cli@$v_cli" validate sample-project >"$work/npx.out" 2>&1 || code=$?
cat "$work/npx.out"
[ "$code" = 1 ] || fail "npx @ckpt/cli validate exited $code, expected 1 (the sample project has error findings)"
grep -q 'ulpi/unknown-dependency' "$work/npx.out" || fail "npx validate did not report ulpi/unknown-dependency"
grep -q 'resumable/stage-done-checklist-incomplete' "$work/npx.out" || fail "npx validate missed a resumable finding"
ok "npx @ckpt/cli@$v_cli validate sample-project: exit 1 with the sample's findings"
code=0
as_user npx --yes "@ckpt/cli@$v_cli" validate sample-project/.opencode/reports/hotfix-login-throttle-20261129T071500Z \
  || code=$?
[ "$code" = 0 ] || fail "npx validate of a valid run exited $code"
ok "npx @ckpt/cli validate of a valid run: exit 0"
endgroup

group "npm install -g @ckpt/cli (temp prefix)"
as_user npm install -g --prefix "$work/prefix" "@ckpt/cli@$v_cli"
[ "$("$work/prefix/bin/ckpt" --version)" = "$v_cli" ] || fail "ckpt --version is not $v_cli"
ok "npm install -g @ckpt/cli; ckpt --version prints $v_cli"
# Installing the CLI (npx and -g) fetched, through verdaccio's proxy, nothing but its optional native file watcher
# (@parcel/watcher) and what that declares: the CLI's own code is bundled, with no runtime dependencies.
proxied=$(cd "$work/verdaccio/storage" && find . -mindepth 1 -maxdepth 2 -type d ! -name '.*' ! -path './@ckpt' \
  ! -path './@ckpt/*' | sed 's|^\./||' | grep -v '^@[^/]*$' || true)
stray=$(node -e '
  const { readFileSync, existsSync } = require("node:fs");
  const { join } = require("node:path");
  const cli = process.argv[1];
  const pkg = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const where = (name) => [join(cli, "node_modules", name), join(cli, "..", "..", name)].find((d) => existsSync(d));
  const allowed = new Set();
  const visit = (name) => {
    if (allowed.has(name)) return;
    allowed.add(name);
    const dir = where(name);
    if (!dir) return; // an optional platform package not installed on this machine: its metadata alone was read
    const p = pkg(dir);
    for (const d of Object.keys({ ...p.dependencies, ...p.optionalDependencies })) visit(d);
  };
  const own = pkg(cli);
  if (Object.keys(own.dependencies ?? {}).length) { console.log("dependencies: " + Object.keys(own.dependencies)); process.exit(0); }
  for (const d of Object.keys(own.optionalDependencies ?? {})) visit(d);
  const got = process.argv[2].split("\n").filter(Boolean);
  console.log(got.filter((n) => !allowed.has(n)).join(" "));
' "$work/prefix/lib/node_modules/@ckpt/cli" "$proxied")
[ -z "$stray" ] || fail "installing @ckpt/cli fetched packages beyond its optional watcher: $stray"
ok "@ckpt/cli installed with no runtime dependency; third-party: only its optional watcher ($(echo "$proxied" | wc -l) packages)"
endgroup

group "the GitHub Action in registry mode (version: $v_cli) against this registry"
node "$here/action-run.mjs" $action_tree --registry="$registry" --version="$v_cli" ||
  fail "the action's registry mode"
ok "the Action with version: $v_cli installs @ckpt/cli from the registry and validates"
endgroup

group "TypeScript project using @ckpt/schemas from ESM and CommonJS"
mkdir -p "$consumer/ts"
cd "$consumer/ts"
cp "$here/consumer/esm.mts" "$here/consumer/cjs.cts" .
printf '{ "name": "schemas-consumer", "private": true, "version": "1.0.0" }\n' >package.json
as_user npm install --save-exact "@ckpt/schemas@$v_schemas" "@ckpt/core@$v_core"
# TypeScript and @types/node come from the repository's install (verdaccio does not serve them offline).
cat >tsconfig.json <<JSON
{
  "compilerOptions": {
    "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "lib": ["es2023"],
    "strict": true, "resolveJsonModule": true, "skipLibCheck": false, "outDir": "out",
    "typeRoots": ["$src/node_modules/@types"], "types": ["node"]
  },
  "files": ["esm.mts", "cjs.cts"]
}
JSON
"$src/node_modules/.bin/tsc" -p . || fail "the consumer project does not type-check against @ckpt/schemas"
ok "tsc: @ckpt/schemas types check from an ES module and a CommonJS module (strict, no skipLibCheck)"
esm=$(node out/esm.mjs)
cjs=$(node out/cjs.cjs)
echo "$esm"
echo "$cjs"
for r in "$esm" "$cjs"; do
  node -e '
    const r = JSON.parse(process.argv[1]);
    const ok = r.valid === true && r.invalid === false && r.wrongTypeValid === false && r.errorKeyword === "type" &&
      r.kinds > 10 && r.catalogEntries > 10;
    process.exit(ok ? 0 : 1);' "$r" || fail "unexpected validation results: $r"
done
[[ "$cjs" == *'"module":"cjs"'* && "$cjs" == *'"schemaId":"https://ckpt.dev/schemas/team/task-event/'* ]] ||
  fail "the CommonJS consumer did not run as CommonJS or did not read the schema JSON"
ok "node: createValidator accepts a valid event and rejects two bad ones, from ESM and from CommonJS"
n=$(node --input-type=module -e "const c = await import('@ckpt/core'); console.log(Object.keys(c).length)")
[ "$n" -gt 20 ] || fail "@ckpt/core exports $n names"
ok "@ckpt/core imports from the registry install ($n exports)"
endgroup

kill "$registry_pid"
wait "$registry_pid" 2>/dev/null || true
kill -0 "$registry_pid" 2>/dev/null && fail "verdaccio (pid $registry_pid) is still running"
registry_pid=''
ok "verdaccio stopped by its pid"
echo "rehearsal: $passed passed, 0 failed"

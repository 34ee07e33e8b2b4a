#!/usr/bin/env bash
# Installs the release tools (verdaccio, publint, attw) into scripts/release/tools/node_modules from its lockfile,
# unless the lockfile is already what is installed. They are not workspace dependencies: nothing in the packages
# uses them, and verdaccio needs an npm override (node-fetch 2.7.0) that the workspace does not.
set -euo pipefail
cd "$(dirname "$0")/tools"
if ! cmp -s package-lock.json node_modules/.package-lock.json.ckpt 2>/dev/null; then
  npm ci --no-audit --no-fund --engine-strict --loglevel=error
  cp package-lock.json node_modules/.package-lock.json.ckpt
fi

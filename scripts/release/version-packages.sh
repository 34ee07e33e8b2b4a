#!/usr/bin/env bash
# The release workflow's version step: apply the pending changesets (versions, CHANGELOG.md), then record the
# schemas of a new @ckpt/schemas version as its compatibility baseline (packages/schemas/released/<version>/).
set -euo pipefail
cd "$(dirname "$0")/../.."
pnpm exec changeset version
version=$(node -p "require('./packages/schemas/package.json').version")
if [ ! -d "packages/schemas/released/$version" ]; then pnpm --filter @ckpt/schemas compat:release; fi

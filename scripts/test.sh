#!/usr/bin/env bash
# `npm test` (CONTRACT.md 'Two commands'): the whole suite. Sets up what it
# needs (dependencies, Debian's Chromium when running as root), then type
# checks, lints, runs the unit and integration tests, builds, and runs the
# browser end-to-end tests against the build. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

step=""
section() {
  step="$*"
  printf '\n==> %s\n' "$step"
}
trap 'status=$?; if [ "$status" -ne 0 ]; then printf "\nnpm test: FAILED (%s, exit %s)\n" "${step:-setup}" "$status" >&2; fi' EXIT

# Dependencies. The lock file now holds every platform's optional packages, as `npm install`
# writes it, and `npm ci` installs from it (tried on a clean copy, issue 27; decision 0474). This
# runs `npm install` all the same: under CI it then checks that the install left the lock file as
# committed, which `npm ci` would never show.
if [ ! -d node_modules ]; then
  section "Installing dependencies (npm install)"
  npm install --no-audit --no-fund
elif [ package-lock.json -nt node_modules/.package-lock.json ]; then
  section "Dependencies changed since the last install (npm install)"
  npm install --no-audit --no-fund
fi
# Issue 27: a clean install must not change the committed lock file (a lock missing a platform's
# packages, or out of step with package.json). Only in a git checkout, where there is a committed one.
if [ "${CI:-}" = "true" ] && git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
  ! git diff --quiet -- package-lock.json; then
  section "Lock file check"
  echo "npm test: the install changed package-lock.json:" >&2
  git diff --stat -- package-lock.json >&2
  echo "Commit the lock file that 'npm install' writes (all platforms' optional packages included)." >&2
  exit 1
fi
# Also after an install made before a patch was added (package.json "postinstall" runs it too).
node scripts/patch-dependencies.js
export PATH="$PWD/node_modules/.bin:$PATH"

# Chromium from Debian (CONTRACT.md 'Browser end-to-end tests'); nothing may download a browser.
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    section "Installing Debian's chromium (apt-get)"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
    chromium=/usr/bin/chromium
  fi
  if [ ! -x "$chromium" ]; then
    echo "npm test: Chromium is missing (looked for ${chromium})." >&2
    echo "The browser tests need Debian's chromium: run 'sudo apt-get install chromium'," >&2
    echo "or point CHROMIUM_PATH at a Chromium executable, then run npm test again." >&2
    exit 1
  fi
fi
export CHROMIUM_PATH="$chromium"

started=$SECONDS

section "Route types (react-router typegen)"
react-router typegen

section "Type check (tsc)"
tsc

section "Lint and format (biome check .)"
biome check .

section "Unit and integration tests (vitest run)"
vitest run

section "Build (react-router build)"
# Issue 27, decision 0472: a newcomer's first build shows only what matters, so any warning the
# build prints fails here (the build's own output, read as it runs: no second build).
build_log="$(mktemp)"
react-router build 2>&1 | tee "$build_log"
warnings="$(sed 's/\x1b\[[0-9;]*m//g' "$build_log" | grep -v '^build/' |
  grep -E 'warn|Warning|deprecated|\[[A-Z_]{4,}\]|externalized|\(!\)' || true)"
rm -f "$build_log"
if [ -n "$warnings" ]; then
  printf '\nnpm test: the build printed warnings; fix their causes (decision 0472):\n%s\n' "$warnings" >&2
  exit 1
fi

# Issue 16 §2: the JavaScript /home loads before it is interactive stays within its budget.
section "First-load JavaScript budget (scripts/js-budget.ts)"
tsx scripts/js-budget.ts

section "Browser end-to-end tests (playwright test)"
playwright test

step="done"
printf '\nnpm test: all steps passed in %ss\n' "$((SECONDS - started))"

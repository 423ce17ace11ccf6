#!/usr/bin/env bash
# Installs the Debian packages the end-to-end tests need beyond n8n itself (which install-n8n.sh
# puts into a cache): PostgreSQL and Redis for the queue-mode test, Chromium for the editor test,
# GraphicsMagick for n8n's Edit Image node (the HEIC photo converted as the node's error advises, in multi-image.e2e.test.ts).
# Idempotent: when everything is already there it returns at once without touching apt.
# CI runs it as root on a fresh Debian machine; as another user it re-runs itself through sudo.
#   usage: test/e2e/setup-machine.sh
set -euo pipefail

have_postgres() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null; }
have_redis() { command -v redis-server >/dev/null 2>&1; }
have_chromium() { [ -x /usr/bin/chromium ]; }
have_graphicsmagick() { command -v gm >/dev/null 2>&1; }

missing=()
have_postgres || missing+=(postgresql)
have_redis || missing+=(redis-server)
have_chromium || missing+=(chromium fonts-liberation)
have_graphicsmagick || missing+=(graphicsmagick)

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-machine: postgresql, redis-server, chromium and graphicsmagick already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=DEBIAN_FRONTEND "$0" "$@"
fi

export DEBIAN_FRONTEND=noninteractive
started=$(date +%s)
echo "setup-machine: installing ${missing[*]}"
# wait for another apt/dpkg (e.g. unattended-upgrades) instead of failing on its lock
apt_opts=(-o DPkg::Lock::Timeout=600 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
apt-get "${apt_opts[@]}" update -qq
apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "${missing[@]}"

# The tests start their own Postgres and Redis on free loopback ports with their own data; the
# system services the packages may have started are not used (and do not have to run).
have_postgres && have_redis && have_chromium && have_graphicsmagick || { echo "setup-machine: something is still missing" >&2; exit 1; }
echo "setup-machine: done in $(( $(date +%s) - started )) s"

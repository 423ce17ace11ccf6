#!/usr/bin/env bash
# What a new contributor meets: a fresh `git clone` of this repository's HEAD in a temporary
# folder, with HOME pointing at an empty folder (no npm cache, no n8n cache), runs the two commands
# of the README's Quick start section exactly as written there. Checks that the demo wrote a real
# annotated image and a summary, that the tests passed, and prints how long each command took;
# then runs the demo once more to time a warm run.
#   usage: test/e2e/cold-start.sh        (or npm run cold-start)
#   env:   COLD_START_KEEP=1  keep the temporary folder (it is kept anyway when a step fails)
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$src"

# Nothing of the caller's npm or node settings may leak in: a new user has none of them.
while IFS='=' read -r name _; do
  case "${name,,}" in npm_*) unset "$name" ;; esac
done < <(env)
unset NODE_OPTIONS NODE_ENV NODE_PATH INIT_CWD N8N_E2E_CACHE N8N_E2E_VERSIONS N8N_E2E_TARBALL XDG_CACHE_HOME

[ -z "$(git status --porcelain)" ] || echo "cold-start: note: uncommitted changes are not part of the clone" >&2

# The README's two Quick start commands, read from it so that what runs is what it says.
mapfile -t commands < <(awk '
  /^## Quick start/ { inside = 1; next }
  inside && /^```/ { if (block) exit; block = 1; next }
  inside && block && NF { sub(/[ \t]+#.*$/, ""); print }
' README.md)
[ ${#commands[@]} -eq 2 ] || { echo "cold-start: expected two commands in the README's Quick start section, found ${#commands[@]}" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/cold-start.XXXXXX")"
export HOME="$work/home"
mkdir -p "$HOME"
git clone -q "$src" "$work/clone"
cd "$work/clone"
echo "cold-start: clone of $(git rev-parse --short HEAD) in $work/clone, HOME=$HOME (empty)"

declare -a seconds=()
run_step() {
  local label="$1" command="$2" started
  echo "cold-start: [$label] \$ $command"
  started=$(date +%s)
  if ! bash -c "$command" >"$work/$label.log" 2>&1; then
    tail -n 40 "$work/$label.log"
    echo "cold-start: [$label] FAILED after $(( $(date +%s) - started )) s; everything is kept in $work" >&2
    exit 1
  fi
  seconds+=("$(( $(date +%s) - started ))")
  echo "cold-start: [$label] ok in ${seconds[-1]} s (log: $work/$label.log)"
}

run_step demo "${commands[0]}"
# The demo's output must be a real picture, not just a file: a JPEG (or PNG) that differs from the
# input photo, and a summary with detections.
node -e '
  const fs = require("fs");
  const dir = "demo-output";
  const summary = JSON.parse(fs.readFileSync(`${dir}/summary.json`, "utf8"));
  const image = fs.readFileSync(`${dir}/${summary.annotatedImage}`);
  const isJpeg = image[0] === 0xff && image[1] === 0xd8 && image[2] === 0xff;
  const isPng = image.subarray(1, 4).toString() === "PNG";
  const input = fs.readFileSync("test/fixtures/car.jpg");
  if (!(isJpeg || isPng) || image.length < 10000 || image.equals(input)) throw new Error(`${summary.annotatedImage} is not an annotated picture`);
  if (!(summary.totalDetections > 0)) throw new Error("the demo detected nothing");
  if (summary.email?.attachments?.[0]?.fileName !== summary.annotatedImage) throw new Error("the demo'"'"'s email did not arrive with the annotated picture");
  console.log(`cold-start: demo wrote ${summary.annotatedImage} (${image.length} bytes); detected ${JSON.stringify(summary.countsByLabel)}; IF branch: ${summary.ifBranch}; emailed: ${summary.email.subject}`);
'
run_step tests "${commands[1]}"
grep -E '^Tests: ' "$work/tests.log" | sed 's/^/cold-start: jest /' || true
run_step demo-again "npm run demo"

echo
echo "cold-start: first run, \"${commands[0]}\": $(( seconds[0] / 60 )) min $(( seconds[0] % 60 )) s"
echo "cold-start: then \"${commands[1]}\": $(( seconds[1] / 60 )) min $(( seconds[1] % 60 )) s"
echo "cold-start: a later \"npm run demo\": ${seconds[2]} s"
if [ "${COLD_START_KEEP:-}" = 1 ]; then echo "cold-start: kept $work"; else rm -rf "$work"; fi

#!/usr/bin/env bash
# npm run demo: the detect example in real n8n against the reference server; writes the annotated
# image and a summary into demo-output/ (or the folder given as $1) and prints where.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec npx ts-node --transpile-only test/e2e/demo.ts "$@"

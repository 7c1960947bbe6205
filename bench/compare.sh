#!/usr/bin/env bash
# agentfmt vs jq on a 100 MB stream of the Claude captures, then per-line latency.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v jq >/dev/null; then echo "compare.sh: jq not installed; skipping the jq comparison"; exit 0; fi
if [ ! -d ../shared/corpus/claude ]; then echo "compare.sh: ../shared/corpus/claude missing; skipping"; exit 0; fi
go run ./bench/compare -runs "${RUNS:-5}"
go run ./bench/compare -latency

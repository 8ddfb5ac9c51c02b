#!/usr/bin/env bash
# Builds in release mode and prints the benchmark figures beside their anchors.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product opencapture-bench
.build/release/opencapture-bench "$@"

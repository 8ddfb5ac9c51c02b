#!/usr/bin/env bash
# Sets up everything and runs the demo: captures photos with the simulated camera into ./out/demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product opencapture
.build/release/opencapture demo --output out/demo "$@"

#!/usr/bin/env bash
# Sets up everything and runs the test suite. Tests run on an optimised build (with testing
# enabled): the simulated camera renders real scenes, which a debug build makes ten times slower.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path .build-tests
# The simulator keeps renders between processes; tests keep theirs inside the build folder.
export OPENCAPTURE_RENDER_CACHE="${OPENCAPTURE_RENDER_CACHE:-$PWD/.build-tests/render-cache}"
swift test -c release --skip-build -Xswiftc -enable-testing --scratch-path .build-tests "$@"

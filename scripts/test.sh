#!/usr/bin/env bash
# Sets up everything and runs the test suite. Tests run on an optimised build (with testing
# enabled): the simulated camera renders real scenes, which a debug build makes ten times slower.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path .build-tests
swift test -c release --skip-build -Xswiftc -enable-testing --scratch-path .build-tests "$@"

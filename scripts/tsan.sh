#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer (release build with testing enabled), including the
# concurrency stress tests. Any data race report fails the run. Extra arguments go to `swift test`
# (e.g. --filter ConcurrencyStressTests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
swift build -c release --build-tests --sanitize=thread -Xswiftc -enable-testing --scratch-path .build-tsan
swift test -c release --skip-build --sanitize=thread -Xswiftc -enable-testing --scratch-path .build-tsan "$@"

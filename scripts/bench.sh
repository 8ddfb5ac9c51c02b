#!/usr/bin/env bash
# Builds in release mode and prints the benchmark figures beside their anchors.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Comparison tools, for the figures printed beside ours (optional: skipped if they cannot be installed).
if ! command -v enfuse >/dev/null; then
  (apt-get install -y -qq --no-install-recommends enfuse >/dev/null 2>&1 || sudo apt-get install -y -qq --no-install-recommends enfuse >/dev/null 2>&1) || true
fi
if ! command -v cjpeg >/dev/null; then   # the e2e group's JPEG anchor
  (apt-get install -y -qq --no-install-recommends libjpeg-turbo-progs >/dev/null 2>&1 || sudo apt-get install -y -qq --no-install-recommends libjpeg-turbo-progs >/dev/null 2>&1) || true
fi
python3 -c "import cv2" 2>/dev/null || python3 -m pip install -q opencv-python-headless >/dev/null 2>&1 || true
# The develop group's third-party DNGs are written by PiDNG (scripts/make-third-party-dngs.py).
python3 -c "import pidng, PIL" 2>/dev/null || python3 -m pip install -q pidng pillow >/dev/null 2>&1 || true
swift build -c release --product opencapture-bench
swift build -c release --product opencapture   # the e2e group times the command itself
.build/release/opencapture-bench "$@"

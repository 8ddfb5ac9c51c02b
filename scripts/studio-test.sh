#!/usr/bin/env bash
# OpenCapture Studio in a real browser: installs Chromium, its WebDriver and Selenium if missing,
# then runs scripts/studio-browser-test.py on the binary scripts/test.sh built. Screenshots of every
# view (desktop and phone widths) land in studio-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi
python3 -c "import selenium" 2>/dev/null || python3 -m pip install -q selenium
binary=.build-tests/release/opencapture
[ -x "$binary" ] || swift build -c release --product opencapture --scratch-path .build-tests
export OPENCAPTURE_RENDER_CACHE="${OPENCAPTURE_RENDER_CACHE:-$PWD/.build-tests/render-cache}"
python3 scripts/studio-browser-test.py "$binary" studio-screenshots

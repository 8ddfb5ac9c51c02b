#!/usr/bin/env bash
# The CLI built in debug mode (as `swift build` builds a client by default) through shoot, RAW, bracket + fusion,
# depth + portrait, develop, fuse --hdr, record and inspect at small sizes: debug builds check what release builds
# do not (misaligned loads, exclusive access), and a client's first `swift build` must not trap.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c debug --product opencapture > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
cli=.build/debug/opencapture
export OPENCAPTURE_RENDER_CACHE="$work/rc"
run() { echo "debug smoke: opencapture $*"; "$cli" "$@" > "$work/log" 2>&1 || { cat "$work/log"; exit 1; }; }
run shoot --preset vga -o "$work/a"
run shoot --preset vga --raw --format heic -o "$work/b"
run bracket --preset vga --ev=-2,0,2 --fuse -o "$work/c"
run shoot --preset vga --device dual --depth --format heic -o "$work/d"
run portrait "$work/d/photo-1.heic" --aperture 2 -o "$work/portrait.jpg"
run develop "$work/b/photo-1.dng" -o "$work/dev"
run fuse "$work/c/bracket-1-1.jpg" "$work/c/bracket-1-2.jpg" "$work/c/bracket-1-3.jpg" --hdr -o "$work/fused.jpg"
run record --preset vga --duration 1 -o "$work/clip.mov"
run inspect "$work/d/photo-1.heic"
echo "debug smoke: passed"

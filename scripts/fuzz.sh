#!/usr/bin/env bash
# Fuzzes MediaFormats' readers with libFuzzer + AddressSanitizer (the Fuzz/ sub-package; the main
# build and scripts/test.sh are unaffected).
#   scripts/fuzz.sh [seconds] [target…]
# seconds: total time, split evenly over the targets (default 60). Targets: jpeg png tiff heif raw
# hdr icc depth movie video all (default: jpeg png tiff heif raw hdr depth movie video; video decodes a frame
# through FFmpeg, MovieFrameDecoder). Exits non-zero when a reader crashes, leaks
# memory without bound or asks for an oversized allocation; the input is left in
# Fuzz/artifacts/<target>/ — add it under Tests/Fixtures/MediaFormats/Fuzz/ as a regression test.
# The seed corpus (Fuzz/Corpus/seeds, written by OpenCapture's own writers) is regenerated with
# FUZZ_REGENERATE_SEEDS=1. Inputs that found new coverage accumulate in Fuzz/Corpus/work/<target>/.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(jpeg png tiff heif raw hdr depth movie video)

if [ "${FUZZ_REGENERATE_SEEDS:-0}" = 1 ] || [ ! -d Corpus/seeds ]; then
    swift build --product make-seeds --scratch-path .build-seeds
    .build-seeds/debug/make-seeds Corpus/seeds
fi

echo "building the fuzzer (release, -sanitize=fuzzer,address)…"
swift build -c release --product MediaFormatsFuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -Ev "Cannot export local symbol" || true
binary=.build-fuzz/release/MediaFormatsFuzz
[ -x "$binary" ] || { echo "fuzz.sh: the fuzzer did not build" >&2; exit 2; }

per=$(( seconds / ${#targets[@]} ))
[ "$per" -lt 5 ] && per=5
status=0
for target in "${targets[@]}"; do
    mkdir -p "Corpus/work/$target" "artifacts/$target"
    echo "== $target: ${per}s"
    if ! FUZZ_TARGET="$target" ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1" "$binary" \
        "Corpus/work/$target" Corpus/seeds ../Tests/Fixtures/MediaFormats/Fuzz \
        -max_total_time="$per" -max_len=16384 -rss_limit_mb=3072 -malloc_limit_mb=1100 -timeout=20 \
        -artifact_prefix="artifacts/$target/" -print_final_stats=1 > "artifacts/$target/log.txt" 2>&1; then
        echo "fuzz.sh: $target crashed; see Fuzz/artifacts/$target/" >&2
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written" "artifacts/$target/log.txt" | head -5 >&2
        status=1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "artifacts/$target/log.txt" | tr '\n' ' '; echo
done
exit $status

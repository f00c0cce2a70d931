#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/CMakeLists.txt: clang, ASan + UBSan,
# -fno-sanitize-recover=all) in BUILD_DIR and runs fuzz-image and fuzz-cli side by side,
# each for SECONDS, starting from its committed seed corpus (tests/fuzz/corpus/<name>,
# read only; what a run adds goes to BUILD_DIR/fuzz/<name>/corpus). Prints libFuzzer's
# final line of each ("Done N runs in S second(s)"). Exit status 1 if either found
# anything (a crash, a leak, undefined behaviour, an uncaught exception, a timeout of an
# input over 25 s, or more than 2 GB of memory): its log and the input that did it are
# under BUILD_DIR/fuzz/<name>/ (replay with BUILD_DIR/tests/fuzz/fuzz-<name> FILE), and the
# input is printed in base64 when it is at most 64 KiB.
#
# Usage: tests/fuzz/run.sh [SECONDS [BUILD_DIR [SEED]]]   (defaults: 60, build-fuzz, 1)
# Needs clang++ and its fuzzer runtime (Debian: clang, libclang-rt-14-dev), cmake, libstb-dev;
# libpng-dev and libtiff-dev where present (without them those decoders are not fuzzed).
#
# Seeds: corpus/image holds tiny valid files (20 to 750 bytes) of every kind the loader
# takes: PNG grey, grey+alpha, RGB, RGBA, palette with tRNS, 4- and 16-bit, interlaced;
# baseline JPEG 4:4:4 and 4:2:0, progressive and with restart markers; BMP 1-, 4-, 8-bit
# palette, 16-bit 555 and 565 bit fields, 24-bit bottom-up, top-down and with the 12-byte
# core header, 32-bit with alpha (V4 header); TGA uncompressed and run-length coded, grey,
# RGB, RGBA, colour-mapped, 16-bit; 16-bit PNG grey and grey+alpha (libpng's path); TIFF
# 8-bit grey, 16-bit RGB big-endian, float RGBA, 16-bit deflate with predictor (as the
# program writes them), LZW in a 16x16 tile, 2-bit palette (libtiff's RGBA reader); one
# corrupt progressive JPEG and one corrupt baseline JPEG that tripped UBSan inside stb
# (tests/fuzz/CMakeLists.txt); and a corrupt progressive JPEG whose decoding read memory no
# one wrote (accepted or rejected by what the heap held, before stb got zeroed buffers).
# corpus/cli holds argument lists, NUL-separated.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
build=${2:-build-fuzz}
# A fixed seed makes a run repeatable: the same mutations in the same order, so a slower
# machine only stops earlier in the same sequence. Pass another seed (0: libFuzzer picks
# one) to explore further than CI does.
seed=${3:-1}

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHIPSTENCIL_BACKEND=host \
  -DHIPSTENCIL_FUZZ=ON -DHIPSTENCIL_BUILD_TESTS=OFF -DHIPSTENCIL_BUILD_EXAMPLES=OFF -DHIPSTENCIL_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target fuzz-image fuzz-cli

pids=()
for name in image cli; do
  dir="$build/fuzz/$name"
  rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/artifacts"
  "$build/tests/fuzz/fuzz-$name" -max_total_time="$seconds" -seed="$seed" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" "tests/fuzz/corpus/$name" >"$dir/log" 2>&1 &
  pids+=($!)
done
status=0
i=0
for name in image cli; do
  rc=0
  wait "${pids[$i]}" || rc=$?
  i=$((i + 1))
  dir="$build/fuzz/$name"
  done_line=$(grep -E "^Done [0-9]+ runs in [0-9]+ second" "$dir/log" | tail -1 || true)
  if [ "$rc" -eq 0 ] && [ -n "$done_line" ]; then
    echo "fuzz-$name: $done_line ($(ls "$dir/corpus" | wc -l) new corpus entries)"
  else
    status=1
    echo "fuzz-$name: FAILED (exit $rc); the end of $dir/log:"
    tail -40 "$dir/log"
    ls -l "$dir/artifacts"
    # The inputs themselves, so that a finding on a machine whose files are gone (CI) can be
    # replayed from its log: base64 -d > input, then run fuzz-NAME on it.
    for f in "$dir"/artifacts/*; do
      [ -f "$f" ] || continue
      if [ "$(stat -c %s "$f")" -le 65536 ]; then
        echo "base64 of $(basename "$f"):"
        base64 "$f"
      fi
    done
  fi
done
exit $status

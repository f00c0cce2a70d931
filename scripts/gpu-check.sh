#!/usr/bin/env bash
# One call on a machine with an NVIDIA GPU (the device tool's H200): configure the CUDA
# backend, build, run the [gpu] tests, compute-sanitizer's four tools over a subset of them,
# and the main job, and print a short summary.
# Usage: scripts/gpu-check.sh [catch2 test spec...]  (none: the whole suite, split over
# processes side by side by scripts/gpu-suite.sh; a spec: one process)
# Needs Catch2 and stb in .deps/ when the machine has no package registry: copy Debian's
# /usr/include/catch2, /usr/lib/cmake/Catch2, /usr/lib/libCatch2WithMain.a and
# /usr/include/stb there (include/, lib/cmake/, lib/) on a machine that has them.
# Logs go to $OUT (or ./out) when set.
set -uo pipefail
out=${OUT:-$PWD/out}
mkdir -p "$out"
build=build-gpu
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPSTENCIL_BACKEND=cuda \
  -DCMAKE_PREFIX_PATH="$PWD/.deps" -DCMAKE_CXX_FLAGS="-I$PWD/.deps/include" -DCMAKE_CUDA_FLAGS="-I$PWD/.deps/include" \
  >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build $build -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -m 20 -B2 -A10 error "$out/build.log"; exit 1; }
t1=$(date +%s)
echo "== build: $((t1 - t0)) s"
if [ $# -eq 0 ]; then
  # The whole suite in processes side by side (scripts/gpu-suite.sh: logs gpu-sK.txt).
  OUT=$out scripts/gpu-suite.sh "$build/tests/hipstencil-gpu-tests" 2>&1 | tail -12
  gpu_rc=${PIPESTATUS[0]}
else
  "$build/tests/hipstencil-gpu-tests" "$@" 2>&1 | tee "$out/gpu-tests.log" | tail -25
  gpu_rc=${PIPESTATUS[0]}
fi
t2=$(date +%s)
echo "== [gpu] tests: exit $gpu_rc, $((t2 - t1)) s wall"
"$build/tests/hipstencil-host-tests" 2>&1 | tail -3

# compute-sanitizer over the [sanitize] subset, one tool at a time: every family and form,
# both strategies, every border rule, ROIs at every edge and corner and both halo modes,
# for uint8 and float4 at small sizes (the full matrix under racecheck takes far longer
# than 10 minutes), plus naive's ROI and halo matrix. Each tool's log is kept in $out and
# its summary line printed. SANITIZERS=0 skips this.
san_rc=0
if [ "${SANITIZERS:-1}" != 0 ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  # One Catch2 test spec: alternatives separated by commas.
  subset="[sanitize],naive: every ROI placement and halo mode for every border"
  for tool in memcheck racecheck initcheck synccheck; do
    ts=$(date +%s)
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    timeout "${SANITIZER_TIMEOUT:-300}" "$cs" --tool "$tool" "${extra[@]}" --error-exitcode 86 \
      "$build/tests/hipstencil-gpu-tests" "$subset" >"$out/sanitizer-$tool.log" 2>&1
    rc=$?
    # A spec that matched nothing also exits 0: the subset must have run and passed.
    [ $rc -eq 0 ] && ! grep -q "^All tests passed" "$out/sanitizer-$tool.log" && rc=1
    [ $rc -ne 0 ] && san_rc=$rc
    summary=$(grep -E "(ERROR|RACECHECK) SUMMARY" "$out/sanitizer-$tool.log" | tail -1)
    tests=$(grep -E "^(All tests passed|test cases:)" "$out/sanitizer-$tool.log" | tail -1)
    echo "== compute-sanitizer $tool: exit $rc, $(( $(date +%s) - ts )) s: ${summary:-no summary line} | ${tests:-no Catch2 summary}"
  done
fi
repo=$PWD
(cd "$out" && "$repo/$build/examples/hipstencil-filter" && \
  "$repo/$build/examples/hipstencil-filter" --filter sobel "$repo/data/camera.png") 2>&1 | tee "$out/filter.log"
echo "== every algorithm on the bundled photograph (gaussian sigma 3, 512x512 RGB):"
for a in $("$build/examples/hipstencil-filter" --list-algorithms); do
  (cd "$out" && "$repo/$build/examples/hipstencil-filter" --algo "$a" --sigma 3 "$repo/data/astronaut.png" "/tmp/g-$a.png") |
    awk -v a="$a" '/^time:/ {print "  " a ": " $0}'
done
echo "== examples:"
bash examples/run-examples.sh "$build" /tmp/examples 2>&1 | tail -12
echo "== consumer project (installed package, subproject, vendored), nvcc:"
tests/consumer/run.sh cuda 2>&1 | tail -4
echo "== total: $(( $(date +%s) - t0 )) s"
[ $gpu_rc -ne 0 ] && exit $gpu_rc
exit $san_rc

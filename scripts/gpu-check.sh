#!/usr/bin/env bash
# One call on a machine with an NVIDIA GPU (the device tool's H200): configure the CUDA
# backend, build, run the [gpu] tests and the main job, and print a short summary.
# Usage: scripts/gpu-check.sh [catch2 test spec...]
# Needs Catch2 and stb in .deps/ (../shared/tools/device-deps.sh) when the machine has no
# package registry. Logs go to $OUT (or ./out) when set.
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
"$build/tests/hipstencil-gpu-tests" "$@" 2>&1 | tee "$out/gpu-tests.log" | tail -25
gpu_rc=${PIPESTATUS[0]}
t2=$(date +%s)
echo "== [gpu] tests: exit $gpu_rc, $((t2 - t1)) s wall"
"$build/tests/hipstencil-host-tests" 2>&1 | tail -3
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
exit $gpu_rc

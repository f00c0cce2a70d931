#!/usr/bin/env bash
# One call on a machine with an NVIDIA GPU (the device tool's H200): build hipstencil-bench
# for CUDA (with NPP when the toolkit has it; without, if that build fails), run it, then
# run bench/peers.py. Logs and CSVs go to $OUT (or ./out).
#
#   bench/run-device.sh smoke   2048x2048, every default case, 20 runs; then the slowest
#                               8192x8192 group, to size the full run
#   bench/run-device.sh full    the default set at 8192x8192 (25 runs) and the Python peers
#   bench/run-device.sh sizes   the six default sizes (128x128 to 8192x8192 and 128x65536),
#                               replicate, radii 1, 2, 4, 7: what automatic's table is set from
#   bench/run-device.sh targets issue 12's cases (u8, uchar4, float; 3x3 and 5x5, dense and
#                               separable; replicate) at those sizes, held, automatic beside the
#                               families it chooses among and NPP, then bench/targets.py's
#                               tables (targets.md); BENCH_TYPES is not used
#
# Every mode runs the bench's default pixel types (u8, u16, s16, float, uchar4); BENCH_TYPES
# gives others to each mode's main run, e.g. `BENCH_TYPES=u16,s16 bench/run-device.sh full`
# for the 16-bit rows alone (each type adds about a fifth to a run's time).
#
# Needs stb in .deps/ (the examples folder the bench build includes looks for it there):
# carry .deps on a machine without a package registry. Stays inside `budget` seconds.
set -uo pipefail
mode=${1:?usage: [BENCH_TYPES=LIST] bench/run-device.sh smoke|full|sizes|targets}
types=()
[ -n "${BENCH_TYPES:-}" ] && types=(--type "$BENCH_TYPES")
out=${OUT:-$PWD/out}
build=build-bench
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }

{
  date -u '+%Y-%m-%d %H:%M:%S UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv
  nvcc --version | tail -2
  ls /usr/local/cuda/lib64/libnppif* /usr/local/cuda/include/nppi_filtering_functions.h 2>&1
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

configure() {
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIPSTENCIL_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DHIPSTENCIL_BUILD_TESTS=OFF -DHIPSTENCIL_BUILD_EXAMPLES=OFF -DCMAKE_PREFIX_PATH="$PWD/.deps" \
    -DHIPSTENCIL_BENCH_NPP=ON "$@" >>"$out/build.log" 2>&1  # ON: compare-device.sh leaves OFF in the cache
}
compile() { cmake --build $build --target hipstencil-bench -j "$(nproc)" >>"$out/build.log" 2>&1; }
if ! { configure && compile; }; then
  echo "== build with NPP failed:"; grep -m 10 -A3 -E "error|Error" "$out/build.log"
  echo "== retrying without NPP"
  { configure -DHIPSTENCIL_BENCH_NPP=OFF && compile; } || { grep -m 20 -A5 -E "error|Error" "$out/build.log"; exit 1; }
fi
grep "hipstencil-bench:" "$out/build.log"
echo "== build: $(elapsed)"
bench=$build/bench/hipstencil-bench
# The main run of each mode: the bench with BENCH_TYPES when given (an array, not a function,
# so that `timeout` can run it; the ${a[@]+...} form keeps an empty one legal under set -u).
main_run=("$bench" ${types[@]+"${types[@]}"})

case $mode in
  smoke)
    timeout 200 "${main_run[@]}" --size 2048x2048 --runs 20 --csv "$out/smoke.csv" >"$out/smoke.log" 2>&1
    echo "== smoke: exit $?, $(elapsed)"; tail -60 "$out/smoke.log"
    timeout 120 $bench --type uchar4 --dense --radius 15 --border replicate --csv "$out/big.csv" >"$out/big.log" 2>&1
    echo "== 8192x8192 uchar4 dense 31x31: exit $?, $(elapsed)"; grep -E "^  |^==" "$out/big.log" | head -20
    timeout 90 python3 bench/peers.py --size 2048x2048 --runs 20 --csv "$out/peers.csv" >"$out/peers.log" 2>&1
    echo "== peers: exit $?, $(elapsed)"; cat "$out/peers.log"
    ;;
  full)
    timeout 420 "${main_run[@]}" --size 8192x8192 --csv "$out/bench.csv" >"$out/bench.log" 2>&1
    echo "== bench: exit $?, $(elapsed)"; sed -n '/== summary/,$p' "$out/bench.log"
    timeout 90 python3 bench/peers.py --csv "$out/peers.csv" >"$out/peers.log" 2>&1
    echo "== peers: exit $?, $(elapsed)"; cat "$out/peers.log"
    ;;
  sizes)
    timeout 420 "${main_run[@]}" --border replicate --radius 1,2,4,7 --csv "$out/bench.csv" >"$out/bench.log" 2>&1
    echo "== bench: exit $?, $(elapsed)"; grep -E "^== size" "$out/bench.log"
    ;;
  targets)
    timeout 480 "$bench" --size 128x128,512x512,1920x1080,3840x2160,8192x8192,128x65536 --type u8,uchar4,float \
      --radius 1,2 --border replicate --algo automatic,direct,packed,tiled,shared_mem,streaming --hold --runs 51 \
      --csv "$out/targets.csv" >"$out/targets.log" 2>&1
    echo "== bench: exit $?, $(elapsed)"
    python3 bench/targets.py "$out/targets.csv" | tee "$out/targets.md"
    ;;
  *) echo "unknown mode '$mode' (smoke, full, sizes or targets)"; exit 2 ;;
esac
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$out/env.txt" 2>&1
echo "== total: $(elapsed)"

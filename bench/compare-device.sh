#!/usr/bin/env bash
# Before/after timing on a machine with an NVIDIA GPU (the device tool's H100/H200): builds
# hipstencil-bench of a base commit and of the working tree side by side, runs both with the
# same arguments, then compares them case by case (bench/compare.py).
#
#   bash bench/compare-device.sh BASE_COMMIT [hipstencil-bench args...]
#   e.g. bash bench/compare-device.sh HEAD --size 4096x4096 --type float --runs 20
#
# Run from the repository root. BASE is a commit (the git history must be there: the tree is
# checked out with `git worktree add`, or `git archive` if that fails, into /tmp/hs-base) or
# a folder holding the base's source tree (for a copy without .git, such as the device
# tool's: `git archive BASE | tar -x -C .base` here, an ignored folder, and carry it).
# Builds: build-base/ (source /tmp/hs-base) and build-bench/ (the working tree), CUDA,
# sm_90, Release, NPP off (the comparison is hipstencil against itself), configured as
# bench/run-device.sh does (stb and Catch2 from .deps/). Writes to $OUT (or ./out):
#   build.log            both configures and builds
#   base.csv, base.log   the base build's run;  new.csv, new.log   the working tree's
#   compare.txt          bench/compare.py's table: median base, new, new/base per case
# Each build's and each run's seconds are printed. A command on the device tool may run 10
# minutes at most: where both builds and both runs do not fit, split them over two calls on
# the same warm machine, COMPARE_STEPS=build then COMPARE_STEPS=run (default: build,run).
set -uo pipefail
base=${1:?usage: bash bench/compare-device.sh BASE_COMMIT [hipstencil-bench args...]}
shift
out=${OUT:-$PWD/out}
steps=${COMPARE_STEPS:-build,run}
root=$(pwd -P)
base_src=/tmp/hs-base
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }
seconds_since() { echo "$(( $(date +%s) - $1 )) s"; }

build_base=$root/build-base
build_new=$root/build-bench
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

configure() {  # configure SOURCE BUILD
  # A build folder configured for another source or generator cannot be reused.
  if [ -f "$2/CMakeCache.txt" ] && ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$1" "$2/CMakeCache.txt"; then
    rm -rf "$2"
  fi
  local gen=(${generator[@]+"${generator[@]}"})
  if [ -f "$2/CMakeCache.txt" ]; then gen=(); fi  # keep the cached generator
  cmake -S "$1" -B "$2" ${gen[@]+"${gen[@]}"} -DCMAKE_BUILD_TYPE=Release -DHIPSTENCIL_BACKEND=cuda \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DHIPSTENCIL_BUILD_TESTS=OFF -DHIPSTENCIL_BUILD_EXAMPLES=OFF \
    -DHIPSTENCIL_BENCH_NPP=OFF -DCMAKE_PREFIX_PATH="$root/.deps" >>"$out/build.log" 2>&1
}
build() {  # build NAME SOURCE BUILD
  local t; t=$(date +%s)
  echo "== $1: configure and build $3 (source $2)" >>"$out/build.log"
  if ! { configure "$2" "$3" && cmake --build "$3" -j 16 --target hipstencil-bench >>"$out/build.log" 2>&1; }; then
    echo "== build $1 FAILED after $(seconds_since "$t"):"
    grep -m 20 -A5 -E "error|Error" "$out/build.log"
    exit 1
  fi
  echo "== build $1: $(seconds_since "$t") (total $(elapsed))"
}

checkout_base() {
  local t want; t=$(date +%s)
  if [ -d "$base" ]; then
    base_src=$(cd "$base" && pwd -P)
    echo "== base: source tree $base_src"
    [ -f "$base_src/CMakeLists.txt" ] || { echo "== $base_src has no CMakeLists.txt"; exit 1; }
    if [ -d "$root/.deps" ] && [ ! -e "$base_src/.deps" ]; then ln -s "$root/.deps" "$base_src/.deps"; fi
    return
  fi
  want=$(git rev-parse --verify "$base^{commit}" 2>/dev/null) || { echo "== '$base' is not a commit here"; exit 1; }
  # The same commit checked out by an earlier call: keep it (and build-base stays incremental).
  if [ "$(git -C "$base_src" rev-parse HEAD 2>/dev/null)" = "$want" ]; then
    echo "== base $base: $(git -C "$base_src" log -1 --format='%h %s') (kept from an earlier call)"
    return
  fi
  if [ -e "$base_src" ]; then
    git worktree remove --force "$base_src" >/dev/null 2>&1 || rm -rf "$base_src"
    git worktree prune >/dev/null 2>&1
  fi
  if git worktree add --detach "$base_src" "$want" >>"$out/build.log" 2>&1; then
    echo "== base $base: $(git -C "$base_src" log -1 --format='%h %s') (git worktree, $(seconds_since "$t"))"
  else
    echo "== git worktree add failed (see build.log); extracting with git archive"
    rm -rf "$base_src" && mkdir -p "$base_src"
    git archive "$want" | tar -x -C "$base_src" || { echo "== cannot check out '$base'"; exit 1; }
    echo "== base $base: $(git log -1 --format='%h %s' "$base") (git archive, $(seconds_since "$t"))"
  fi
  # Ignored dependencies (stb, Catch2) live in the working tree's .deps/ only; the examples
  # folder looks for stb in the source's .deps/include.
  if [ -d "$root/.deps" ] && [ ! -e "$base_src/.deps" ]; then ln -s "$root/.deps" "$base_src/.deps"; fi
}

run_bench() {  # run_bench NAME BUILD CSV ARGS...
  local name=$1 exe=$2/bench/hipstencil-bench csv=$3 t; t=$(date +%s)
  shift 3
  if [ ! -x "$exe" ]; then echo "== $name: $exe is missing (run COMPARE_STEPS=build first)"; exit 1; fi
  "$exe" "$@" --csv "$csv" >"$out/$name.log" 2>&1
  local rc=$?
  echo "== run $name: exit $rc, $(seconds_since "$t") (total $(elapsed))"
  [ $rc -eq 0 ] || tail -20 "$out/$name.log"
}

{
  date -u '+%Y-%m-%d %H:%M:%S UTC'
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv 2>&1
  nvcc --version 2>&1 | tail -2
  echo "new: working tree on $(git log -1 --format='%h %s' 2>/dev/null)"
} | tee -a "$out/build.log"

case ",$steps," in
  *,build,*)
    checkout_base
    build base "$base_src" "$build_base"
    build new "$root" "$build_new"
    ;;
esac
case ",$steps," in
  *,run,*)
    echo "== arguments: $*"
    run_bench base "$build_base" "$out/base.csv" "$@"
    run_bench new "$build_new" "$out/new.csv" "$@"
    python3 bench/compare.py "$out/base.csv" "$out/new.csv" --out "$out/compare.txt"
    ;;
esac
echo "== total: $(elapsed)"

#!/usr/bin/env bash
# Builds tests/consumer, a project that uses hipstencil, the three ways users take it in,
# for each GPU platform, and runs what it built (without a GPU the program says so):
#
#   package   cmake --install of this tree, then find_package(hipstencil) (CMAKE_PREFIX_PATH)
#   subtree   the source tree as a subproject: FetchContent (SOURCE_DIR) for cuda,
#             add_subdirectory for hip; hipstencil's own targets must stay off
#   vendored  a bare copy of include/ and one compiler command (nvcc or hipcc) with Eigen's
#             include folder ($EIGEN3_INCLUDE_DIR, default Debian's /usr/include/eigen3)
#
# Platforms: cuda (nvcc, sm_90) and hip (hipcc, gfx90a).
# Usage: tests/consumer/run.sh [cuda] [hip]
#   With no argument: the platforms in $HIPSTENCIL_CONSUMER_PLATFORMS (CI sets "cuda hip"), else
#   every platform whose compiler is found; none found -> exit 77 (skip).
#   A platform named on the command line whose compiler is missing is a failure.
# Exit status: 0 every build passed, 1 some failed (the log of each failure is printed),
# 77 nothing to test. Work files go to $CONSUMER_WORK_DIR (default: a fresh temp dir,
# removed on success).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
consumer="$repo/tests/consumer"
export PATH="$PATH:/usr/local/cuda/bin"

have() { command -v "$1" >/dev/null 2>&1; }
compiler_of() { case $1 in cuda) echo nvcc ;; hip) echo hipcc ;; esac; }

platforms=("$@")
if [ ${#platforms[@]} -eq 0 ] && [ -n "${HIPSTENCIL_CONSUMER_PLATFORMS:-}" ]; then
  read -ra platforms <<< "$HIPSTENCIL_CONSUMER_PLATFORMS"
fi
if [ ${#platforms[@]} -eq 0 ]; then
  for p in cuda hip; do have "$(compiler_of $p)" && platforms+=("$p"); done
  if [ ${#platforms[@]} -eq 0 ]; then
    echo "consumer builds SKIPPED: neither nvcc nor hipcc is installed"
    exit 77
  fi
fi

work=${CONSUMER_WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/hipstencil-consumer-XXXXXX")}
mkdir -p "$work"
generator=()
have ninja && generator=(-G Ninja)
failures=0
summary=()

# step NAME LOGFILE COMMAND...: runs the command with its output in the log; on failure
# prints the log's end.
step() {
  local name=$1 log=$2
  shift 2
  local t0=$(date +%s)
  if "$@" >"$log" 2>&1; then
    local said=$(tail -1 "$log")
    [[ $said == consumer* ]] || said=""  # what the program printed, if the step ran it
    summary+=("ok    $name ($(( $(date +%s) - t0 )) s)${said:+: $said}")
    return 0
  fi
  summary+=("FAIL  $name (log: $log)")
  failures=$((failures + 1))
  echo "--- FAILED: $name; last lines of $log:"
  tail -40 "$log"
  return 1
}

# 1. Install (host-only configure: the package is header-only and picks each consumer's
#    backend when it is found, so one installation serves both platforms).
install_ok=0
install_tree() {
  cmake -S "$repo" -B "$work/install-build" "${generator[@]}" -DHIPSTENCIL_BACKEND=host \
    -DHIPSTENCIL_BUILD_TESTS=OFF -DHIPSTENCIL_BUILD_EXAMPLES=OFF -DHIPSTENCIL_BUILD_BENCH=OFF &&
    cmake --build "$work/install-build" &&
    cmake --install "$work/install-build" --prefix "$work/prefix" &&
    test -f "$work/prefix/lib/cmake/hipstencil/hipstencilConfig.cmake" &&
    test -f "$work/prefix/lib/cmake/hipstencil/hipstencilConfigVersion.cmake" &&
    test -f "$work/prefix/lib/cmake/hipstencil/hipstencilTargets.cmake" &&
    diff -r "$repo/include/hipstencil" "$work/prefix/include/hipstencil"  # every header, unchanged
}
step "install: cmake --install, every header and the package files in place" "$work/install.log" install_tree &&
  install_ok=1

# 2. A bare copy of include/: what a project vendoring the headers has (with Eigen's).
eigen=${EIGEN3_INCLUDE_DIR:-/usr/include/eigen3}
mkdir -p "$work/vendor" && cp -r "$repo/include" "$work/vendor/"

# One platform's three builds (its own steps into summary and failures).
run_platform() {
  local p=$1 cc flags subtree vendored
  cc=$(compiler_of "$p")
  if [ -z "$cc" ]; then
    summary+=("FAIL  $p: unknown platform (expected cuda or hip)")
    failures=$((failures + 1))
    return
  fi
  if ! have "$cc"; then
    summary+=("FAIL  $p: $cc not found")
    failures=$((failures + 1))
    return
  fi
  if [ "$p" = cuda ]; then
    flags=(-DCONSUMER_PLATFORM=cuda -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_CUDA_COMPILER=$(command -v nvcc)")
    subtree=fetchcontent
    vendored=(nvcc -std=c++17 -arch=sm_90 -x cu -I "$work/vendor/include" -I "$eigen" "$consumer/consumer.cpp" -lcufft)
  else
    flags=(-DCONSUMER_PLATFORM=hip -DCMAKE_CXX_COMPILER=hipcc -DHIPSTENCIL_HIP_ARCHITECTURES=gfx90a)
    subtree=subdirectory
    vendored=(hipcc -std=c++17 --offload-arch=gfx90a -I "$work/vendor/include" -I "$eigen" "$consumer/consumer.cpp")
  fi
  build_with_cmake() {  # MODE [extra cmake args]
    local mode=$1 dir="$work/$p-$1"
    shift
    cmake -S "$consumer" -B "$dir" "${generator[@]}" -DCONSUMER_MODE="$mode" "${flags[@]}" "$@" &&
      cmake --build "$dir" && "$dir/consumer"
  }
  build_vendored() {
    mkdir -p "$work/$p-vendored" && "${vendored[@]}" -o "$work/$p-vendored/consumer" && "$work/$p-vendored/consumer"
  }
  if [ $install_ok = 1 ]; then
    step "$p: installed package (find_package)" "$work/$p-package.log" \
      build_with_cmake package "-DCMAKE_PREFIX_PATH=$work/prefix"
  else
    summary+=("FAIL  $p: installed package: not tried, the install failed")
    failures=$((failures + 1))
  fi
  step "$p: source tree as a subproject ($subtree)" "$work/$p-$subtree.log" \
    build_with_cmake "$subtree" "-DHIPSTENCIL_SOURCE_DIR=$repo"
  step "$p: vendored include/ ($cc, one command)" "$work/$p-vendored.log" build_vendored
}

# The platforms build side by side, one background job each (a consumer build is one
# compiler process: on CI's two cores this halves the test's time); each job hands its
# summary lines and failure count back through files.
for p in "${platforms[@]}"; do
  (
    summary=()
    failures=0
    run_platform "$p"
    printf '%s\n' "${summary[@]}" >"$work/$p.summary"
    echo "$failures" >"$work/$p.failures"
  ) &
done
wait
for p in "${platforms[@]}"; do
  if [ -f "$work/$p.summary" ] && [ -f "$work/$p.failures" ]; then
    mapfile -t lines <"$work/$p.summary"
    summary+=("${lines[@]}")
    failures=$((failures + $(cat "$work/$p.failures")))
  else
    summary+=("FAIL  $p: its build job ended without a summary")
    failures=$((failures + 1))
  fi
done

echo
echo "consumer builds:"
printf '  %s\n' "${summary[@]}"
if [ $failures -ne 0 ]; then
  echo "consumer builds: $failures FAILED (work files kept in $work)"
  exit 1
fi
[ -z "${CONSUMER_WORK_DIR:-}" ] && rm -rf "$work"
echo "consumer builds: all passed"
exit 0

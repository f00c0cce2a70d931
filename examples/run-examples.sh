#!/usr/bin/env bash
# Runs every API example of a GPU build (cuda or hip backend) and prints one line each.
# Usage: examples/run-examples.sh BUILD_DIR [OUTPUT_DIR]
#   The examples write their images into OUTPUT_DIR (default: the current directory).
# Exit status: 0 all passed; 1 some example failed; 77 no GPU (every example skipped).
set -uo pipefail
build=$(cd "${1:?usage: examples/run-examples.sh BUILD_DIR [OUTPUT_DIR]}" && pwd)
mkdir -p "${2:-.}" && cd "${2:-.}" || exit 1
runs=(
  "example-gaussian-blur"
  "example-sobel-rgba"
  "example-separable-filter automatic reflect101"
  "example-separable-filter naive constant"
  "example-separable-filter shared_mem wrap"
  "example-separable-filter tiled reflect101"
  "example-separable-filter streaming replicate"
  "example-separable-filter two_pass replicate"
  "example-separable-filter two_pass reflect"
  "example-roi-subimage"
  "example-multi-stream"
)
failed=0 skipped=0
for r in "${runs[@]}"; do
  set -- $r
  exe="$build/examples/$1"
  shift
  echo "=== ${r}"
  "$exe" "$@"
  rc=$?
  case $rc in
    0) ;;
    77) skipped=$((skipped + 1)) ;;
    *) echo "=== ${r}: FAILED (exit $rc)"; failed=$((failed + 1)) ;;
  esac
done
echo "examples: ${#runs[@]} runs, $failed failed, $skipped skipped"
[ $failed -ne 0 ] && exit 1
[ $skipped -eq ${#runs[@]} ] && exit 77
exit 0

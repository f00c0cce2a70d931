#!/usr/bin/env bash
# The whole [gpu] suite in several processes side by side on one GPU, each test case in
# exactly one of them. One process runs the cases one after another, most of them on images
# too small to fill the GPU; on an H100 six processes (split by hand then) ran the 134 cases
# in 146 s of wall time (bench/results/2026-12-05-h100-packed3/final/), the longest case
# alone 113 s. Each process prints its own random seed (HIPSTENCIL_TEST_SEED replays one).
#
#   scripts/gpu-suite.sh [TEST_BINARY] [catch2 options...]
#     TEST_BINARY  default build-gpu/tests/hipstencil-gpu-tests
#     SHARDS       processes (default 6)
#     DURATIONS    files holding Catch2's `--durations yes` lines ("12.345 s: name") from an
#                  earlier run, to balance the processes (default tests/gpu/durations.txt);
#                  a case they do not name counts as the median of those they do
#     OUT          where the logs go (default ./out): gpu-sK.txt, one a process, shard-K.txt,
#                  the names each ran, and suite.txt, the summary printed at the end
#
# The cases are split by their names (longest first, each to the least loaded process) and
# handed to Catch2 as input files (-f), whose lines are names: commas and backslashes are
# escaped, since Catch2 reads a comma as "or". Before anything runs, each file is listed
# back through the binary to check that the processes together select every case once.
# Exits 0 when every process passed and ran every case it was given, 77 (CTest's "skipped")
# when the binary found no device, 1 otherwise.
set -uo pipefail
tests=${1:-build-gpu/tests/hipstencil-gpu-tests}
[ $# -gt 0 ] && shift
shards=${SHARDS:-6}
out=${OUT:-$PWD/out}
here=$(cd "$(dirname "$0")/.." && pwd -P)
durations=${DURATIONS:-$here/tests/gpu/durations.txt}
mkdir -p "$out"
[ -x "$tests" ] || { echo "gpu-suite: no test binary at '$tests' (build the hipstencil-gpu-tests target)"; exit 1; }
case $shards in '' | *[!0-9]* | 0) echo "gpu-suite: SHARDS must be a positive number (got '$shards')"; exit 1 ;; esac
t0=$(date +%s)

# The names of the cases a selection picks, one a line. Listing runs no test, so it needs no
# device; Catch2 exits with the count, so the status is not an error.
list_names() {
  "$tests" "$@" --list-test-names-only 2>&1 |
    grep -v -e '^[[:space:]]*$' -e '^[0-9]* matching test case' | sed 's/[[:space:]]*$//'
}
names=$out/names.txt
list_names "[gpu]" >"$names"
total=$(wc -l <"$names")
[ "$total" -gt 0 ] || { echo "gpu-suite: '$tests' listed no [gpu] case:"; "$tests" "[gpu]" --list-test-names-only 2>&1 | head -5; exit 1; }
# No process without a case: Catch2 given an empty input file runs every case.
[ "$shards" -gt "$total" ] && shards=$total

# Split: each name with its weight, heaviest first, to the process with the least so far.
# shellcheck disable=SC2086  # DURATIONS may name several files, or a glob
python3 - "$names" "$out" "$shards" $durations <<'EOF' || exit 1
import re, statistics, sys
names_file, out, shards, logs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
names = [n for n in open(names_file).read().split("\n") if n]
seconds = {}
for log in logs:
    try:
        for line in open(log, errors="replace"):
            m = re.match(r"^([0-9.]+) s: (.*?)\s*$", line)
            if m:  # a section's line may repeat a case's name: keep the longest
                seconds[m.group(2)] = max(seconds.get(m.group(2), 0.0), float(m.group(1)))
    except OSError as e:
        print(f"gpu-suite: durations not read ({e}); the split counts every case alike")
known = [seconds[n] for n in names if n in seconds]
default = statistics.median(known) if known else 1.0
load = [0.0] * shards
parts = [[] for _ in range(shards)]
for n in sorted(names, key=lambda n: -seconds.get(n, default)):
    k = min(range(shards), key=lambda i: (load[i], len(parts[i])))  # an empty process first
    load[k] += seconds.get(n, default)
    parts[k].append(n)
for k, part in enumerate(parts, 1):
    with open(f"{out}/shard-{k}.txt", "w") as f:
        for n in part:
            f.write(n.replace("\\", "\\\\").replace(",", "\\,") + "\n")
print(f"{len(names)} [gpu] cases in {shards} processes, {len(known)} with an earlier duration; "
      "expected seconds a process: " + " ".join(f"{x:.0f}" for x in load))
EOF

# Each process's selection, listed back: together they must be the whole list, once each.
for k in $(seq "$shards"); do list_names -f "$out/shard-$k.txt"; done | sort >"$out/selected.txt"
if ! sort "$names" | cmp -s - "$out/selected.txt"; then
  echo "gpu-suite: the processes' selections are not every case once (missing <, extra or repeated >):"
  sort "$names" | diff - "$out/selected.txt" | grep '^[<>]' | head -20
  exit 1
fi

pids=()
for k in $(seq "$shards"); do
  "$tests" -f "$out/shard-$k.txt" --durations yes "$@" >"$out/gpu-s$k.txt" 2>&1 &
  pids+=($!)
done
rcs=() status=0 ran=0 assertions=0
for k in $(seq "$shards"); do
  wait "${pids[$((k - 1))]}"
  rcs+=($?)
done
for k in $(seq "$shards"); do
  if [ "${rcs[$((k - 1))]}" -eq 77 ]; then
    echo "gpu-suite: SKIPPED, no usable GPU: $(grep -m 1 SKIPPED "$out/gpu-s$k.txt")"
    exit 77
  fi
done
{
  echo "[gpu] cases: $total, split over $shards processes (their selections checked: every case once)"
  echo "exit status a process: ${rcs[*]}"
  for k in $(seq "$shards"); do
    line=$(grep -E "^(All tests passed|test cases:)" "$out/gpu-s$k.txt" | tail -1)
    echo "s$k: ${line:-no Catch2 summary: $(tail -1 "$out/gpu-s$k.txt")}"
    # "All tests passed (N assertions in M test cases)" or "test cases: M | ..." and
    # "assertions: N | ...".
    cases=$(grep -oE "in [0-9]+ test case|^test cases: +[0-9]+" "$out/gpu-s$k.txt" | tail -1 | grep -oE "[0-9]+")
    asserts=$(grep -oE "^All tests passed \([0-9]+|^assertions: +[0-9]+" "$out/gpu-s$k.txt" | tail -1 | grep -oE "[0-9]+$")
    ran=$((ran + ${cases:-0}))
    assertions=$((assertions + ${asserts:-0}))
    want=$(grep -c . "$out/shard-$k.txt")
    [ "${cases:-0}" -eq "$want" ] || echo "s$k ran ${cases:-0} cases of the $want it was given"
    # A failed assertion's lines, and the case it is in, stand above Catch2's "FAILED:".
    grep -m 3 -B 12 -A 4 "FAILED:" "$out/gpu-s$k.txt" | sed "s/^/  s$k| /"
  done
  echo "cases run: $ran of $total; assertions: $assertions; wall time: $(( $(date +%s) - t0 )) s"
} >"$out/suite.txt"  # braces, not a pipe: ran and status stay in this shell
cat "$out/suite.txt"
for rc in "${rcs[@]}"; do [ "$rc" -ne 0 ] && status=1; done
[ "$ran" -eq "$total" ] || status=1
[ $status -eq 0 ] && echo "gpu-suite: all $total cases passed" || echo "gpu-suite: FAILED (logs in $out)"
exit $status

#!/usr/bin/env python3
"""Compares two hipstencil-bench CSVs of the same cases, e.g. a base commit's and the
working tree's (bench/compare-device.sh writes both), case by case.

  python3 bench/compare.py base.csv new.csv [--tolerance 0.03] [--out FILE]

Rows are matched on (implementation, variant = the requested algorithm, type, filter,
radius, border); the ceilings rows are left out. For each case: the base's and the new
median (ms), new / base, and what the new build actually ran (its `resolved` column:
a base CSV written before that column existed has none, and older CSVs are read the
same way). The last line counts the cases within the tolerance or faster against those
slower by more than it. Python 3 standard library only. Exit status 0 (2: bad arguments
or unreadable files).
"""
import argparse
import csv
import math
import sys

KEY = ("impl", "variant", "type", "filter", "radius", "border")


def load(path):
    """{key: row} of the measurement rows of one CSV, in file order (ceilings left out)."""
    rows = {}
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [k for k in KEY + ("median_ms",) if k not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: not a hipstencil-bench CSV (no column {', '.join(missing)})")
        for r in reader:
            if r["impl"] == "ceiling":
                continue
            rows[tuple(r[k] for k in KEY)] = r
    return rows


def median(row):
    """The row's median in ms, or None when the case did not run (its error is set)."""
    if row is None or not row.get("median_ms"):
        return None
    try:
        return float(row["median_ms"])
    except ValueError:
        return None


def short_resolved(row):
    """'shared_mem r=*' from 'shared_mem r=* dense tile_class sm_90' ('' when absent)."""
    if row is None:
        return ""
    parts = (row.get("resolved") or "").split()
    return " ".join(parts[:2])


def case_label(key):
    impl, variant, t, filt, radius, border = key
    k = 2 * int(radius) + 1 if radius.lstrip("-").isdigit() else radius
    name = variant if impl == "hipstencil" else f"{impl} {variant}"
    return t, f"{'sep' if filt == 'separable' else filt} {k}x{k}", border, name


def not_run(row):
    """What stands in a median's cell when there is none."""
    return "absent" if row is None else "not run"


def compare(base, new, tolerance):
    """The table's lines and the summary lines."""
    keys = list(new) + [k for k in base if k not in new]
    header = ("type", "filter", "border", "algorithm", "base_ms", "new_ms", "new/base", "", "new ran")
    table = []
    within = faster = slower = unmatched = 0
    ratios = []
    for key in keys:
        b, n = base.get(key), new.get(key)
        mb, mn = median(b), median(n)
        note = short_resolved(n)
        if note and key[0] == "hipstencil" and key[1] != "automatic" and note.split()[0] != key[1]:
            note = "fallback: " + note  # another family ran than the one asked for
        cells = list(case_label(key))
        if mb is None or mn is None:
            unmatched += 1
            cells += [f"{mb:.4f}" if mb is not None else not_run(b), f"{mn:.4f}" if mn is not None else not_run(n), "-",
                      "", note]
        else:
            ratio = mn / mb
            ratios.append(ratio)
            if ratio <= 1.0 + tolerance:
                within += 1
                faster += ratio < 1.0 - tolerance
                mark = "faster" if ratio < 1.0 - tolerance else ""
            else:
                slower += 1
                mark = "SLOWER"
            cells += [f"{mb:.4f}", f"{mn:.4f}", f"{ratio:.3f}", mark, note]
        table.append(cells)

    widths = [max(len(str(row[i])) for row in [header] + table) for i in range(len(header))]
    right = {4, 5, 6}
    lines = []
    for row in [header] + table:
        cells = [str(c).rjust(widths[i]) if i in right else str(c).ljust(widths[i]) for i, c in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    pct = f"{100 * tolerance:g}%"
    summary = []
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        summary.append(f"geometric mean of new/base over {len(ratios)} cases: {geo:.3f}; "
                       f"best {min(ratios):.3f}, worst {max(ratios):.3f}")
    if unmatched:
        summary.append(f"{unmatched} cases not compared (absent from one CSV, or not run in one)")
    summary.append(f"{len(ratios)} cases compared: {within} within {pct} or faster ({faster} of them faster by more "
                   f"than {pct}), {slower} slower by more than {pct}")
    return lines, summary


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base", help="the base build's CSV (hipstencil-bench --csv)")
    p.add_argument("new", help="the new build's CSV, same arguments")
    p.add_argument("--tolerance", type=float, default=0.03, help="relative tolerance (default 0.03: 3%%)")
    p.add_argument("--out", help="also write the table and the summary to this file")
    a = p.parse_args(argv[1:])
    try:
        base, new = load(a.base), load(a.new)
    except (OSError, ValueError) as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    lines, summary = compare(base, new, a.tolerance)
    text = "\n".join([f"base: {a.base}", f"new:  {a.new}", ""] + lines + [""] + summary) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

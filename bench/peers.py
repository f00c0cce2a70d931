#!/usr/bin/env python3
"""Times the Python peers of hipstencil-bench on the same problem: CuPy's
cupyx.scipy.ndimage.correlate and PyTorch's conv2d, float32, dense random filters.

Method as hipstencil-bench: random input (never zeros: a GPU may compress or skip them), preallocated output
where the library takes one, one untimed run and a synchronisation, warm-up runs, then
the median (with min and max) of N runs, each timed with the library's own CUDA events.
GB/s counts one read of the input and one write of the output (8 bytes per pixel).

  python3 bench/peers.py [--size 8192x8192] [--radius 1,2,7] [--batch N] [--runs 25] [--csv FILE]

With --batch N both filter N images of the size in one call: CuPy an (N, H, W) array with
(1, k, k) weights, PyTorch an (N, 1, H, W) tensor; GB/s counts every image.

A peer that is not installed is skipped with a message; exit status 0 unless the
arguments are bad (2).
"""
import argparse
import statistics
import sys


def parse_size(text):
    try:
        w, h = (int(v) for v in text.split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not WIDTHxHEIGHT (e.g. 8192x8192)")
    if w < 1 or h < 1:
        raise argparse.ArgumentTypeError(f"'{text}': both sides must be >= 1")
    return w, h


def parse_radii(text):
    try:
        radii = [int(v) for v in text.split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of integers")
    if not radii or any(r < 1 or r > 64 for r in radii):
        raise argparse.ArgumentTypeError(f"'{text}': radii must be in [1, 64]")
    return radii


def summarize(ms):
    return {"median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms), "runs": len(ms)}


def time_with_events(call, make_event, elapsed, synchronize, runs, warmup):
    """One untimed call and a sync, `warmup` untimed calls, then `runs` calls between events."""
    call()
    synchronize()
    for _ in range(warmup):
        call()
    pairs = []
    for _ in range(runs):
        start, stop = make_event(), make_event()
        start.record()
        call()
        stop.record()
        pairs.append((start, stop))
    pairs[-1][1].synchronize()
    return summarize([elapsed(a, b) for a, b in pairs])


def cupy_cases(width, height, radii, runs, warmup, batch):
    try:
        import cupy
        import cupyx.scipy.ndimage as ndi
    except ImportError as e:
        print(f"CuPy skipped: {e}")
        return []
    rng = cupy.random.default_rng(1)
    shape = (height, width) if batch == 1 else (batch, height, width)
    src = rng.random(shape, dtype=cupy.float32)
    dst = cupy.empty_like(src)
    out = []
    for r in radii:
        k = 2 * r + 1
        w = rng.random((k, k), dtype=cupy.float32) + 0.05
        w /= w.sum()
        if batch > 1:
            w = w.reshape(1, k, k)  # no filtering across images
        for mode, border in (("nearest", "replicate"), ("mirror", "reflect101"), ("constant", "constant")):
            t = time_with_events(
                lambda: ndi.correlate(src, w, output=dst, mode=mode, cval=0.0),
                cupy.cuda.Event, cupy.cuda.get_elapsed_time, cupy.cuda.Device().synchronize, runs, warmup)
            out.append(dict(impl="cupy", variant=f"ndimage.correlate(mode={mode})", radius=r, border=border, **t))
    return out


def torch_cases(width, height, radii, runs, warmup, batch):
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as e:
        print(f"PyTorch skipped: {e}")
        return []
    if not torch.cuda.is_available():
        print("PyTorch skipped: no CUDA device")
        return []
    gen = torch.Generator(device="cuda").manual_seed(1)
    src = torch.rand((batch, 1, height, width), device="cuda", dtype=torch.float32, generator=gen)
    event = lambda: torch.cuda.Event(enable_timing=True)
    elapsed = lambda a, b: a.elapsed_time(b)
    out = []
    # cuDNN may run float32 convolutions in TF32 on the tensor cores (torch's default):
    # strict float32 is hipstencil's precision; TF32 is timed too, labelled as such.
    for tf32 in (False, True):
        torch.backends.cudnn.allow_tf32 = tf32
        precision = "tf32" if tf32 else "fp32"
        for r in radii:
            k = 2 * r + 1
            w = torch.rand((1, 1, k, k), device="cuda", dtype=torch.float32, generator=gen) + 0.05
            w /= w.sum()
            t = time_with_events(lambda: F.conv2d(src, w, padding=r), event, elapsed, torch.cuda.synchronize, runs, warmup)
            out.append(dict(impl="torch", variant=f"conv2d({precision}, zero padding)", radius=r, border="constant", **t))
            t = time_with_events(lambda: F.conv2d(F.pad(src, (r, r, r, r), mode="replicate"), w), event, elapsed,
                                 torch.cuda.synchronize, runs, warmup)
            out.append(dict(impl="torch", variant=f"pad(replicate)+conv2d({precision})", radius=r, border="replicate",
                            **t))
    torch.backends.cudnn.allow_tf32 = True
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=parse_size, default=(8192, 8192), help="WIDTHxHEIGHT (default 8192x8192)")
    p.add_argument("--radius", type=parse_radii, default=[1, 2, 7], help="comma-separated radii (default 1,2,7)")
    p.add_argument("--batch", type=int, default=1, help="images per call (default 1)")
    p.add_argument("--runs", type=int, default=25, help="timed runs, median reported (default 25)")
    p.add_argument("--warmup", type=int, default=3, help="untimed runs after the first (default 3)")
    p.add_argument("--csv", help="also write the measurements to this file")
    a = p.parse_args()
    if a.runs < 1 or a.warmup < 0 or a.batch < 1:
        p.error("--runs and --batch must be >= 1 and --warmup >= 0")
    width, height = a.size
    rows = (cupy_cases(width, height, a.radius, a.runs, a.warmup, a.batch) +
            torch_cases(width, height, a.radius, a.runs, a.warmup, a.batch))
    bytes_moved = 8.0 * width * height * a.batch
    images = f" x {a.batch} images" if a.batch > 1 else ""
    print(f"peers: float32 {width}x{height}{images}, dense random filters, median of {a.runs} runs (CUDA events)")
    print(f"  {'impl':<6} {'variant':<40} {'r':>2} {'border':<10} {'median_ms':>9} {'min_ms':>9} {'max_ms':>9} {'GB/s':>8}")
    for row in rows:
        row["gb_per_s"] = bytes_moved / (row["median_ms"] * 1e-3) / 1e9
        print(f"  {row['impl']:<6} {row['variant']:<40} {row['radius']:>2} {row['border']:<10} {row['median_ms']:9.4f}"
              f" {row['min_ms']:9.4f} {row['max_ms']:9.4f} {row['gb_per_s']:8.1f}")
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("impl,variant,type,filter,radius,border,width,height,runs,median_ms,min_ms,max_ms,gb_per_s,images\n")
            for row in rows:
                f.write(f"{row['impl']},\"{row['variant']}\",float,dense,{row['radius']},{row['border']},{width},{height},"
                        f"{row['runs']},{row['median_ms']:.6f},{row['min_ms']:.6f},{row['max_ms']:.6f},{row['gb_per_s']:.3f},"
                        f"{a.batch}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

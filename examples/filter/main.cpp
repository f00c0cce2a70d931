// examples/filter/main.cpp
// hipstencil-filter: filters images with hipstencil on the GPU (or with the host reference
// where there is none) and writes them at their depth as PNG, TIFF or JPEG; one file, or
// several into a directory (--output-dir). Run with --help for the options.
//
// One program, three builds: g++ (host-only backend: HIPSTENCIL_HAS_GPU is 0 and the host
// reference hipstencil::reference::convolve does the work), nvcc (CUDA backend) and hipcc
// (HIP backend). Everything GPU-specific is inside `#if HIPSTENCIL_HAS_GPU` (engine.cpp).
// The other files: options (the command line), choices (the type lists behind --algo,
// --strategy and --border), filters (what to run), display (float responses as pixels),
// pixels (the pixel type an image is filtered as), process (one file), run (the single-file
// form), batch (--output-dir) and report (what is printed).
//
// Exit status: 0 success; 2 usage error (bad option or value, unknown output extension or a
// format this build lacks, ROI outside the image, even custom filter size, ...); 1 runtime
// error (unreadable input, failed write, GPU error; with --output-dir, any input that
// failed). Every error is one line on stderr starting "hipstencil-filter: error: " (with
// --output-dir, a failed file is reported on its progress line, then one such line counts
// them), and no output file is created or changed by a failure (files are written to a
// temporary file and renamed).

#include "options.hpp"
#include "report.hpp"
#include "run.hpp"

#include <hipstencil/hipstencil.hpp>

#include <cstdio>
#include <exception>
#include <new>

namespace hs = hipstencil;

int main(int argc, char** argv) {
  try {
    const hsf::options o = hsf::parse_args(argc, argv);
    if (o.help) {
      hsf::print_usage(stdout);
      return 0;
    }
    if (o.list_algorithms) {  // for scripts: the names --algo takes, one per line
      std::printf("%s\n", hsf::choice_names<hsf::algo_choice>("\n").c_str());
      return 0;
    }
    return hsf::run(o);
  } catch (const hsf::usage_error& e) {
    return hsf::report(e.what(), 2);
  } catch (const hs::invalid_argument& e) {
    return hsf::report(e.what(), 2);  // the library rejected a value given on the command line
  } catch (const hs::gpu_error& e) {
    return hsf::report(e.what(), 1);
  } catch (const std::bad_alloc&) {
    return hsf::report("out of memory", 1);
  } catch (const std::exception& e) {
    return hsf::report(e.what(), 1);
  } catch (...) {
    return hsf::report("unknown exception", 1);
  }
}

// tests/fuzz/fuzz_cli.cpp
// libFuzzer target: hipstencil-filter's command line. The input is split on NUL bytes into
// arguments (argv[1] onwards), parsed with hsf::parse_args, and, unless it asks for --help
// or --list-algorithms, turned into filters with hsf::make_plan (what run() does before it
// touches a file). hsf::usage_error and hipstencil::invalid_argument are the expected
// failures; any other exception (std::terminate), a crash, a leak or undefined behaviour
// (ASan, UBSan) is a finding. Nothing is read or written: parse_args never exits or prints.
// Built and run by tests/fuzz/run.sh (CMake option HIPSTENCIL_FUZZ, clang only).

#include "filters.hpp"
#include "options.hpp"

#include <hipstencil/hipstencil.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"hipstencil-filter"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  if (size > 0) args.push_back(cur);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  try {
    const hsf::options o = hsf::parse_args(static_cast<int>(args.size()), argv.data());
    if (!o.help && !o.list_algorithms) {
      const hsf::filter_plan plan = hsf::make_plan(o);
      if (plan.filters.empty() || plan.description.empty()) __builtin_trap();  // a plan always has both
    }
  } catch (const hsf::usage_error&) {
  } catch (const hipstencil::invalid_argument&) {
  }
  return 0;
}

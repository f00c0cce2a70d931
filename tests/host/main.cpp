// Catch2 main of hipstencil-host-tests (every tests/host/*.cpp is linked into it).
//
// Tests on random data draw a fresh seed each run and print it (CAPTURE "seed") when they
// fail; set HIPSTENCIL_TEST_SEED=<seed> to replay a run.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// The host-side tuning decisions: streaming's strip length for a grid that must fill the
// GPU (stream_strip_rows), and algo::automatic's table keyed by image size. Both are plain
// arithmetic that decides which kernel runs and how, so a slip shows as a slow call, never
// as a wrong pixel: the GPU tests cannot catch it, these can.
#include <catch2/catch.hpp>

#include <hipstencil/detail/kernels/streaming_shape.hpp>
#include <hipstencil/detail/tuning/tables.hpp>

namespace {

using hipstencil::detail::stream_strip_rows;
namespace tu = hipstencil::tuning;

tu::problem_shape shape(bool separable, int r, int channels, int channel_bytes, int w, int h) {
  tu::problem_shape s;
  s.separable = separable, s.radius = r, s.channels = channels, s.channel_bytes = channel_bytes;
  s.width = w, s.height = h;
  return s;
}

// The families a preference names, in order, skipping `none`.
std::vector<tu::choice> named(const tu::preference& p) {
  std::vector<tu::choice> v;
  for (tu::choice c : p.order)
    if (c != tu::choice::none) v.push_back(c);
  return v;
}

// The first family named other than packed: what runs the filters packed's plan refuses.
tu::choice unpacked(const tu::preference& p) {
  for (tu::choice c : named(p))
    if (c != tu::choice::packed) return c;
  return tu::choice::none;
}

tu::preference choose(const tu::problem_shape& s) { return tu::automatic_table<tu::arch::sm_90>::choose(s); }

// The families sm_90's table names for s, and the first of them (none: naive).
std::vector<tu::choice> sm90_list(const tu::problem_shape& s) { return named(choose(s)); }
tu::choice sm90_first(const tu::problem_shape& s) {
  const auto l = sm90_list(s);
  return l.empty() ? tu::choice::none : l[0];
}

// What tiled's replicate rows (clamp_separable, clamp_dense) leave first: tiled, but packed
// for uchar3 5x5 from 512x512 pixels and for uchar4 to 1280x720, whose own cases check the
// packed_three and packed_four rows.
tu::choice replicate_row_first(const tu::problem_shape& s) {
  const bool packed3 = s.channels == 3 && s.channel_bytes == 1 && s.radius == 2 && s.pixels() >= 512 * 512;
  const bool packed4 = s.channels == 4 && s.channel_bytes == 1 && s.pixels() <= 1280 * 720;
  return packed3 || packed4 ? tu::choice::packed : tu::choice::tiled;
}

bool names(const tu::preference& p, tu::choice c) {
  for (tu::choice x : named(p))
    if (x == c) return true;
  return false;
}

}  // namespace

TEST_CASE("direct_policy: a register request only for the one-channel 2- and 4-byte shape") {
  // The request sets direct2d_kernel's launch bounds; 8-bit and multi-channel pixels run
  // blocks of another size, where the same count would mean another register budget.
  using asked = tu::direct_policy<32, 4, 4, tu::radii_range<1, 2>, 2, 8, 2, 1, 6>;
  STATIC_REQUIRE(tu::direct_policy<>::min_blocks_for<1, 4> == 0);
  STATIC_REQUIRE(asked::min_blocks_for<1, 4> == 6);
  STATIC_REQUIRE(asked::min_blocks_for<1, 2> == 6);
  STATIC_REQUIRE(asked::min_blocks_for<1, 1> == 0);
  STATIC_REQUIRE(asked::min_blocks_for<4, 1> == 0);
  STATIC_REQUIRE(asked::min_blocks_for<3, 4> == 0);
  STATIC_REQUIRE(asked::block_y_for<1, 4> * asked::block_x == 256);
}

TEST_CASE("stream_strip_rows: full strips where the image fills the GPU, shorter ones down to the floor") {
  // Large images take the longest strip.
  CHECK(stream_strip_rows(8192, 8, 792, 4, 24) == 24);
  // 1920x1080, 2 block columns, 792 resident blocks: 396 strips wanted per column, 3 rows
  // each, raised to the floor of 4.
  CHECK(stream_strip_rows(1080, 2, 792, 4, 24) == 4);
  // Degenerate inputs keep the policy's strip.
  CHECK(stream_strip_rows(0, 2, 792, 4, 24) == 24);
  CHECK(stream_strip_rows(100, 0, 792, 4, 24) == 24);
  CHECK(stream_strip_rows(100, 2, 0, 4, 24) == 24);
  // Over a sweep, against the definition: the longest strip in [shortest, longest] whose
  // grid has `resident` blocks, else the shortest.
  for (int height : {1, 2, 7, 100, 1080, 2160, 4096, 65536})
    for (int columns : {1, 2, 3, 8, 64})
      for (long long resident : {1LL, 132LL, 792LL, 4000LL}) {
        const int rows = stream_strip_rows(height, columns, resident, 4, 24);
        INFO("height " << height << ", columns " << columns << ", resident " << resident << ": rows " << rows);
        auto fills = [&](int n) { return (long long)columns * ((height + n - 1) / n) >= resident; };
        REQUIRE(rows >= 4);
        REQUIRE(rows <= 24);
        if (rows > 4) CHECK(fills(rows));
        for (int longer = rows + 1; longer <= 24; ++longer) CHECK_FALSE(fills(longer));
      }
}

TEST_CASE("automatic's table: only families that take the filter's form, streaming only where its lanes are busy") {
  for (bool sep : {false, true})
    for (int r : {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 16, 40})
      for (int channels : {1, 3, 4})
        for (int cb : {1, 2, 4})
          for (int w : {1, 128, 512, 1023, 1024, 1920, 3840, 8192, 65536})
            for (int h : {1, 128, 512, 1080, 2160, 8192, 65536}) {
              const tu::preference p = tu::automatic_table<tu::arch::sm_90>::choose(shape(sep, r, channels, cb, w, h));
              INFO("separable " << sep << " r " << r << " channels " << channels << " bytes " << cb << " " << w << "x"
                                << h);
              const auto list = named(p);
              // two_pass runs separable filters only; streaming needs 1024 columns; every
              // family named with a compiled radius where it has no run-time-size kernel.
              if (!sep) CHECK_FALSE(names(p, tu::choice::two_pass));
              // two_pass compiles radii 3 to 16 (two_pass_policy), not 1 and 2: the table
              // never names it there.
              if (names(p, tu::choice::two_pass)) {
                CHECK(r >= 3);
                if (r <= 16) CHECK(tu::compiled(r, tu::two_pass_policy<>::separable_radii{}));
              }
              if (names(p, tu::choice::streaming)) {
                CHECK(channels != 3);  // its vectors hold no whole 3-channel pixel
                CHECK(w >= 1024);
                CHECK((sep ? tu::compiled(r, tu::streaming_policy<>::separable_radii{})
                           : tu::compiled(r, tu::streaming_policy<>::dense_radii{})));
              }
              if (names(p, tu::choice::tiled))
                CHECK((sep ? tu::compiled(r, tu::tiled_policy<>::separable_radii{})
                           : tu::compiled(r, tu::tiled_policy<>::dense_radii{})));
              if (names(p, tu::choice::direct))
                CHECK((sep ? tu::compiled(r, tu::direct_policy<>::separable_radii{})
                           : tu::compiled(r, tu::direct_policy<>::dense_radii{})));
              // u8 and uchar4; uchar3 on one image whose reads are replicate (the shape's
              // default border cost), tiled next for the filters packed's plan refuses.
              if (names(p, tu::choice::packed)) {
                CHECK((tu::compiled(r, tu::packed_policy<>::radii{}) && cb == 1));
                if (channels == 3) CHECK((list.size() >= 2 && list[1] == tu::choice::tiled));
              }
              if (names(p, tu::choice::fft)) CHECK((!sep && r >= 9));  // wide dense filters only
              // Dense one-channel filters its kernels take (25 x 25 taps).
              if (names(p, tu::choice::tensor_core)) CHECK((!sep && channels == 1 && r >= 3 && r <= 12));
              // Separable u8, float and uchar4 filters, from radius 3 (to 7 at 2^19 pixels and below).
              if (names(p, tu::choice::sliding))
                CHECK((sep && (channels == 1 ? cb != 2 : channels == 4 && cb == 1) && r >= 3 &&
                       ((long long)w * h > (1LL << 19) || r <= 7)));
              // No family twice.
              for (std::size_t i = 0; i < list.size(); ++i)
                for (std::size_t j = i + 1; j < list.size(); ++j) CHECK(list[i] != list[j]);
              // A filter that is not square and centred runs shared_mem (or naive).
              if (r < 1) CHECK((list.size() == 1 && list[0] == tu::choice::shared_mem));
              // Past the shared-memory families' reach nothing but shared_mem, two_pass,
              // fft, tensor_core, sliding or naive is named (tiled and streaming stop at 8 and 5).
              if (r > 8) {
                for (tu::choice c : list)
                  CHECK((c == tu::choice::shared_mem || c == tu::choice::two_pass || c == tu::choice::fft ||
                         c == tu::choice::tensor_core || c == tu::choice::sliding));
              }
            }
}

TEST_CASE("automatic's table: a batch counts the pixels of all its images (H200)") {
  auto first = [](tu::problem_shape s, int images) {
    s.images = images;
    const auto list = named(tu::automatic_table<tu::arch::sm_90>::choose(s));
    return list.empty() ? tu::choice::none : list[0];  // none: naive
  };
  auto unpacked_of = [](tu::problem_shape s, int images) {
    s.images = images;
    return unpacked(tu::automatic_table<tu::arch::sm_90>::choose(s));
  };
  // One 128x128 u8 image under clamp runs tiled's replicate dense kernel at 3x3
  // (automatic_table::clamp_dense; direct's replicate instance before it, clamp_direct);
  // 4096 of them in one grid run packed, dense and
  // separable (116 and 108 us; tiled 232 and 227, streaming's lanes idle at 128 wide), and
  // tiled for the filters packed refuses.
  CHECK(first(shape(false, 1, 1, 1, 128, 128), 1) == tu::choice::tiled);
  CHECK(unpacked_of(shape(false, 1, 1, 1, 128, 128), 1) == tu::choice::tiled);
  CHECK(first(shape(false, 1, 1, 1, 128, 128), 4096) == tu::choice::packed);
  CHECK(first(shape(true, 1, 1, 1, 128, 128), 4096) == tu::choice::packed);
  CHECK(unpacked_of(shape(false, 1, 1, 1, 128, 128), 4096) == tu::choice::tiled);
  CHECK(unpacked_of(shape(true, 1, 1, 1, 128, 128), 4096) == tu::choice::tiled);
  // 64 frames of 1920x1080 uchar4: packed, then streaming for what packed refuses (3x3 and
  // 5x5, dense and separable).
  CHECK(first(shape(true, 1, 4, 1, 1920, 1080), 64) == tu::choice::packed);
  CHECK(unpacked_of(shape(true, 1, 4, 1, 1920, 1080), 64) == tu::choice::streaming);
  CHECK(unpacked_of(shape(false, 2, 4, 1, 1920, 1080), 64) == tu::choice::streaming);
  CHECK(unpacked_of(shape(true, 2, 4, 1, 1920, 1080), 64) == tu::choice::streaming);
}

TEST_CASE("automatic's table: the measured choices at the sizes users filter (H200)") {
  auto first = [](const tu::problem_shape& s) {
    const auto list = named(tu::automatic_table<tu::arch::sm_90>::choose(s));
    return list.empty() ? tu::choice::none : list[0];  // none: naive
  };
  // 8192x8192: u8 packed (dense 5x5 102 us, streaming 201), with streaming next for the
  // filters packed refuses; float separable 5x5 tiled, whose interior instance runs it as
  // its outer product (147 us, streaming 179).
  const tu::preference u8_8k = tu::automatic_table<tu::arch::sm_90>::choose(shape(false, 1, 1, 1, 8192, 8192));
  CHECK(named(u8_8k).size() >= 2);
  CHECK(named(u8_8k)[0] == tu::choice::packed);
  CHECK(named(u8_8k)[1] == tu::choice::streaming);
  CHECK(first(shape(true, 2, 1, 4, 8192, 8192)) == tu::choice::tiled);
  // packed: one-channel 8-bit 3x3 and 5x5 at every size and width (but see clamp_direct).
  CHECK(first(shape(false, 1, 1, 1, 1920, 1080)) == tu::choice::packed);
  CHECK(first(shape(false, 1, 1, 1, 512, 512)) == tu::choice::tiled);  // but tiled under clamp to 2^20 (clamp_dense)
  CHECK(first(shape(false, 1, 1, 1, 3840, 2160)) == tu::choice::packed);
  CHECK(first(shape(true, 2, 1, 1, 3840, 2160)) == tu::choice::packed);
  CHECK(first(shape(false, 3, 1, 1, 8192, 8192)) != tu::choice::packed);  // radius 3: not compiled
  CHECK(first(shape(false, 1, 1, 2, 8192, 8192)) != tu::choice::packed);  // u16
  CHECK(first(shape(false, 1, 4, 1, 8192, 8192)) == tu::choice::packed);   // uchar4 (194 us, streaming 274)
  // (512x512 separable 5x5: 6.9 us, shared_mem 10.5; under clamp tiled first since
  // tiled_sep_clamp_kernel: clamp_separable below, 6.46 us, packed 7.10; packed again
  // since packed_four_kernel, packed_four: 5.82 us on an H100, tiled 6.56, and tiled next)
  CHECK(first(shape(true, 2, 4, 1, 512, 512)) == tu::choice::packed);
  CHECK(unpacked(choose(shape(true, 2, 4, 1, 512, 512))) == tu::choice::tiled);
  {
    auto fold = shape(true, 2, 4, 1, 512, 512);
    fold.border = tu::border_cost::fold;
    CHECK(first(fold) == tu::choice::packed);
  }
  CHECK(first(shape(true, 1, 4, 1, 128, 65536)) == tu::choice::packed);    // (29.3 us, shared_mem 82.1)
  CHECK(first(shape(false, 1, 4, 1, 256, 256)) == tu::choice::packed);  // packed_four, ahead of clamp_dense
  CHECK(first(shape(false, 1, 4, 1, 724, 724)) == tu::choice::packed);
  // (below 2^16 pixels under clamp direct led: 128x128 dense 3x3 5.1 us, packed 5.5;
  // since tiled_dense_clamp_kernel tiled: 4.38 us, direct 5.06; since packed_four_kernel
  // packed: 4.38 us on an H100, tiled 4.77)
  CHECK(first(shape(false, 1, 4, 1, 128, 128)) == tu::choice::packed);
  CHECK(first(shape(false, 3, 4, 1, 8192, 8192)) != tu::choice::packed);  // radius 3
  CHECK(first(shape(false, 1, 1, 1, 128, 65536)) == tu::choice::packed);  // narrow 3x3 (18.4 us, tiled 28.8)
  CHECK(first(shape(true, 1, 1, 1, 512, 4096)) == tu::choice::packed);    // (11.9 us, tiled 12.2)
  CHECK(first(shape(false, 1, 1, 1, 1024, 1025)) == tu::choice::packed);  // (but clamp_dense to 2^20)
  CHECK(first(shape(true, 2, 1, 1, 128, 65536)) == tu::choice::packed);   // narrow 5x5 (33.9 us, tiled 47.8)
  // 1920x1080 u8: packed first; for the filters it refuses, dense 3x3 and separable 5x5
  // direct (11.1 and 16.7 us; tiled 12.1, shared_mem 18.9), dense 5x5 tiled (14.6, direct
  // 16.7); float dense 3x3 tiled (11.1, direct 11.6).
  auto second = [](const tu::problem_shape& s) {
    const auto list = named(tu::automatic_table<tu::arch::sm_90>::choose(s));
    return list.size() < 2 ? tu::choice::none : list[1];
  };
  CHECK(second(shape(false, 1, 1, 1, 1920, 1080)) == tu::choice::direct);
  CHECK(first(shape(true, 2, 1, 1, 1920, 1080)) == tu::choice::packed);
  CHECK(second(shape(true, 2, 1, 1, 1920, 1080)) == tu::choice::tiled);  // one_channel_separable
  CHECK(second(shape(false, 2, 1, 1, 1920, 1080)) == tu::choice::tiled);
  CHECK(first(shape(false, 1, 1, 4, 1920, 1080)) == tu::choice::tiled);
  // 128x128 and 512x512 one-channel float dense 5x5: direct; separable filters under
  // clamp tiled, u8 too (tiled_sep_clamp_kernel; clamp_separable below).
  CHECK(first(shape(true, 2, 1, 1, 128, 128)) == tu::choice::tiled);
  CHECK(unpacked(choose(shape(true, 1, 1, 1, 128, 128))) == tu::choice::tiled);
  CHECK(unpacked(choose(shape(true, 1, 1, 1, 512, 512))) == tu::choice::tiled);
  CHECK(first(shape(false, 2, 1, 4, 256, 256)) == tu::choice::tiled);  // clamp_dense since its kernel
  // ... and dense 5x5 beyond 2^16 pixels under clamp since direct's replicate instance
  // (512x512 float: direct 6.75 us, shared_mem 7.90; bench/results/2026-11-28-clamp/
  // families-hold.csv), up to 2^18, where tiled's interior instance with its frame's
  // replicate instance takes over (512x512: 6.37 us, direct 6.53; 2026-11-28-frame/);
  // under the other rules shared_mem, where direct gains nothing (512x512 float: direct
  // 7.8 us, shared_mem 7.8; bench/results/2026-11-26-lean/).
  // Since tiled_dense_clamp_kernel, tiled from 128x128 (clamp_dense; 362x362: 4.70 us,
  // direct 5.76).
  CHECK(first(shape(false, 2, 1, 4, 362, 362)) == tu::choice::tiled);
  CHECK(first(shape(false, 2, 1, 4, 512, 512)) == tu::choice::tiled);
  {
    auto fold = shape(false, 2, 1, 4, 512, 512);
    fold.border = tu::border_cost::fold;
    CHECK(first(fold) == tu::choice::shared_mem);
  }
  // 16-bit too, but under clamp tiled's replicate kernel since it runs them (clamp_dense;
  // 128x128 u16 dense 3x3: 4.19 us, direct 4.35; 2026-11-28-dense16/dense16-1.txt); not
  // four channels from 512x512 (uchar4 dense 3x3: shared_mem 6.7 us, direct 7.6); uchar4
  // at 128x128 packed first, then direct but for dense 5x5 (separable 5x5: direct 7.6 us,
  // naive 8.3; dense 5x5: shared_mem 6.4, direct 7.6).
  CHECK(first(shape(false, 1, 1, 2, 128, 128)) == tu::choice::tiled);
  {
    auto fold = shape(false, 1, 1, 2, 128, 128);
    fold.border = tu::border_cost::fold;
    CHECK(first(fold) == tu::choice::direct);
  }
  CHECK(unpacked(choose(shape(false, 1, 4, 1, 512, 512))) == tu::choice::tiled);  // clamp_dense since its kernel
  CHECK(unpacked(choose(shape(false, 1, 4, 1, 724, 724))) == tu::choice::shared_mem);
  CHECK(first(shape(true, 2, 4, 1, 128, 128)) == tu::choice::packed);  // packed_four (4.48 us, tiled 4.54)
  CHECK(unpacked(choose(shape(true, 2, 4, 1, 128, 128))) == tu::choice::tiled);  // clamp_separable
  CHECK(unpacked(choose(shape(false, 1, 4, 1, 128, 128))) == tu::choice::tiled);  // clamp_dense
  CHECK(unpacked(choose(shape(false, 2, 4, 1, 256, 256))) == tu::choice::tiled);
  CHECK(first(shape(false, 2, 4, 1, 1024, 768)) == tu::choice::packed);  // beyond clamp_dense
  // Packed at 128x128 under constant and fold rules (2026-11-26-small/: reflect101 dense
  // 3x3 5.8 us, direct 10.3, shared_mem 7.4); under clamp direct since direct2d_kernel
  // (2026-11-26-lean/: dense 5x5 6.2 to 6.3 us, packed 6.6 to 6.7), but separable 5x5;
  // since tiled's replicate kernels, tiled (clamp_separable and clamp_dense), which stays
  // next since packed_four_kernel put packed first (packed_four).
  for (tu::border_cost b : {tu::border_cost::clamp, tu::border_cost::constant, tu::border_cost::fold}) {
    tu::problem_shape u4 = shape(false, 1, 4, 1, 128, 128);
    u4.border = b;
    const bool clamp = b == tu::border_cost::clamp;
    auto check = [&] {
      CHECK(first(u4) == tu::choice::packed);
      if (clamp) CHECK(unpacked(choose(u4)) == tu::choice::tiled);
    };
    check();
    u4.separable = true;
    check();
    u4.radius = 2;
    check();
    u4.separable = false;
    check();
    u4.channel_bytes = 2;  // ushort4: not packed
    CHECK(first(u4) != tu::choice::packed);
  }
  // float separable 3x3: tiled beyond 2^19 pixels (2560x1440: 14.6 us, shared_mem 15.1,
  // direct 16.5; rows/sep.csv), as its outer product from 2^20 (8192x8192: 143 us,
  // streaming 155).
  CHECK(first(shape(true, 1, 1, 4, 2560, 1440)) == tu::choice::tiled);
  CHECK(first(shape(true, 1, 1, 4, 3840, 2160)) == tu::choice::tiled);
  CHECK(first(shape(true, 1, 1, 4, 5760, 3240)) == tu::choice::tiled);
  CHECK(first(shape(true, 1, 1, 4, 8192, 8192)) == tu::choice::tiled);
  // ... and tiled at 128x65536 (36.9 us, direct 42.6).
  CHECK(first(shape(true, 1, 1, 4, 128, 65536)) == tu::choice::tiled);
  // 128x65536 u8 dense 3x3: never streaming (250 us there, tiled 32); packed, then tiled.
  CHECK(unpacked(tu::automatic_table<tu::arch::sm_90>::choose(shape(false, 1, 1, 1, 128, 65536))) ==
        tu::choice::tiled);
  // 128x128 u8 dense 5x5: packed (2026-11-26-small/) but under clamp, where tiled's
  // replicate kernel runs (4.29 us, direct 5.18; clamp_dense).
  CHECK(first(shape(false, 2, 1, 1, 128, 128)) == tu::choice::tiled);
  {
    auto fold = shape(false, 2, 1, 1, 128, 128);
    fold.border = tu::border_cost::fold;
    CHECK(first(fold) == tu::choice::packed);
  }
  // 16-bit 3x3 and 5x5 beyond 2^20 pixels: tiled, whose interior instance runs them
  // (3840x2160 u16 dense 3x3 12.4 us, streaming 28.6; 1920x1080 10.3, direct 11.8;
  // 2026-11-28/interior-u16-1.txt); the rows before it second (3840x2160 3x3: streaming,
  // 1920x1080 separable 3x3: direct). Under fold rules too, below.
  CHECK(sm90_list(shape(true, 1, 1, 2, 3840, 2160))[0] == tu::choice::tiled);
  CHECK(sm90_list(shape(true, 1, 1, 2, 3840, 2160))[1] == tu::choice::streaming);
  CHECK(sm90_list(shape(false, 1, 1, 2, 3840, 2160))[1] == tu::choice::streaming);
  CHECK(first(shape(false, 1, 1, 2, 3840, 2160)) == tu::choice::tiled);
  CHECK(first(shape(true, 1, 1, 2, 1920, 1080)) == tu::choice::tiled);
  CHECK(sm90_list(shape(true, 1, 1, 2, 1920, 1080))[1] == tu::choice::direct);
  CHECK(first(shape(false, 2, 1, 2, 1920, 1080)) == tu::choice::tiled);
  CHECK(first(shape(false, 2, 1, 2, 8192, 8192)) == tu::choice::tiled);
  // Under clamp, where the frame runs its replicate instance, from 3 * 2^17 pixels at 3x3
  // (with the frame's cells of one row: 724x724 u16 dense 3x3 5.92 us, direct 6.34;
  // 512x512 5.70 against 5.15; 2026-11-28-frame-rows/interior-shape-1.txt).
  CHECK(first(shape(true, 1, 1, 2, 1024, 1024)) == tu::choice::tiled);
  CHECK(first(shape(false, 1, 1, 2, 1280, 720)) == tu::choice::tiled);
  CHECK(first(shape(false, 1, 1, 2, 1024, 768)) == tu::choice::tiled);
  CHECK(first(shape(false, 1, 1, 2, 960, 540)) == tu::choice::tiled);
  CHECK(first(shape(false, 1, 1, 2, 724, 724)) == tu::choice::tiled);
  CHECK(first(shape(true, 1, 1, 2, 724, 724)) == tu::choice::tiled);
  CHECK(first(shape(false, 1, 1, 2, 512, 512)) == tu::choice::tiled);  // clamp_dense (4.70 us, direct 5.02)
  // Under the other rules from 2^20 pixels itself, since the frame's one-row cells
  // (1024x1024 reflect101 dense 3x3: 7.78 us against 10.53 for automatic's direct then;
  // 2026-11-28-frame-rows/interior-rules-1.txt), and since from 3 * 2^17 pixels, where the
  // launcher runs the interior under every rule (1280x720 reflect101 dense 3x3 7.74 us,
  // automatic's direct 9.95; 2026-11-28-upfront/interior-small-1.txt); below it direct.
  for (bool sep : {true, false}) {
    auto fold = shape(sep, 1, 1, 2, 1024, 1024);
    fold.border = tu::border_cost::fold;
    CHECK(first(fold) == tu::choice::tiled);
    fold.height = 1000;
    CHECK(first(fold) == tu::choice::tiled);
    fold.width = 724, fold.height = 724;
    CHECK(first(fold) == tu::choice::tiled);
    fold.width = 512, fold.height = 512;
    CHECK(first(fold) == tu::choice::direct);
  }
  // Not radius 3 (tiled_policy's InteriorNarrowMaxRadius), nor a batch (the interior
  // instance runs single images): their rows as before.
  CHECK(first(shape(false, 3, 1, 2, 8192, 8192)) != tu::choice::tiled);
  tu::problem_shape batch = shape(false, 1, 1, 2, 1920, 1080);
  batch.images = 4;
  CHECK(first(batch) != tu::choice::tiled);
  // 128x65536 uchar4 dense 3x3: shared_mem (80.9 us; tiled 90.2).
  CHECK(unpacked(choose(shape(false, 1, 4, 1, 128, 65536))) == tu::choice::shared_mem);
  // ushort4 dense: shared_mem to radius 4 (1920x1080 5x5: 39.3 us, tiled 51.5), streaming
  // beyond 2^21 pixels (3840x2160 9x9: 290, shared_mem 354), but not 128 columns wide;
  // radius 5 to 8 tiled beyond 2^19 pixels (1920x1080 15x15: 216), shared_mem below (512x512:
  // 36.6, tiled 44.9). uchar4 keeps tiled for dense 5x5 at 1920x1080 (35.5 us). Under clamp
  // 3x3 and 5x5 to 2^23 pixels run tiled's replicate kernel (clamp_dense; 1920x1080 5x5:
  // 22.62 us, shared_mem 38.85; 2026-11-28-dense16/dense16-wide-2.txt).
  {
    auto fold = shape(false, 2, 4, 2, 1920, 1080);
    fold.border = tu::border_cost::fold;
    CHECK(first(fold) == tu::choice::shared_mem);
  }
  CHECK(first(shape(false, 2, 4, 2, 1920, 1080)) == tu::choice::tiled);
  CHECK(first(shape(false, 4, 4, 2, 3840, 2160)) == tu::choice::streaming);
  CHECK(first(shape(false, 4, 4, 2, 128, 65536)) == tu::choice::shared_mem);
  CHECK(first(shape(false, 7, 4, 2, 1920, 1080)) == tu::choice::tiled);
  CHECK(first(shape(false, 7, 4, 2, 512, 512)) == tu::choice::shared_mem);
  CHECK(first(shape(false, 7, 4, 2, 128, 128)) == tu::choice::shared_mem);
  CHECK(unpacked(choose(shape(false, 2, 4, 1, 1920, 1080))) == tu::choice::tiled);
  // ushort4 separable 9x9 at 8192x8192: streaming (1275 us, shared_mem 1394); uchar4 shared_mem.
  CHECK(first(shape(true, 4, 4, 2, 8192, 8192)) == tu::choice::streaming);
  CHECK(first(shape(true, 4, 4, 1, 8192, 8192)) == tu::choice::shared_mem);
  // Three channels under the other rules (here reflect101; under replicate tiled's
  // replicate kernels come first, below).
  auto fold3 = [&](bool separable, int r, int cb, int w, int h) {
    auto s = shape(separable, r, 3, cb, w, h);
    s.border = tu::border_cost::fold;
    return first(s);
  };
  // uchar3: direct for 3x3 at every size (8192x8192 dense: 354 us, shared_mem 553), for
  // dense 5x5 beyond 2^19 pixels (1920x1080: 26.3, shared_mem 33.8; 512x512: shared_mem
  // 8.7, direct 9.2) and separable 5x5 up to 2^19 (1920x1080: shared_mem 25.1, direct 26.2).
  CHECK(fold3(false, 1, 1, 1920, 1080) == tu::choice::direct);
  CHECK(fold3(false, 1, 1, 8192, 8192) == tu::choice::direct);
  CHECK(fold3(true, 1, 1, 128, 128) == tu::choice::direct);
  CHECK(fold3(true, 2, 1, 8192, 8192) == tu::choice::shared_mem);
  CHECK(fold3(true, 2, 1, 1920, 1080) == tu::choice::shared_mem);
  CHECK(fold3(true, 2, 1, 512, 512) == tu::choice::direct);
  CHECK(fold3(false, 2, 1, 512, 512) == tu::choice::shared_mem);
  CHECK(fold3(false, 2, 1, 1920, 1080) == tu::choice::direct);
  CHECK(fold3(false, 2, 1, 8192, 8192) == tu::choice::direct);
  // ushort3 and float3: shared_mem at radius 1 and 2 (the fastest family, or within 1% of
  // it, at 512x512, 1920x1080 and 8192x8192), but ushort3 dense 5x5 beyond 2^21 pixels:
  // direct (8192x8192: 894 us, shared_mem 1004; 1920x1080 even at 35.0).
  CHECK(fold3(false, 1, 2, 1920, 1080) == tu::choice::shared_mem);
  CHECK(fold3(true, 2, 4, 128, 128) == tu::choice::shared_mem);
  // ... and 3x3 up to 2^16 pixels direct (2026-11-26-lean/direct-wide.csv: float3 128x128
  // dense 3x3 5.3 us, shared_mem 6.0), from 512x512 shared_mem.
  for (int cb : {2, 4}) {
    CHECK(fold3(true, 1, cb, 128, 128) == tu::choice::direct);
    CHECK(fold3(false, 1, cb, 256, 256) == tu::choice::direct);
    CHECK(fold3(false, 1, cb, 512, 512) == tu::choice::shared_mem);
  }
  CHECK(fold3(false, 2, 2, 8192, 8192) == tu::choice::direct);
  CHECK(fold3(false, 2, 2, 1920, 1080) == tu::choice::shared_mem);
  CHECK(fold3(true, 2, 2, 8192, 8192) == tu::choice::shared_mem);
  CHECK(fold3(false, 2, 4, 8192, 8192) == tu::choice::shared_mem);
  // Under replicate (bench/results/2026-12-04-three/three-*.csv and dense3-1.txt): tiled's
  // replicate kernels to 8192x8192 (ushort3 1920x1080 dense 5x5: 21.22 us, direct 33.50;
  // float3 3840x2160 separable 3x3: 61.15, shared_mem 66.21; uchar3 8192x8192 dense 3x3 in
  // 2 x 2 outputs: 309.4, direct 330.2); but uchar3 from 1280x720 packed's three-channel
  // kernel, tiled after it (2026-12-05-h100-packed3/p3.txt: 1920x1080 dense 3x3 12.16 us,
  // tiled 14.08), at 5x5 from 512x512 (p3-small.txt: 724x724 dense 8.06 us, tiled 8.96;
  // 256x256 5.34 against 5.25), and in a batch tiled still (packed_three_kernel runs one
  // image).
  for (int cb : {1, 2, 4})
    for (int r : {1, 2})
      for (bool separable : {true, false}) {
        CAPTURE(cb, r, separable);
        const tu::choice large = cb == 1 ? tu::choice::packed : tu::choice::tiled;
        const tu::choice mid = cb == 1 && r == 2 ? tu::choice::packed : tu::choice::tiled;
        CHECK(first(shape(separable, r, 3, cb, 128, 128)) == tu::choice::tiled);
        CHECK(first(shape(separable, r, 3, cb, 511, 512)) == tu::choice::tiled);
        CHECK(first(shape(separable, r, 3, cb, 512, 512)) == mid);
        CHECK(first(shape(separable, r, 3, cb, 1024, 720)) == mid);
        CHECK(first(shape(separable, r, 3, cb, 1280, 719)) == mid);
        CHECK(first(shape(separable, r, 3, cb, 1280, 720)) == large);
        CHECK(first(shape(separable, r, 3, cb, 1920, 1080)) == large);
        CHECK(first(shape(separable, r, 3, cb, 8192, 8192)) == large);
        CHECK(first(shape(separable, r, 3, cb, 128, 65536)) == large);
        CHECK(unpacked(choose(shape(separable, r, 3, cb, 1920, 1080))) == tu::choice::tiled);
        tu::problem_shape batch = shape(separable, r, 3, cb, 1920, 1080);
        batch.images = 4;
        CHECK(first(batch) != tu::choice::packed);
      }
  // Four channels, separable 5x5, 128x65536 (too narrow to stream): tiled for uchar4 (110.6
  // us, shared_mem 122.4), shared_mem for 16-bit channels (ushort4 124.1, tiled 152.8; half4
  // 118.6 against 152.2).
  CHECK(unpacked(choose(shape(true, 2, 4, 1, 128, 65536))) == tu::choice::tiled);
  CHECK(first(shape(true, 2, 4, 2, 128, 65536)) == tu::choice::shared_mem);
  // Between 2^21 and 2^25 pixels: one-channel separable radius 2 to 8 tiled under
  // replicate (rows/sep.csv: 3840x2160 u8 9x9 32.5 us where the rows before ran
  // shared_mem, 41.7), uchar4 dense 9x9 beyond 2^22 streaming (bench/results/2026-11-24-
  // bands/: 258 and 282, tiled 255 and 336).
  CHECK(first(shape(true, 4, 1, 1, 3840, 2160)) == tu::choice::tiled);
  CHECK(first(shape(true, 4, 1, 4, 5760, 3240)) == tu::choice::tiled);
  CHECK(first(shape(true, 2, 1, 2, 3840, 2160)) == tu::choice::tiled);
  CHECK(first(shape(true, 7, 1, 2, 3840, 2160)) == tu::choice::tiled);
  CHECK(first(shape(true, 7, 1, 2, 1920, 1080)) == tu::choice::tiled);
  CHECK(first(shape(false, 4, 4, 1, 3840, 2160)) == tu::choice::streaming);
  CHECK(first(shape(false, 4, 4, 1, 2560, 1440)) == tu::choice::tiled);
}

TEST_CASE("automatic's table: fft for dense filters from radius 9 beyond 1.4e8 tap-pixels (H200)") {
  auto first = [](const tu::problem_shape& s) {
    const auto list = named(tu::automatic_table<tu::arch::sm_90>::choose(s));
    return list.empty() ? tu::choice::none : list[0];
  };
  // Radius 9 from 1920x1080 (7.5e8 tap-pixels: fft 99 us, shared_mem 194), not at 512x512
  // (9.5e7: 44 against 32); radius 12 at 512x512 (1.6e8: 44 against 51); never at radius
  // 7 (8192x8192 float: 2.26 ms against tiled's 1.27); never separable.
  // (Four channels: one channel puts tensor_core first up to radius 12, next test.)
  CHECK(first(shape(false, 9, 4, 1, 1920, 1080)) == tu::choice::fft);
  CHECK(first(shape(false, 9, 4, 4, 512, 512)) != tu::choice::fft);
  CHECK(first(shape(false, 12, 4, 1, 512, 512)) == tu::choice::fft);
  for (int c : {1, 4}) {
    CHECK(first(shape(false, 15, c, 1, 1920, 1080)) == tu::choice::fft);
    CHECK(first(shape(false, 7, c, 4, 8192, 8192)) != tu::choice::fft);
    CHECK(first(shape(true, 15, c, 4, 8192, 8192)) != tu::choice::fft);
  }
  // Then shared_mem, which runs what fft declines (integer kernels, no FFT library).
  const auto list = named(tu::automatic_table<tu::arch::sm_90>::choose(shape(false, 15, 1, 4, 8192, 8192)));
  REQUIRE(list.size() == 2);
  CHECK(list[1] == tu::choice::shared_mem);
}

TEST_CASE("automatic's table: tensor_core for one-channel dense 8-bit and float filters (H200)") {
  const auto list = sm90_list;
  const auto first = sm90_first;
  // u8 from radius 3 beyond 2^20 pixels (8192x8192 radius 3: 267 us, streaming 297), from
  // radius 7 at 512x512 (18.3 us, streaming 22.4; radius 5 lost: 17.1 against 15.6).
  CHECK(first(shape(false, 3, 1, 1, 1920, 1080)) == tu::choice::tensor_core);
  CHECK(first(shape(false, 2, 1, 1, 8192, 8192)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 5, 1, 1, 512, 512)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 7, 1, 1, 512, 512)) != tu::choice::tensor_core);  // since rows/dense.csv: 1.26 to 1.42x
  CHECK(first(shape(false, 5, 1, 1, 1280, 720)) == tu::choice::tensor_core);
  // float from radius 9 at 512x512; radius 3 to 8 from 2^20 pixels go to tiled's interior
  // instance first (below), tensor_core second where it was first (3840x2160 radius 4:
  // tensor_core 70.1 us, tiled2d_kernel 73.5, the interior instance 38.3).
  CHECK(first(shape(false, 5, 1, 4, 8192, 8192)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 4, 1, 4, 3840, 2160)) == tu::choice::tiled);
  CHECK(choose(shape(false, 4, 1, 4, 3840, 2160)).order[1] == tu::choice::tensor_core);
  CHECK(first(shape(false, 3, 1, 4, 3840, 2160)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 5, 1, 4, 3840, 2160)) != tu::choice::tensor_core);  // tiled since (rows/dense.csv: 1.13x)
  CHECK(first(shape(false, 2, 1, 4, 3840, 2160)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 6, 1, 4, 3840, 2160)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 5, 1, 4, 1920, 1080)) != tu::choice::tensor_core);
  // From 2^20 pixels tiled's interior instance leads float dense radius 1 to 8, tensor_core
  // second where it was first (8192x8192 15x15: 602 us against 854).
  CHECK(first(shape(false, 7, 1, 4, 8192, 8192)) == tu::choice::tiled);
  CHECK(tu::automatic_table<tu::arch::sm_90>::choose(shape(false, 7, 1, 4, 8192, 8192)).order[1] ==
        tu::choice::tensor_core);
  for (int r = 1; r <= 8; ++r) {
    CAPTURE(r);
    CHECK(first(shape(false, r, 1, 4, 8192, 8192)) == tu::choice::tiled);
    CHECK(first(shape(false, r, 1, 4, 3840, 2160)) == tu::choice::tiled);
    CHECK(first(shape(false, r, 1, 4, 1920, 1080)) == tu::choice::tiled);
    CHECK(first(shape(false, r, 1, 4, 1024, 1024)) == tu::choice::tiled);
  }
  CHECK(first(shape(false, 9, 1, 4, 8192, 8192)) != tu::choice::tiled);
  // Below 2^20 at radius 1 and 2 only (interior_from: from 2^18 pixels under clamp, where
  // the frame runs its replicate instance, and 3 * 2^17 under the other rules); radius 3
  // unchanged.
  CHECK(first(shape(false, 2, 1, 4, 1000, 1000)) == tu::choice::tiled);
  CHECK(first(shape(false, 3, 1, 4, 1000, 1000)) != tu::choice::tiled);
  {
    auto fold = shape(false, 2, 1, 4, 1000, 1000);
    fold.border = tu::border_cost::fold;
    CHECK(first(fold) == tu::choice::tiled);
    fold.radius = 3;
    CHECK(first(fold) != tu::choice::tiled);
  }
  // The launcher's limits under it: the frame's cells of one row below 2^21 pixels at
  // radius 1, and at radius 2 where the interior's grid goes first (below 2^21: float's at
  // both radii, u16's at radius 2; u16's frame goes first at radius 1 at every size); the
  // separable 3x3 and 5x5 outer product from 2^18 pixels under clamp and from 2^20 under
  // the other rules, as dense filters.
  {
    using P = tu::tiled_policy<>;
    CHECK(P::small_frame((1LL << 21) - 1, 1, true));
    CHECK(P::small_frame((1LL << 21) - 1, 2, false));
    CHECK_FALSE(P::small_frame((1LL << 21) - 1, 2, true));
    CHECK_FALSE(P::small_frame(1LL << 21, 1, false));
    CHECK_FALSE(P::small_frame(1LL << 18, 3, false));
    CHECK(P::frame_first(1LL << 21, 4, 1));
    CHECK_FALSE(P::frame_first((1LL << 21) - 1, 4, 1));
    CHECK_FALSE(P::frame_first((1LL << 21) - 1, 4, 2));
    CHECK(P::frame_first(1, 2, 1));
    CHECK(P::frame_first((1LL << 21) - 1, 2, 1));
    CHECK_FALSE(P::frame_first((1LL << 21) - 1, 2, 2));
    CHECK(P::frame_first(1LL << 21, 2, 2));
    // u16 5x5 at 1920x1080: the interior first, the frame's cells one row.
    CHECK(P::small_frame(1920 * 1080, 2, P::frame_first(1920 * 1080, 2, 2)));
    CHECK_FALSE(P::small_frame(1LL << 21, 2, P::frame_first(1LL << 21, 2, 2)));
    CHECK(P::separable_interior_min_pixels(1, 4, 2, true) == (1LL << 18));
    CHECK(P::separable_interior_min_pixels(1, 4, 1, true) == (1LL << 18));
    CHECK(P::separable_interior_min_pixels(1, 4, 2, false) == (3LL << 17));
    CHECK(P::separable_interior_min_pixels(1, 2, 2, false) == (3LL << 17));
    CHECK(P::interior_from(false, 1) == (3LL << 17));
    CHECK(P::interior_from(true, 2) == (1LL << 18));
    CHECK(P::interior_from(false, 3) == (1LL << 20));
    CHECK(P::interior_from(true, 3) == (1LL << 18));
    CHECK(P::separable_interior_min_pixels(1, 1, 2, false) == -1);
    CHECK(P::separable_interior_min_pixels(4, 4, 2, false) == -1);
    CHECK(P::separable_interior_min_pixels(1, 4, 3, false) == -1);
  }
  // automatic runs tiled there: float and u16 separable 5x5 under constant and reflect101
  // from 1024x1024 to 2560x1440 (tiled's separable kernel took 1.1 to 1.9 times the outer
  // product's time).
  for (int cb : {2, 4})
    for (tu::border_cost b : {tu::border_cost::constant, tu::border_cost::fold})
      for (auto wh : {std::pair<int, int>{1024, 1024}, {1920, 1080}, {2560, 1440}}) {
        auto sep = shape(true, 2, 1, cb, wh.first, wh.second);
        sep.border = b;
        CAPTURE(cb, int(b), wh.first, wh.second);
        CHECK(first(sep) == tu::choice::tiled);
      }
  // A batch runs tiled2d_kernel, not the interior instance: it keeps the choices measured
  // before that instance (8192x8192 9x9: streaming; 15x15: tensor_core).
  tu::problem_shape two = shape(false, 4, 1, 4, 8192, 8192);
  two.images = 2;
  CHECK(choose(two).order[0] == tu::choice::streaming);
  two.radius = 7;
  CHECK(choose(two).order[0] == tu::choice::tensor_core);
  CHECK(first(shape(false, 7, 1, 4, 512, 512)) != tu::choice::tensor_core);
  // One-channel float dense 15x15 at 128x128 and 256x256: shared_mem (tiled took 1.9x its
  // time under replicate, 6.7x under reflect101); four-channel float keeps tiled there.
  CHECK(first(shape(false, 7, 1, 4, 128, 128)) == tu::choice::shared_mem);
  CHECK(first(shape(false, 7, 1, 4, 256, 256)) == tu::choice::shared_mem);
  CHECK(first(shape(false, 7, 4, 4, 128, 128)) == tu::choice::tiled);
  CHECK(first(shape(false, 9, 1, 4, 512, 512)) == tu::choice::tensor_core);
  // Up to its 25 x 25 taps; never separable, multi-channel, 16-bit, or below 512x512.
  CHECK(first(shape(false, 13, 1, 1, 8192, 8192)) != tu::choice::tensor_core);
  CHECK(first(shape(true, 7, 1, 1, 8192, 8192)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 7, 4, 1, 8192, 8192)) != tu::choice::tensor_core);
  CHECK(first(shape(false, 7, 1, 2, 8192, 8192)) != tu::choice::tensor_core);  // 16-bit measured to 5760x3240
  CHECK(first(shape(false, 7, 1, 2, 1920, 1080)) == tu::choice::tensor_core);
  CHECK(first(shape(false, 12, 1, 1, 256, 256)) != tu::choice::tensor_core);
  // Where the FFT's rule holds too it comes second (what tensor_core declines, such as
  // integer kernels, it may run), but first for float at radius 12 beyond 2^24 pixels
  // (8192x8192: fft 1.60 ms, tensor_core 1.70; radius 11: 1.60 against 1.58).
  const auto u8_12 = list(shape(false, 12, 1, 1, 1920, 1080));
  REQUIRE(u8_12.size() >= 2);
  CHECK(u8_12[0] == tu::choice::tensor_core);
  CHECK(u8_12[1] == tu::choice::fft);
  const auto f_12 = list(shape(false, 12, 1, 4, 8192, 8192));
  REQUIRE(f_12.size() >= 2);
  CHECK(f_12[0] == tu::choice::fft);
  CHECK(f_12[1] == tu::choice::tensor_core);
  CHECK(first(shape(false, 12, 1, 4, 1920, 1080)) == tu::choice::tensor_core);
  CHECK(first(shape(false, 11, 1, 4, 8192, 8192)) == tu::choice::tensor_core);
}

TEST_CASE("automatic's table: sliding for wide separable filters (H200)") {
  const auto list = sm90_list;
  const auto first = sm90_first;
  // Beyond 2^21 pixels from radius 5, u8, float and uchar4 (8192x8192 15x15: float 377 us
  // against shared_mem's 543, uchar4 945 against two_pass's 1682); radius 3 stays streaming.
  CHECK(first(shape(true, 5, 1, 1, 8192, 8192)) == tu::choice::sliding);
  CHECK(first(shape(true, 7, 1, 4, 8192, 8192)) == tu::choice::sliding);
  CHECK(first(shape(true, 15, 4, 1, 8192, 8192)) == tu::choice::sliding);
  CHECK(first(shape(true, 9, 1, 1, 8192, 8192)) == tu::choice::sliding);
  CHECK(first(shape(true, 7, 1, 1, 3840, 2160)) == tu::choice::tiled);  // one_channel_separable
  CHECK(first(shape(true, 3, 1, 4, 8192, 8192)) == tu::choice::streaming);
  // uchar4 at radius 3: sliding below 2^25 pixels (3840x2160: 95.9 us, streaming 98.4),
  // streaming then sliding beyond (8192x8192: 571 and 645 us).
  CHECK(first(shape(true, 3, 4, 1, 3840, 2160)) == tu::choice::sliding);
  CHECK(first(shape(true, 3, 4, 1, 1920, 1080)) == tu::choice::sliding);
  const auto uchar4_7x7 = list(shape(true, 3, 4, 1, 8192, 8192));
  REQUIRE(uchar4_7x7.size() >= 2);
  CHECK((uchar4_7x7[0] == tu::choice::streaming && uchar4_7x7[1] == tu::choice::sliding));
  // One channel below 2^25 pixels beyond radius 8: two_pass first (3840x2160 31x31: 110
  // us, sliding 135; 5760x3240 float 31x31 under reflect101: 235, sliding 314), sliding
  // after it; to radius 8 tiled (one_channel_separable's test).
  CHECK(first(shape(true, 7, 1, 1, 2560, 1440)) == tu::choice::tiled);
  CHECK(first(shape(true, 15, 1, 4, 3840, 2160)) == tu::choice::two_pass);
  CHECK(first(shape(true, 10, 1, 4, 3840, 2160)) == tu::choice::two_pass);
  CHECK(list(shape(true, 15, 1, 1, 5760, 3240))[1] == tu::choice::sliding);
  CHECK(first(shape(true, 3, 1, 1, 1920, 1080)) != tu::choice::sliding);
  CHECK(first(shape(true, 10, 1, 4, 1920, 1080)) != tu::choice::sliding);
  // 512x512 and below (tiles cut short to fill a wave): radius 3 for float and uchar4, and
  // u8 beyond 2^16 pixels; float to radius 7 beyond 2^16; wider filters stay two_pass.
  CHECK(first(shape(true, 3, 1, 4, 128, 128)) == tu::choice::sliding);
  CHECK(first(shape(true, 3, 4, 1, 128, 128)) == tu::choice::sliding);
  CHECK(first(shape(true, 3, 1, 1, 128, 128)) != tu::choice::sliding);
  CHECK(first(shape(true, 3, 1, 1, 362, 362)) == tu::choice::sliding);
  CHECK(first(shape(true, 7, 1, 4, 362, 362)) == tu::choice::sliding);
  CHECK(first(shape(true, 7, 1, 4, 512, 512)) == tu::choice::tiled);  // from 2^18 pixels
  CHECK(first(shape(true, 5, 1, 4, 128, 128)) != tu::choice::sliding);
  CHECK(first(shape(true, 7, 4, 1, 512, 512)) != tu::choice::sliding);
  CHECK(first(shape(true, 10, 1, 4, 512, 512)) != tu::choice::sliding);
  CHECK(first(shape(true, 15, 1, 4, 128, 128)) != tu::choice::sliding);
  // Batches: 64 frames of 1920x1080 run sliding (u8 15x15: 1216 us, two_pass 1659); 4096
  // images of 128x128 two_pass first (u8 15x15: 994, sliding 1350), but float 11x11 and
  // 15x15 sliding (854 against 994), and uchar4 to radius 8 two_pass then tiled.
  auto batch = [&](tu::problem_shape s, int images) {
    s.images = images;
    return list(s);
  };
  CHECK(batch(shape(true, 7, 1, 1, 1920, 1080), 64)[0] == tu::choice::sliding);
  CHECK(batch(shape(true, 7, 4, 1, 1920, 1080), 64)[0] == tu::choice::sliding);
  CHECK(batch(shape(true, 7, 1, 1, 128, 128), 4096)[0] == tu::choice::two_pass);
  CHECK(batch(shape(true, 7, 1, 1, 128, 128), 4096)[1] == tu::choice::sliding);
  CHECK(batch(shape(true, 7, 1, 4, 128, 128), 4096)[0] == tu::choice::sliding);
  CHECK(batch(shape(true, 15, 1, 4, 128, 128), 4096)[0] == tu::choice::two_pass);
  CHECK(batch(shape(true, 7, 4, 1, 128, 128), 4096)[1] == tu::choice::tiled);
  CHECK(batch(shape(true, 15, 4, 1, 128, 128), 4096)[1] == tu::choice::sliding);
  // Never dense filters, three channels, 16-bit channels or float4 (not measured).
  CHECK(first(shape(false, 7, 1, 4, 8192, 8192)) != tu::choice::sliding);
  CHECK(first(shape(true, 7, 3, 1, 8192, 8192)) != tu::choice::sliding);
  CHECK(first(shape(true, 7, 1, 2, 8192, 8192)) != tu::choice::sliding);
  CHECK(first(shape(true, 7, 4, 4, 8192, 8192)) != tu::choice::sliding);
}

TEST_CASE("automatic's table: the border rule's cost in the key (H200)") {
  const auto first = sm90_first;
  const auto list = sm90_list;
  auto with = [](tu::problem_shape s, tu::border_cost b) {
    s.border = b;
    return s;
  };
  constexpr auto clamp = tu::border_cost::clamp, constant = tu::border_cost::constant, fold = tu::border_cost::fold;
  // One-channel separable radius 2 to 8 (bench/results/2026-11-24-rows/sep.csv): tiled
  // under clamp from 2^18 pixels; beyond 2^20 under constant; beyond 2^22 under fold, with
  // two_pass first from radius 6 between 2^20 and 2^22 (1920x1080 u16 17x17: tiled 1.47x).
  for (int cb : {1, 2, 4}) {
    CHECK(first(with(shape(true, 4, 1, cb, 512, 512), clamp)) == tu::choice::tiled);
    CHECK(first(with(shape(true, 8, 1, cb, 1280, 720), clamp)) == tu::choice::tiled);
    CHECK(first(with(shape(true, 5, 1, cb, 1920, 1080), constant)) == tu::choice::tiled);
    CHECK(first(with(shape(true, 8, 1, cb, 3840, 2160), fold)) == tu::choice::tiled);
    CHECK(first(with(shape(true, 5, 1, cb, 1920, 1080), fold)) == tu::choice::tiled);
    const auto wide = list(with(shape(true, 6, 1, cb, 1920, 1080), fold));
    REQUIRE(wide.size() >= 2);
    CHECK((wide[0] == tu::choice::two_pass && wide[1] == tu::choice::tiled));
    // 2^20 pixels and below: two_pass first beyond radius 4 under constant, beyond 2 under fold.
    CHECK(first(with(shape(true, 5, 1, cb, 1280, 720), constant)) == tu::choice::two_pass);
    CHECK(first(with(shape(true, 3, 1, cb, 1280, 720), fold)) == tu::choice::two_pass);
  }
  // 16-bit and float 5x5 on one image up to 512x512: tiled, in its small-image shapes
  // (tiled_policy::small_shape), under every rule (float 128x128 separable 5x5
  // reflect101: 6.7 us, shared_mem 12.2; 2026-11-26-mends/); 3x3 direct there under every
  // rule, dense filters too (direct2d_kernel maps a border block's columns once: 512x512
  // float separable 3x3 reflect101 7.0 us, tiled 8.7; 128x128 dense 3x3 reflect101 5.8,
  // shared_mem 8.9; 2026-11-26-lean/), and from 3 * 2^17 pixels tiled's interior
  // instance (1024x1024 here). Batches keep the rows below (the small shapes are
  // single-image kernels): radius 2 under fold, shared_mem.
  for (int cb : {2, 4})
    for (int r : {1, 2}) {
      for (auto b : {constant, fold})
        for (int side : {1, 128, 362, 512, 1024}) {
          INFO("bytes " << cb << " radius " << r << " side " << side);
          const bool direct = r == 1 && side <= 512;
          CHECK(first(with(shape(true, r, 1, cb, side, side), b)) ==
                (direct ? tu::choice::direct : tu::choice::tiled));
          if (side <= (r == 1 ? 512 : 256))
            CHECK(first(with(shape(false, r, 1, cb, side, side), b)) == tu::choice::direct);
        }
      // From 3 * 2^17 pixels tiled's interior instance (tiled_policy's
      // SmallRadiusInteriorMinPixels: 1024x768 reflect101 dense 3x3 7.71 us, direct 9.47;
      // 2026-11-28-upfront/interior-small-1.txt), where direct ran 3x3 before.
      CHECK(first(with(shape(true, r, 1, cb, 1280, 720), fold)) == tu::choice::tiled);
      for (auto b : {constant, fold}) {
        CHECK(first(with(shape(false, 1, 1, cb, 1280, 720), b)) == tu::choice::tiled);
        CHECK(first(with(shape(false, 1, 1, cb, 1024, 768), b)) == tu::choice::tiled);
      }
      auto batch = with(shape(true, 2, 1, cb, 128, 128), fold);
      batch.images = 16;
      CHECK(first(batch) == tu::choice::shared_mem);
    }
  // Under clamp separable 3x3 and 5x5 run tiled at every size here (its replicate
  // separable kernel to 2^20 pixels: clamp_separable below; its interior instance beyond).
  // Batches keep the rows before it (not measured): direct is not first.
  for (int cb : {2, 4}) {
    for (int side : {1, 128, 362, 512, 1024})
      for (int r : {1, 2}) CHECK(first(with(shape(true, r, 1, cb, side, side), clamp)) == tu::choice::tiled);
    auto batch = with(shape(true, 2, 1, cb, 128, 128), clamp);
    batch.images = 16;
    CHECK(first(batch) != tu::choice::direct);
  }
  // 16-bit and float 3x3 on one image: direct to 512x512, tiled's interior instance from
  // 3 * 2^17 pixels under every rule (under clamp with the frame's replicate instance;
  // under constant and fold since SmallRadiusInteriorMinPixels: 1024x768 reflect101 dense
  // 3x3 7.71 us, direct 9.47, and at 512x512 the interior 1.03 to 1.09 times direct's
  // time); 16-bit 5x5 there too.
  for (bool sep : {true, false})
    for (auto b : {clamp, constant, fold})
      for (int cb : {2, 4}) {
        CAPTURE(sep, int(b), cb);
        CHECK(first(with(shape(sep, 1, 1, cb, 512, 512), b)) ==
              (b == clamp ? tu::choice::tiled : tu::choice::direct));  // (clamp_separable, clamp_dense)
        for (auto wh :
             {std::pair<int, int>{724, 724}, {960, 540}, {1024, 768}, {1280, 720}, {1024, 1024}, {1920, 1080}})
          CHECK(first(with(shape(sep, 1, 1, cb, wh.first, wh.second), b)) == tu::choice::tiled);
        CHECK(first(with(shape(sep, 2, 1, 2, 1024, 768), b)) == tu::choice::tiled);
      }
  // Float separable 3x3 under fold beyond 2^20 pixels: tiled (as its outer product from
  // 2^20; 3840x2160 reflect101: 26.7 us, tiled's separable kernel 35.3).
  CHECK(first(with(shape(true, 1, 1, 4, 1920, 1080), fold)) == tu::choice::tiled);
  CHECK(first(with(shape(true, 1, 1, 4, 3840, 2160), fold)) == tu::choice::tiled);
  // Float 3x3 under constant from 2^20 pixels too: tiled's interior instance
  // (8192x8192 separable: 135.8 us, streaming 154.9).
  CHECK(first(with(shape(true, 1, 1, 4, 8192, 8192), constant)) == tu::choice::tiled);
  // One-channel dense below 3 * 2^17 pixels under constant and fold rules: shared_mem, not
  // tiled, whose perimeter tiles map every row (1280x720 float 5x5 constant: tiled 2.3x,
  // before the interior instance ran there; 512x512 below).
  // Float from 2^20 pixels runs tiled's interior instance first (its frame maps columns
  // once a cell): under fold rules up to radius 8 (1920x1080 reflect101 3x3: 11.7 us,
  // shared_mem 15.2; 11x11: 26.8, tensor_core 38.2), under constant at radius 1 and 2
  // (3840x2160 5x5: 24.0 us, shared_mem 44.5).
  for (auto b : {constant, fold}) {
    const bool fold_rule = b == fold;
    CHECK(first(with(shape(false, 2, 1, 4, 512, 512), b)) == tu::choice::shared_mem);
    CHECK(first(with(shape(false, 2, 1, 4, 1280, 720), b)) == tu::choice::tiled);
    CHECK(first(with(shape(false, 3, 1, 4, 1280, 720), b)) != tu::choice::tiled);
    CHECK(first(with(shape(false, 2, 1, 4, 5760, 3240), b)) == tu::choice::tiled);
    CHECK(first(with(shape(false, 1, 1, 4, 1920, 1080), b)) == tu::choice::tiled);
    CHECK(first(with(shape(false, 1, 1, 4, 3840, 2160), b)) == tu::choice::tiled);
    // ... and under constant the tensor cores from radius 4 beyond 2^20 pixels (1920x1080
    // 9x9: shared_mem 1.13x), where replicate keeps tiled at radius 5.
    CHECK(first(with(shape(false, 5, 1, 4, 1920, 1080), b)) ==
          (fold_rule ? tu::choice::tiled : tu::choice::tensor_core));
  }
  CHECK(first(with(shape(false, 5, 1, 4, 3840, 2160), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(false, 2, 1, 4, 1920, 1080), clamp)) == tu::choice::tiled);
  // One channel at 2^20 pixels and below from radius 2: shared_mem whatever the rule
  // (1280x720 u16 dense 9x9: tiled 1.50x).
  CHECK(first(with(shape(false, 4, 1, 2, 1280, 720), clamp)) == tu::choice::shared_mem);
  // u8 3x3 and 5x5 packed at every size under constant and fold rules (512x512 separable
  // 3x3 reflect101: 4.6 us, direct 10.7; constant 4.6, direct 7.8, shared_mem 8.1;
  // 2026-11-26-small/). Under clamp on one image direct's replicate instance first at dense
  // 3x3 to 2^18 pixels, and where the width is not a multiple of 8, so that packed's strip
  // kernel cannot run, at dense 3x3 and 5x5 to 2^19 (2026-11-28-clamp/u8-small-*.csv:
  // 362x362 dense 5x5 5.63 us, packed 8.00); separable filters under clamp tiled to 2^20
  // (clamp_separable below), packed beyond; since tiled_dense_clamp_kernel dense ones too
  // (clamp_dense), ahead of direct.
  for (tu::border_cost b : {clamp, constant, fold}) {
    CHECK(first(with(shape(true, 1, 1, 1, 512, 512), b)) == (b == clamp ? tu::choice::tiled : tu::choice::packed));
    CHECK(first(with(shape(false, 2, 1, 1, 128, 128), b)) == (b == clamp ? tu::choice::tiled : tu::choice::packed));
    CHECK(first(with(shape(false, 2, 1, 1, 362, 362), b)) == (b == clamp ? tu::choice::tiled : tu::choice::packed));
    CHECK(first(with(shape(true, 2, 1, 1, 181, 181), b)) == (b == clamp ? tu::choice::tiled : tu::choice::packed));
  }
  // Dense and separable to 2^20 at any width (before tiled_dense_clamp_kernel, dense 3x3
  // direct to 2^19 pixels where 8 does not divide the width, to 2^18 where it does).
  CHECK(first(with(shape(false, 1, 1, 1, 724, 724), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(false, 1, 1, 1, 720, 720), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(true, 1, 1, 1, 724, 724), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(true, 1, 1, 1, 720, 720), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(true, 2, 1, 1, 362, 1024), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(true, 2, 1, 1, 1920, 1080), clamp)) == tu::choice::packed);
  CHECK(first(with(shape(false, 2, 1, 1, 362, 1024), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(false, 2, 1, 1, 256, 256), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(false, 2, 1, 1, 1920, 1080), clamp)) == tu::choice::packed);
  // 16-bit and float at radius 1 and 2 to 2^19 pixels: shared_mem under constant and fold
  // rules (512x512 u16 dense 5x5 reflect101: direct 1.81x); under clamp tiled's replicate
  // kernel (clamp_dense; before it, direct at 3x3).
  CHECK(first(with(shape(false, 2, 1, 2, 512, 512), fold)) == tu::choice::shared_mem);
  CHECK(first(with(shape(false, 1, 1, 2, 512, 512), clamp)) == tu::choice::tiled);
  // 16-bit dense 5x5 under clamp: direct since its replicate instance (512x512 u16: 6.85
  // us, shared_mem 7.94; 2026-11-28-clamp/families-hold.csv; before it direct took 1.19x
  // shared_mem's time), below 2^18 pixels since the frame's replicate instance, tiled
  // from there (512x512: 6.30 us, direct 6.78; 724x724 6.62 against 8.93;
  // 2026-11-28-frame/frame-clamp-small-1.txt); since tiled's replicate kernel, tiled at
  // every size to 2^20 (clamp_dense; 362x362: 4.70 us, direct 5.92).
  CHECK(first(with(shape(false, 2, 1, 2, 362, 362), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(false, 2, 1, 2, 512, 512), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(false, 2, 1, 2, 724, 724), clamp)) == tu::choice::tiled);
  CHECK(first(with(shape(false, 2, 1, 2, 1024, 1024), clamp)) == tu::choice::tiled);
  // 16-bit 3x3 beyond 2^23 pixels: tiled's interior instance (5760x3240 u16 26.7 us, direct
  // 62.1), then direct, not streaming (streaming 1.31 to 1.86x direct's time).
  CHECK(sm90_list(with(shape(false, 1, 1, 2, 5760, 3240), clamp))[0] == tu::choice::tiled);
  CHECK(sm90_list(with(shape(false, 1, 1, 2, 5760, 3240), clamp))[1] == tu::choice::direct);
  CHECK(sm90_list(with(shape(true, 1, 1, 2, 5760, 3240), fold))[0] == tu::choice::tiled);
  CHECK(sm90_list(with(shape(true, 1, 1, 2, 5760, 3240), fold))[1] == tu::choice::direct);
}

TEST_CASE("automatic's table: tiled's replicate separable kernel to 2^20 pixels, uchar4 to 2^19 (H200)") {
  using lib = tu::tiled_policy<>;
  using table = tu::automatic_table<tu::arch::sm_90>;
  // The policy: radius 1 and 2, one channel of any width and three and four of 8, 16 and
  // 32 bits; its small shape to 2^16 pixels, 4 thread rows for one channel at radius 2;
  // above, u8 4 x 2 outputs a thread, other one-channel pixels 2 x 2, three and four
  // channels 1 x 2, but 1 x 4 for four of 16 and 32 bits at radius 2; three channels from
  // 3 * 2^18 pixels (786,432: between 724x724 and 1280x720) in a large shape, 1 x 4 in 32 x
  // 4 threads for uchar3, ushort3 at radius 1 and float3 at radius 2, 1 x 4 in 32 x 8 for
  // ushort3 at radius 2 (tiled_policy's comment and tiled_sep_clamp.hpp's have the
  // measurements).
  STATIC_REQUIRE((lib::clamp_separable<1, 1, 1> && lib::clamp_separable<1, 4, 2> && lib::clamp_separable<4, 1, 2>));
  STATIC_REQUIRE((lib::clamp_separable<4, 2, 1> && lib::clamp_separable<4, 4, 2>));
  STATIC_REQUIRE((lib::clamp_separable<3, 1, 1> && lib::clamp_separable<3, 2, 1> && lib::clamp_separable<3, 4, 2>));
  STATIC_REQUIRE((!lib::clamp_separable<1, 4, 3> && !lib::clamp_separable<4, 2, 3> && !lib::clamp_separable<3, 1, 3> &&
                  !lib::clamp_separable<2, 1, 1> && !lib::clamp_separable<4, 8, 1>));
  STATIC_REQUIRE((lib::clamp_separable_small(1LL << 16) && !lib::clamp_separable_small((1LL << 16) + 1)));
  STATIC_REQUIRE((lib::clamp_separable_small_rows<1, 2> == 4 && lib::clamp_separable_small_rows<1, 1> == 8 &&
                  lib::clamp_separable_small_rows<4, 2> == 8));
  STATIC_REQUIRE((lib::clamp_separable_out_x<1, 1> == 4 && lib::clamp_separable_out_x<1, 2> == 2 &&
                  lib::clamp_separable_out_x<4, 1> == 1 && lib::clamp_separable_out_x<4, 2> == 1 &&
                  lib::clamp_separable_out_x<3, 1> == 1 && lib::clamp_separable_out_x<3, 4> == 1));
  STATIC_REQUIRE((lib::clamp_separable_out_y<1, 1, 2> == 2 && lib::clamp_separable_out_y<1, 4, 2> == 2 &&
                  lib::clamp_separable_out_y<4, 1, 2> == 2 && lib::clamp_separable_out_y<4, 2, 1> == 2 &&
                  lib::clamp_separable_out_y<4, 2, 2> == 4 && lib::clamp_separable_out_y<4, 4, 2> == 4 &&
                  lib::clamp_separable_out_y<3, 1, 2> == 2 && lib::clamp_separable_out_y<3, 2, 2> == 2 &&
                  lib::clamp_separable_out_y<3, 4, 2> == 2 && lib::clamp_separable_out_y<3, 4, 1> == 2));
  STATIC_REQUIRE((!lib::clamp_separable_large(3, (3LL << 18) - 1) && lib::clamp_separable_large(3, 3LL << 18) &&
                  !lib::clamp_separable_large(1, 1LL << 20) && !lib::clamp_separable_large(4, 1LL << 20)));
  // The large shape: rows and outputs a thread in y for uchar3 at radius 1 and 2, ushort3
  // at 1 and 2, float3 at 1 and 2; every thread row count is 8 outside it.
  STATIC_REQUIRE((lib::clamp_separable_rows<3, 1, 1, true> == 4 && lib::clamp_separable_out_y<3, 1, 1, true> == 4 &&
                  lib::clamp_separable_rows<3, 1, 2, true> == 4 && lib::clamp_separable_out_y<3, 1, 2, true> == 4 &&
                  lib::clamp_separable_rows<3, 2, 1, true> == 4 && lib::clamp_separable_out_y<3, 2, 1, true> == 4 &&
                  lib::clamp_separable_rows<3, 2, 2, true> == 8 && lib::clamp_separable_out_y<3, 2, 2, true> == 4 &&
                  lib::clamp_separable_rows<3, 4, 1, true> == 8 && lib::clamp_separable_out_y<3, 4, 1, true> == 2 &&
                  lib::clamp_separable_rows<3, 4, 2, true> == 4 && lib::clamp_separable_out_y<3, 4, 2, true> == 4));
  STATIC_REQUIRE((lib::clamp_separable_rows<3, 1, 1> == 8 && lib::clamp_separable_rows<3, 4, 2> == 8 &&
                  lib::clamp_separable_rows<1, 1, 1, true> == 8 && lib::clamp_separable_rows<4, 1, 2, true> == 8));
  // Pass 1's rows loaded upfront: one channel in every shape, three and four in the small
  // one, three and four of 16 and 32 bits at radius 1 in the medium one too and three of
  // them at radius 2; in the large one float3 at radius 1 only.
  STATIC_REQUIRE((lib::clamp_separable_upfront(1, 1, 2, true) && lib::clamp_separable_upfront(1, 4, 1, false) &&
                  lib::clamp_separable_upfront(4, 1, 1, true) && !lib::clamp_separable_upfront(4, 1, 1, false) &&
                  lib::clamp_separable_upfront(4, 2, 1, false) && lib::clamp_separable_upfront(4, 4, 1, false) &&
                  !lib::clamp_separable_upfront(4, 2, 2, false) && lib::clamp_separable_upfront(4, 2, 2, true) &&
                  lib::clamp_separable_upfront(3, 1, 2, true) && !lib::clamp_separable_upfront(3, 1, 1, false) &&
                  lib::clamp_separable_upfront(3, 4, 1, false) && lib::clamp_separable_upfront(3, 2, 2, false) &&
                  lib::clamp_separable_upfront(3, 4, 2, false)));
  constexpr bool large = true, small = true;
  STATIC_REQUIRE((!lib::clamp_separable_upfront(3, 1, 1, !small, large) &&
                  !lib::clamp_separable_upfront(3, 1, 2, !small, large) &&
                  !lib::clamp_separable_upfront(3, 2, 1, !small, large) &&
                  !lib::clamp_separable_upfront(3, 2, 2, !small, large) &&
                  lib::clamp_separable_upfront(3, 4, 1, !small, large) &&
                  !lib::clamp_separable_upfront(3, 4, 2, !small, large) &&
                  lib::clamp_separable_upfront(1, 4, 2, !small, large) &&
                  lib::clamp_separable_upfront(3, 2, 2, small, large)));
  // The row (bench/results/2026-11-28-sep-clamp/sep-clamp-1.txt and 2026-11-28-dense16/
  // sep16-wide-1.txt, held, best of two, against the fastest other family): u8, u16 and
  // float from 128x128 to 1280x720 (921,600 pixels), uchar4 to 960x540 (518,400), ushort4
  // to 3840x2160 (8,294,400 pixels), float4 to 2560x1440 (2^22 above it); beyond
  // (1920x1080, uchar4 1024x768, ushort4 8192x8192 and 128x65536, float4 3840x2160 5x5)
  // the earlier rows; three channels (2026-12-04-three/three-*.csv) to 8192x8192, the
  // largest size timed.
  struct px { int channels, bytes; long long max; };
  for (px p : {px{1, 1, 1LL << 20}, px{1, 2, 1LL << 20}, px{1, 4, 1LL << 20}, px{4, 1, 1LL << 19},
               px{4, 2, 3840LL * 2160}, px{4, 4, 1LL << 22}, px{3, 1, 8192LL * 8192}, px{3, 2, 8192LL * 8192},
               px{3, 4, 8192LL * 8192}})
    for (int r : {1, 2}) {
      CAPTURE(p.channels, p.bytes, r);
      CHECK(lib::clamp_separable_max_pixels(p.channels, p.bytes) == p.max);
      for (auto wh : {std::pair<int, int>{1, 1}, {128, 128}, {256, 256}, {512, 512}, {724, 724}, {960, 540}}) {
        const auto s = shape(true, r, p.channels, p.bytes, wh.first, wh.second);
        CHECK(table::clamp_separable(s));
        CHECK(sm90_first(s) == replicate_row_first(s));
      }
      // Just past the limit the row does not hold.
      const long long over = p.max + 1;
      CHECK(!table::clamp_separable(shape(true, r, p.channels, p.bytes, int(over), 1)));
      CHECK(table::clamp_separable(shape(true, r, p.channels, p.bytes, int(p.max), 1)));
      // Not dense filters, not the other rules, not batches, not radius 3.
      CHECK(!table::clamp_separable(shape(false, r, p.channels, p.bytes, 128, 128)));
      for (tu::border_cost b : {tu::border_cost::constant, tu::border_cost::fold}) {
        auto s = shape(true, r, p.channels, p.bytes, 128, 128);
        s.border = b;
        CHECK(!table::clamp_separable(s));
      }
      auto batch = shape(true, r, p.channels, p.bytes, 128, 128);
      batch.images = 2;
      CHECK(!table::clamp_separable(batch));
      CHECK(!table::clamp_separable(shape(true, 3, p.channels, p.bytes, 128, 128)));
    }
  // Other pixels keep their rows: two channels, 8-byte channels.
  CHECK(!table::clamp_separable(shape(true, 1, 2, 1, 128, 128)));
  CHECK(!table::clamp_separable(shape(true, 1, 4, 8, 128, 128)));
  // Where the new rows hold (sep16-wide-1.txt): ushort4 3840x2160 5x5 (79.04 us against
  // automatic's 86.59), float4 2560x1440 3x3 (42.40 against 60.38).
  CHECK(sm90_first(shape(true, 2, 4, 2, 3840, 2160)) == tu::choice::tiled);
  CHECK(sm90_first(shape(true, 1, 4, 4, 2560, 1440)) == tu::choice::tiled);
  // Not beyond: ushort4 8192x8192 (3x3: 453.8 us against automatic's 360.1), float4
  // 3840x2160 (5x5: 128.9 against 119.0).
  CHECK(!table::clamp_separable(shape(true, 1, 4, 2, 8192, 8192)));
  CHECK(!table::clamp_separable(shape(true, 2, 4, 4, 3840, 2160)));
  // Beyond the limits: u8 1920x1080 packed, uchar4 1024x768 packed (8.19 us against its 7.55).
  CHECK(sm90_first(shape(true, 1, 1, 1, 1920, 1080)) == tu::choice::packed);
  CHECK(sm90_first(shape(true, 2, 4, 1, 1024, 768)) == tu::choice::packed);
  // Taller than the kernel's grid holds: the row does not hold (the launcher would not run it).
  CHECK(!table::clamp_separable(shape(true, 1, 1, 1, 1, 8 * 65535 + 1)));
}

TEST_CASE("automatic's table: tiled's replicate dense kernel to 2^20 pixels, uchar4 to 2^18 and 2^19 (H200)") {
  using lib = tu::tiled_policy<>;
  using table = tu::automatic_table<tu::arch::sm_90>;
  // The policy: radius 1 and 2; one channel of 1, 2 and 4 bytes, three and four (where it
  // was measured); the small shape to 2^16 pixels (clamp_separable_small): one channel 2 x
  // 2 outputs a thread, three and four one in 32 x 8 threads at 3x3 and 32 x 4 at 5x5;
  // above, u8 4 x 2, 16-bit and float 2 x 2, uchar3 2 x 2 and uchar4 (1 x 2 at 3x3, 1 x
  // 4 at 5x5) in 32 x 8 threads, three 16- and 32-bit channels 1 x 4 in 32 x 4 threads,
  // four 1 x 4 in 32 x 4 threads at 3x3 and 32 x 8 at 5x5 (tiled_policy's comment has the
  // measurements).
  STATIC_REQUIRE((lib::clamp_dense<1, 1, 1> && lib::clamp_dense<1, 4, 2> && lib::clamp_dense<4, 1, 2>));
  STATIC_REQUIRE((lib::clamp_dense<1, 2, 1> && lib::clamp_dense<1, 2, 2> && lib::clamp_dense<4, 2, 1> &&
                  lib::clamp_dense<4, 4, 2>));
  STATIC_REQUIRE((lib::clamp_dense<3, 1, 1> && lib::clamp_dense<3, 2, 1> && lib::clamp_dense<3, 4, 2>));
  STATIC_REQUIRE((!lib::clamp_dense<1, 4, 3> && !lib::clamp_dense<4, 2, 3> && !lib::clamp_dense<3, 1, 3> &&
                  !lib::clamp_dense<2, 1, 1> && !lib::clamp_dense<1, 8, 1>));
  STATIC_REQUIRE((lib::clamp_dense_out_x<1, 1, true> == 2 && lib::clamp_dense_out_x<1, 1, false> == 4 &&
                  lib::clamp_dense_out_x<1, 2, false> == 2 && lib::clamp_dense_out_x<1, 4, true> == 2 &&
                  lib::clamp_dense_out_x<1, 4, false> == 2 && lib::clamp_dense_out_x<4, 1, true> == 1 &&
                  lib::clamp_dense_out_x<4, 1, false> == 1 && lib::clamp_dense_out_x<4, 2, false> == 1 &&
                  lib::clamp_dense_out_x<4, 4, false> == 1 && lib::clamp_dense_out_x<3, 1, false> == 2 &&
                  lib::clamp_dense_out_x<3, 4, true> == 1));
  STATIC_REQUIRE((lib::clamp_dense_out_y<1, 1, 1, true> == 2 && lib::clamp_dense_out_y<1, 2, 2, false> == 2 &&
                  lib::clamp_dense_out_y<4, 1, 2, true> == 1 && lib::clamp_dense_out_y<4, 1, 1, false> == 2 &&
                  lib::clamp_dense_out_y<4, 1, 2, false> == 4 && lib::clamp_dense_out_y<4, 2, 1, true> == 1 &&
                  lib::clamp_dense_out_y<4, 2, 1, false> == 4 && lib::clamp_dense_out_y<4, 4, 1, false> == 4 &&
                  lib::clamp_dense_out_y<4, 4, 2, false> == 4 && lib::clamp_dense_out_y<3, 1, 1, false> == 2 &&
                  lib::clamp_dense_out_y<3, 1, 2, false> == 2 && lib::clamp_dense_out_y<3, 2, 1, false> == 4 &&
                  lib::clamp_dense_out_y<3, 4, 2, true> == 1));
  STATIC_REQUIRE((lib::clamp_dense_rows<4, 1, 2, true> == 4 && lib::clamp_dense_rows<4, 1, 1, true> == 8 &&
                  lib::clamp_dense_rows<4, 1, 2, false> == 8 && lib::clamp_dense_rows<1, 1, 2, true> == 8 &&
                  lib::clamp_dense_rows<4, 1, 1, false> == 8 && lib::clamp_dense_rows<4, 2, 2, true> == 4 &&
                  lib::clamp_dense_rows<4, 2, 1, true> == 8 && lib::clamp_dense_rows<4, 2, 1, false> == 4 &&
                  lib::clamp_dense_rows<4, 4, 1, false> == 4 && lib::clamp_dense_rows<4, 2, 2, false> == 8 &&
                  lib::clamp_dense_rows<1, 2, 1, false> == 8 && lib::clamp_dense_rows<3, 1, 2, true> == 4 &&
                  lib::clamp_dense_rows<3, 1, 1, false> == 8 && lib::clamp_dense_rows<3, 4, 1, false> == 4 &&
                  lib::clamp_dense_rows<3, 2, 2, false> == 4 && lib::clamp_dense_rows<3, 1, 2, false> == 8));
  // The row (bench/results/2026-11-28-dense-clamp/dense-clamp-*.txt and
  // 2026-11-28-dense16/dense16-*.txt, held, best of two, against the fastest other family):
  // one channel of 1, 2 and 4 bytes from 128x128 to 1280x720 (921,600 pixels), uchar4 3x3
  // to 512x512 and 5x5 to 960x540 (518,400), four 16-bit channels to 3840x2160 (8,294,400),
  // float4 to 1920x1080 (2,073,600); beyond (1920x1080 for one channel, uchar4 3x3 724x724,
  // 5x5 1024x768, 8192x8192 ushort4 and half4 3x3, 128x65536 not timed) the earlier rows;
  // three channels (2026-12-04-three/three-*.csv, dense3-1.txt) to 8192x8192, the
  // largest size timed.
  struct px { int channels, bytes, r; long long max; };
  for (px p : {px{1, 1, 1, 1LL << 20}, px{1, 1, 2, 1LL << 20}, px{1, 2, 1, 1LL << 20}, px{1, 2, 2, 1LL << 20},
               px{1, 4, 1, 1LL << 20}, px{1, 4, 2, 1LL << 20}, px{4, 1, 1, 1LL << 18}, px{4, 1, 2, 1LL << 19},
               px{4, 2, 1, 3840LL * 2160}, px{4, 2, 2, 3840LL * 2160}, px{4, 4, 1, 1LL << 21},
               px{4, 4, 2, 1LL << 21}, px{3, 1, 1, 8192LL * 8192}, px{3, 1, 2, 8192LL * 8192},
               px{3, 2, 1, 8192LL * 8192}, px{3, 2, 2, 8192LL * 8192}, px{3, 4, 1, 8192LL * 8192},
               px{3, 4, 2, 8192LL * 8192}}) {
    CAPTURE(p.channels, p.bytes, p.r);
    CHECK(lib::clamp_dense_max_pixels(p.channels, p.bytes, p.r) == p.max);
    for (auto wh : {std::pair<int, int>{1, 1}, {128, 128}, {181, 181}, {256, 256}, {362, 362}, {512, 512}}) {
      const auto s = shape(false, p.r, p.channels, p.bytes, wh.first, wh.second);
      CHECK(table::clamp_dense(s));
      CHECK(sm90_first(s) == replicate_row_first(s));
    }
    // Just past the limit the row does not hold.
    CHECK(!table::clamp_dense(shape(false, p.r, p.channels, p.bytes, int(p.max + 1), 1)));
    CHECK(table::clamp_dense(shape(false, p.r, p.channels, p.bytes, int(p.max), 1)));
    // Not separable filters (clamp_separable's row), not the other rules, not batches.
    CHECK(!table::clamp_dense(shape(true, p.r, p.channels, p.bytes, 128, 128)));
    for (tu::border_cost b : {tu::border_cost::constant, tu::border_cost::fold}) {
      auto s = shape(false, p.r, p.channels, p.bytes, 128, 128);
      s.border = b;
      CHECK(!table::clamp_dense(s));
    }
    auto batch = shape(false, p.r, p.channels, p.bytes, 128, 128);
    batch.images = 2;
    CHECK(!table::clamp_dense(batch));
  }
  // Not radius 3, not the pixels it was not measured on (8-byte channels).
  CHECK(!table::clamp_dense(shape(false, 3, 1, 4, 128, 128)));
  CHECK(!table::clamp_dense(shape(false, 3, 3, 1, 128, 128)));
  CHECK(!table::clamp_dense(shape(false, 1, 1, 8, 128, 128)));
  // Where the new pixels' rows held (dense16-*.txt): ushort4 5x5 1920x1080 (22.62 us,
  // shared_mem 38.85) and 3840x2160 (84.64, automatic's streaming 102.34), float4 5x5
  // 1280x720 (14.46, shared_mem 20.80, automatic's tiled2d_kernel 45.02), u16 3x3 512x512
  // (4.70, direct 5.02).
  CHECK(sm90_first(shape(false, 2, 4, 2, 1920, 1080)) == tu::choice::tiled);
  CHECK(sm90_first(shape(false, 2, 4, 2, 3840, 2160)) == tu::choice::tiled);
  CHECK(sm90_first(shape(false, 2, 4, 4, 1280, 720)) == tu::choice::tiled);
  CHECK(sm90_first(shape(false, 1, 1, 2, 512, 512)) == tu::choice::tiled);
  // Beyond: ushort4 and half4 3x3 at 8192x8192 (479 us against automatic's 386) and u16
  // 3x3 at 1920x1080 (7.94 against 6.88, tiled's interior instance) keep their rows.
  CHECK(!table::clamp_dense(shape(false, 1, 4, 2, 8192, 8192)));
  CHECK(sm90_first(shape(false, 1, 4, 2, 8192, 8192)) == tu::choice::streaming);
  CHECK(!table::clamp_dense(shape(false, 1, 1, 2, 1920, 1080)));
  CHECK(!table::clamp_dense(shape(false, 1, 4, 4, 2560, 1440)));
  // Beyond the limits: u8 1920x1080 packed (3x3 7.23 us against packed's 6.59), float
  // 1920x1080 tiled's interior instance, uchar4 3x3 724x724 and 5x5 1024x768 packed.
  CHECK(sm90_first(shape(false, 1, 1, 1, 1920, 1080)) == tu::choice::packed);
  CHECK(!table::clamp_dense(shape(false, 1, 1, 4, 1920, 1080)));
  CHECK(sm90_first(shape(false, 1, 1, 4, 1920, 1080)) == tu::choice::tiled);
  CHECK(sm90_first(shape(false, 1, 4, 1, 724, 724)) == tu::choice::packed);
  CHECK(sm90_first(shape(false, 2, 4, 1, 1024, 768)) == tu::choice::packed);
  // Taller than the kernel's grid holds: the row does not hold.
  CHECK(!table::clamp_dense(shape(false, 1, 1, 1, 1, 8 * 65535 + 1)));
}

TEST_CASE("automatic's table: packed first for uchar4 under clamp where packed_four_kernel runs (H200)") {
  // packed_policy::four_out_y: 1 x 2 outputs a thread to 2^18 pixels, 1 x 4 above, to
  // 1280x720 pixels (dense 5x5 to 1920x1080), 0 beyond (the strip walk).
  using P = tu::packed_policy<>;
  for (int r : {1, 2})
    for (bool sep : {false, true}) {
      CAPTURE(r, sep);
      const long long most = r == 2 && !sep ? 1920LL * 1080 : 1280LL * 720;
      CHECK(P::four_out_y(1, r, sep) == 2);
      CHECK(P::four_out_y(1LL << 18, r, sep) == 2);
      CHECK(P::four_out_y((1LL << 18) + 1, r, sep) == 4);
      CHECK(P::four_out_y(most, r, sep) == 4);
      CHECK(P::four_out_y(most + 1, r, sep) == 0);
    }
  using table = tu::automatic_table<tu::arch::sm_90>;
  // The row holds for uchar4 at radius 1 and 2 on one image under clamp, to those sizes;
  // packed first, and what choose_list gives next (tiled's replicate kernels to 2^18 and
  // 2^19 pixels, then shared_mem or direct; the strip walk is packed itself).
  for (int r : {1, 2})
    for (bool sep : {false, true})
      for (auto wh : {std::pair<int, int>{1, 1}, {128, 128}, {512, 512}, {724, 724}, {1280, 720}}) {
        const auto s = shape(sep, r, 4, 1, wh.first, wh.second);
        CAPTURE(r, sep, wh.first, wh.second);
        CHECK(table::packed_four(s));
        const auto list = named(table::choose(s));
        const auto rest = named(table::choose_list(s));
        REQUIRE(!list.empty());
        CHECK(list[0] == tu::choice::packed);
        std::vector<tu::choice> others;
        for (tu::choice c : rest)
          if (c != tu::choice::packed) others.push_back(c);
        CHECK(std::vector<tu::choice>(list.begin() + 1, list.end()) ==
              std::vector<tu::choice>(others.begin(), others.begin() + std::min<std::size_t>(others.size(), 3)));
      }
  CHECK(unpacked(choose(shape(false, 1, 4, 1, 512, 512))) == tu::choice::tiled);
  // Not beyond the sizes, not other rules, batches, other pixels or radius 3.
  CHECK(!table::packed_four(shape(false, 1, 4, 1, 1281, 720)));
  CHECK(!table::packed_four(shape(true, 2, 4, 1, 1281, 720)));
  CHECK(table::packed_four(shape(false, 2, 4, 1, 1920, 1080)));
  CHECK(!table::packed_four(shape(false, 2, 4, 1, 1921, 1080)));
  for (tu::border_cost b : {tu::border_cost::constant, tu::border_cost::fold}) {
    auto s = shape(false, 1, 4, 1, 512, 512);
    s.border = b;
    CHECK(!table::packed_four(s));
  }
  auto batch = shape(false, 1, 4, 1, 128, 128);
  batch.images = 2;
  CHECK(!table::packed_four(batch));
  CHECK(!table::packed_four(shape(false, 3, 4, 1, 128, 128)));
  CHECK(!table::packed_four(shape(false, 1, 4, 2, 128, 128)));
  CHECK(!table::packed_four(shape(false, 1, 1, 1, 128, 128)));
  CHECK(!table::packed_four(shape(false, 1, 3, 1, 128, 128)));
}

TEST_CASE("automatic's table: packed first for u8 3x3 under clamp where its wide kernel runs, beyond 2^18 pixels") {
  using table = tu::automatic_table<tu::arch::sm_90>;
  const auto aligned = [](tu::problem_shape s) {
    s.rows_aligned_16 = true;
    return s;
  };
  // Dense and separable, from 640x480 to 2^20 pixels, where tiled's replicate rows led
  // before: packed, then tiled (which runs what packed's plan refuses).
  for (bool sep : {false, true})
    for (auto wh : {std::pair<int, int>{640, 480}, {512, 513}, {800, 600}, {960, 540}, {1024, 768}, {1280, 720},
                    {1024, 1024}, {4096, 256}}) {
      const auto s = aligned(shape(sep, 1, 1, 1, wh.first, wh.second));
      CAPTURE(sep, wh.first, wh.second);
      CHECK(table::packed_wide(s));
      const auto list = named(table::choose(s));
      REQUIRE(list.size() >= 2);
      CHECK(list[0] == tu::choice::packed);
      CHECK(list[1] == tu::choice::tiled);
      // The same shape with its rows off 16 bytes keeps tiled's replicate kernels first.
      CHECK(sm90_first(shape(sep, 1, 1, 1, wh.first, wh.second)) == tu::choice::tiled);
    }
  // Not at 2^18 pixels and below (512x512: level with tiled), nor on widths the kernel
  // leaves: not a multiple of 16 pixels, or under its 512.
  for (bool sep : {false, true}) {
    CHECK(!table::packed_wide(aligned(shape(sep, 1, 1, 1, 512, 512))));
    CHECK(sm90_first(aligned(shape(sep, 1, 1, 1, 512, 512))) == tu::choice::tiled);
    CHECK(!table::packed_wide(aligned(shape(sep, 1, 1, 1, 1000, 720))));
    CHECK(sm90_first(aligned(shape(sep, 1, 1, 1, 1000, 720))) == tu::choice::tiled);
    CHECK(!table::packed_wide(aligned(shape(sep, 1, 1, 1, 496, 1024))));
    CHECK(sm90_first(aligned(shape(sep, 1, 1, 1, 496, 1024))) == tu::choice::tiled);
  }
  // Only u8 at radius 1 on one image under clamp.
  CHECK(!table::packed_wide(aligned(shape(false, 2, 1, 1, 1280, 720))));
  CHECK(sm90_first(aligned(shape(false, 2, 1, 1, 1280, 720))) == tu::choice::tiled);
  CHECK(!table::packed_wide(aligned(shape(false, 1, 4, 1, 1280, 720))));
  CHECK(!table::packed_wide(aligned(shape(false, 1, 1, 2, 1280, 720))));
  CHECK(!table::packed_wide(aligned(shape(false, 1, 1, 4, 1280, 720))));
  for (tu::border_cost b : {tu::border_cost::constant, tu::border_cost::fold}) {
    auto s = aligned(shape(false, 1, 1, 1, 1280, 720));
    s.border = b;
    CHECK(!table::packed_wide(s));
  }
  auto batch = aligned(shape(false, 1, 1, 1, 640, 480));
  batch.images = 2;
  CHECK(!table::packed_wide(batch));
}

TEST_CASE("packed_policy: 12-row strips for separable filters in packed_kernel's walk, where 16 were kept") {
  using P = tu::packed_policy<>;
  // Beyond radius 1 the longest strip is 16 rows; a separable filter in packed_kernel's
  // walk takes 12 there. A strip the halving shortened stays (uchar4 1920x1080 separable
  // 5x5: 8 rows), and radius 1, dense filters and the strip kernel (separable_walk false)
  // keep what the halving gave.
  CHECK(P::strip_rows(2) == 16);
  CHECK(P::walk_rows(16, 2, true) == 12);
  CHECK(P::walk_rows(16, 2, false) == 16);
  for (int rows : {1, 2, 4, 8}) {
    CHECK(P::walk_rows(rows, 2, true) == rows);
    CHECK(P::walk_rows(rows, 1, true) == rows);
  }
  CHECK(P::walk_rows(P::strip_rows(1), 1, true) == P::strip_rows(1));
}

TEST_CASE("packed_policy: the wide kernel's strips, 1 row to 2^20 pixels, 2 to 2^22, 4 beyond") {
  using P = tu::packed_policy<>;
  // packed_wide_kernel (u8 3x3 on one image at least 512 pixels wide): one-row strips up to
  // 1024x1024's pixels (1280x720 takes them), two up to 2048x2048's (1920x1080, 2560x1440),
  // four beyond (3840x2160, 8192x8192).
  CHECK(P::wide_min_width == 512);
  CHECK(P::wide_rows(512LL * 512) == 1);
  CHECK(P::wide_rows(1280LL * 720) == 1);
  CHECK(P::wide_rows(1LL << 20) == 1);
  CHECK(P::wide_rows((1LL << 20) + 1) == 2);
  CHECK(P::wide_rows(1920LL * 1080) == 2);
  CHECK(P::wide_rows(2560LL * 1440) == 2);
  CHECK(P::wide_rows(1LL << 22) == 2);
  CHECK(P::wide_rows((1LL << 22) + 1) == 4);
  CHECK(P::wide_rows(3840LL * 2160) == 4);
  CHECK(P::wide_rows(8192LL * 8192) == 4);
}

TEST_CASE("automatic's table: tiled's replicate kernels for float ROIs up to 256 pixels wide at any size") {
  using lib = tu::tiled_policy<>;
  using table = tu::automatic_table<tu::arch::sm_90>;
  // The policy: one channel of 4 bytes (float), up to 256 pixels wide (at 128x65536 the
  // kernels took 0.83 to 0.93 times the time of the interior instance, which ran there
  // before, and the dense one 0.78 to 0.90 from 160 to 256 wide: tiled_policy's
  // ClampNarrowMaxWidth).
  STATIC_REQUIRE((lib::clamp_narrow(1, 4, 1) && lib::clamp_narrow(1, 4, 256) && !lib::clamp_narrow(1, 4, 257)));
  STATIC_REQUIRE((!lib::clamp_narrow(1, 1, 64) && !lib::clamp_narrow(1, 2, 128) && !lib::clamp_narrow(3, 4, 64) &&
                  !lib::clamp_narrow(4, 4, 64)));
  // The kernels' size question, which the launcher and the table share: the pixel limit,
  // or narrow at any size.
  constexpr long long limit = 1LL << 20, tall = 256LL * 32768, wider = 257LL * 32768;
  STATIC_REQUIRE((lib::clamp_separable_size(1, 4, 1024, limit) && !lib::clamp_separable_size(1, 4, 1024, limit + 1) &&
                  lib::clamp_separable_size(1, 4, 256, tall) && !lib::clamp_separable_size(1, 4, 257, wider) &&
                  !lib::clamp_separable_size(1, 2, 128, tall)));
  STATIC_REQUIRE((lib::clamp_dense_size(1, 4, 2, 1024, limit) && !lib::clamp_dense_size(1, 4, 2, 1024, limit + 1) &&
                  lib::clamp_dense_size(1, 4, 1, 256, tall) && !lib::clamp_dense_size(1, 4, 1, 257, wider) &&
                  !lib::clamp_dense_size(4, 1, 1, 128, tall)));
  for (bool sep : {false, true})
    for (int r : {1, 2}) {
      CAPTURE(sep, r);
      const auto holds = [&](const tu::problem_shape& s) {
        return sep ? table::clamp_separable(s) : table::clamp_dense(s);
      };
      // Beyond the pixel limit (2^20) where the ROI is narrow: 128x65536, 8x524280 (the
      // tallest the table takes), 97x10831, 128x8193, 256x32768.
      for (auto wh : {std::pair<int, int>{128, 65536}, {8, 8 * 65535}, {97, 10831}, {128, 8193}, {256, 32768}}) {
        const auto s = shape(sep, r, 1, 4, wh.first, wh.second);
        REQUIRE(s.pixels() > (1LL << 20));
        CHECK(holds(s));
        CHECK(sm90_first(s) == tu::choice::tiled);
      }
      // One pixel wider, or other pixels of the same shape: the pixel limit.
      CHECK(!holds(shape(sep, r, 1, 4, 257, 32768)));
      CHECK(!holds(shape(sep, r, 1, 2, 128, 65536)));
      CHECK(!holds(shape(sep, r, 1, 1, 128, 65536)));
      CHECK(!holds(shape(sep, r, 4, 4, 128, 65536)));
      // Not the other rules, not batches, not radius 3, not taller than the grids hold.
      for (tu::border_cost b : {tu::border_cost::constant, tu::border_cost::fold}) {
        auto s = shape(sep, r, 1, 4, 128, 65536);
        s.border = b;
        CHECK(!holds(s));
      }
      auto batch = shape(sep, r, 1, 4, 128, 8192);
      batch.images = 2;
      CHECK(!holds(batch));
      CHECK(!holds(shape(sep, 3, 1, 4, 128, 65536)));
      CHECK(!holds(shape(sep, r, 1, 4, 128, 8 * 65535 + 1)));
    }
}

TEST_CASE("tiled_policy: the staged dense kernel for ushort3 above the small shape, in loads of 8 bytes") {
  using lib = tu::tiled_policy<>;
  // tiled_dense_staged_kernel (kernels/tiled_staged.hpp) for ushort3 at radius 1 and 2 in
  // the shape above clamp_separable_small; nothing in the small shape, for uchar3, float3,
  // one and four channels, or beyond radius 2.
  for (int r : {1, 2}) {
    CAPTURE(r);
    CHECK(lib::clamp_dense_staged_bytes(3, 2, r, false) == 8);
    CHECK(lib::clamp_dense_staged_bytes(3, 2, r, true) == 0);
    for (int bytes : {1, 4}) CHECK(lib::clamp_dense_staged_bytes(3, bytes, r, false) == 0);
    for (int bytes : {1, 2, 4}) {
      CHECK(lib::clamp_dense_staged_bytes(1, bytes, r, false) == 0);
      CHECK(lib::clamp_dense_staged_bytes(4, bytes, r, false) == 0);
    }
  }
  CHECK(lib::clamp_dense_staged_bytes(3, 2, 3, false) == 0);
  STATIC_REQUIRE((lib::clamp_dense_staged<3, 2, 1, false> == 8 && lib::clamp_dense_staged<3, 2, 2, false> == 8 &&
                  lib::clamp_dense_staged<3, 2, 1, true> == 0 && lib::clamp_dense_staged<3, 1, 1, false> == 0 &&
                  lib::clamp_dense_staged<3, 4, 2, false> == 0));
  // The kernel's shape there, which group_tile requires to be whole groups of four pixels
  // (8-byte loads of 6-byte pixels): 32 x 4 threads of 1 x 4 outputs, tiles 32 wide.
  STATIC_REQUIRE((lib::clamp_dense_out_x<3, 2, false> == 1 && lib::clamp_dense_rows<3, 2, 1, false> == 4 &&
                  lib::clamp_dense_out_y<3, 2, 2, false> == 4));
}

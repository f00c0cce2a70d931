// [gpu] optimised families against the reference: float -> float (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("shared_mem and two_pass match the reference: float -> float", "[gpu][algos]") {
  gpu_test::family_matrix<float, float>(true);
}

TEST_CASE("tiled with a non-default block shape (16 x 4 threads, 2 x 8 outputs each)", "[gpu][algos]") {
  using namespace gpu_test;
  using shape = algo::tiled<strategy::tile_class, 16, 4, 2, 8>;
  for (const border::any& b : matrix_borders)
    for (int r : {1, 3}) {
      const filter2d f = random_filter(2 * r + 1, 2 * r + 1);
      const separable_filter sf = random_separable(2 * r + 1, 2 * r + 1);
      for (int placement : {0, 5, 8}) {
        const problem p = place(45, 37, placement, halo::from_parent, r, r, r, r, b.rule);
        const auto src = random_image<float>(p.src_w, p.src_h);
        check_against_reference<float, float>(p, f, b, src, [&](image_view<const float> s, image_view<float> d) {
          convolve(s, p.src_roi, d, p.dst_roi, f, b, shape{}, nullptr, p.halo_mode);
        });
        check_against_reference<float, float>(p, sf.to_2d(), b, src, [&](image_view<const float> s, image_view<float> d) {
          convolve(s, p.src_roi, d, p.dst_roi, sf, b, shape{}, nullptr, p.halo_mode);
        });
      }
    }
}

// hipstencil/hipstencil.hpp
// Umbrella header: include this from HIP (hipcc) or CUDA (nvcc) code to get the whole
// library; from a plain C++ compiler it gives the host-only parts (views, filters,
// border maths and the reference).
#pragma once

#include "algorithm.hpp"
#include "batch.hpp"
#include "border.hpp"
#include "convolve.hpp"
#include "convolve_batch.hpp"
#include "convolve_varshape.hpp"
#include "error.hpp"
#include "filter.hpp"
#include "image.hpp"
#include "pixel.hpp"
#include "platform/config.hpp"
#include "platform/runtime.hpp"
#include "reduce.hpp"
#include "reference.hpp"
#include "roi.hpp"
#include "varshape.hpp"

// The pixel type of the one-type A/B drivers (tiled_dense_ab.cu, radii_ab.cu,
// dense_vec_ab.cu), chosen at compile time so that one build per type runs in parallel:
// -DTYPE=0 u8, 1 float (the default), 2 uchar4, 3 u16, 4 uchar3, 5 ushort3, 6 float3. Not
// built by CMake.
#pragma once
#include <hipstencil/hipstencil.hpp>
#include <cstdint>

#ifndef TYPE
#define TYPE 1
#endif
#if TYPE == 0
using T = std::uint8_t;
static const char* tname = "u8";
#elif TYPE == 1
using T = float;
static const char* tname = "float";
#elif TYPE == 2
using T = uchar4;
static const char* tname = "uchar4";
#elif TYPE == 3
using T = std::uint16_t;
static const char* tname = "u16";
#elif TYPE == 4
using T = uchar3;
static const char* tname = "uchar3";
#elif TYPE == 5
using T = ushort3;
static const char* tname = "ushort3";
#elif TYPE == 6
using T = float3;
static const char* tname = "float3";
#else
#error "TYPE: 0 u8, 1 float, 2 uchar4, 3 u16, 4 uchar3, 5 ushort3, 6 float3"
#endif

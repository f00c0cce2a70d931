// examples/common/image_codecs.hpp
// Part of hipstencil_io (image_formats.cpp): the codecs of the optional libraries, one
// translation unit each, so that a build without a library compiles a stub in its place
// (codec_png16.cpp: libpng, codec_tiff.cpp: libtiff). Each decoder takes a whole file in
// memory that image_formats.cpp has recognised by its magic bytes and has checked against
// max_file_bytes; each encoder returns the whole file, which image_formats.cpp writes
// atomically. Internal: not installed, used by image_formats.cpp and the image fuzzer only.
#pragma once

#include "image_formats.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace hipstencil_io {
namespace codecs {

/// Whether codec_png16.cpp / codec_tiff.cpp were built with their library.
bool have_libpng();
bool have_libtiff();

/// Decodes a 16-bit PNG (`data` starts with the PNG signature and its IHDR gives bit depth
/// 16; its header has passed headers::check_header). Grey and grey + alpha give channels 1,
/// RGB and RGBA 4 (a tRNS chunk applied as alpha, as stb does); samples stay 16-bit.
/// @throws std::runtime_error "cannot read image '<name>': ...", not_built_in_text(libpng)
///         without libpng.
raster decode_png16(const unsigned char* data, std::size_t size, const std::string& name);

/// A 16-bit PNG of `channels` (1, 3 or 4) interleaved samples per pixel (2 bytes each, host
/// order), rows tightly packed.
/// @throws std::runtime_error "cannot write PNG '<path>': ...".
std::vector<unsigned char> encode_png16(const unsigned char* samples, int width, int height, int channels,
                                        const std::string& path);

/// Decodes the first image of a TIFF (`data` starts with a TIFF or BigTIFF byte-order mark),
/// as load_raster documents.
/// @throws std::runtime_error "cannot read image '<name>': ...", not_built_in_text(libtiff)
///         without libtiff.
raster decode_tiff(const unsigned char* data, std::size_t size, const std::string& name);

/// A TIFF of `channels` (1, 3 or 4) interleaved host-order samples of type `t` per pixel,
/// rows tightly packed.
/// @throws std::runtime_error "cannot write TIFF '<path>': ...".
std::vector<unsigned char> encode_tiff(const unsigned char* samples, int width, int height, int channels,
                                       sample_type t, const std::string& path);

}  // namespace codecs
}  // namespace hipstencil_io

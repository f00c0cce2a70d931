// Image files made by the tests (see image_files.hpp).

#include "image_files.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace test_images {

namespace {

void append(void* context, void* data, int size) {
  auto* out = static_cast<bytes*>(context);
  const auto* p = static_cast<const unsigned char*>(data);
  out->insert(out->end(), p, p + size);
}

void put16le(bytes& b, unsigned v) {
  b.push_back(static_cast<unsigned char>(v & 0xFF));
  b.push_back(static_cast<unsigned char>((v >> 8) & 0xFF));
}
void put32le(bytes& b, std::uint32_t v) {
  put16le(b, v & 0xFFFF);
  put16le(b, v >> 16);
}
void put32be(bytes& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>((v >> s) & 0xFF));
}

/// CRC-32 of PNG chunks (ISO 3309, as zlib's crc32), bit by bit: the tests write a few bytes.
std::uint32_t crc32(const unsigned char* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}

void put_chunk(bytes& b, const char* type, const bytes& data) {
  put32be(b, static_cast<std::uint32_t>(data.size()));
  bytes typed(type, type + 4);
  typed.insert(typed.end(), data.begin(), data.end());
  b.insert(b.end(), typed.begin(), typed.end());
  put32be(b, crc32(typed.data(), typed.size()));
}

bytes png_signature_and_ihdr(std::uint32_t width, std::uint32_t height) {
  bytes b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  bytes ihdr;
  put32be(ihdr, width);
  put32be(ihdr, height);
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit, RGB, deflate, adaptive filters, no interlace
  put_chunk(b, "IHDR", ihdr);
  return b;
}

}  // namespace

const char* name(kind k) {
  switch (k) {
    case kind::png: return "PNG";
    case kind::jpeg: return "JPEG";
    case kind::bmp: return "BMP";
    default: return "TGA";
  }
}

bytes pattern(int width, int height, int channels, unsigned seed) {
  bytes p;
  p.reserve(std::size_t(width) * std::size_t(height) * std::size_t(channels));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c)
        p.push_back(
            static_cast<unsigned char>((37u * unsigned(x) + 71u * unsigned(y) + 101u * unsigned(c) + seed) & 0xFF));
  return p;
}

bytes encode(kind k, int width, int height, int channels, const bytes& pixels) {
  bytes out;
  int ok = 0;
  switch (k) {
    case kind::png: ok = stbi_write_png_to_func(append, &out, width, height, channels, pixels.data(), 0); break;
    case kind::jpeg: ok = stbi_write_jpg_to_func(append, &out, width, height, channels, pixels.data(), 100); break;
    case kind::bmp: ok = stbi_write_bmp_to_func(append, &out, width, height, channels, pixels.data()); break;
    case kind::tga_rle:
    case kind::tga_raw:
      stbi_write_tga_with_rle = k == kind::tga_rle ? 1 : 0;
      ok = stbi_write_tga_to_func(append, &out, width, height, channels, pixels.data());
      break;
  }
  if (!ok) throw std::runtime_error(std::string("stb_image_write failed to write a ") + name(k));
  return out;
}

bytes bmp24(int width, int height, const bytes& rgb, bool top_down) {
  const std::uint32_t row = (std::uint32_t(width) * 3 + 3) / 4 * 4;
  const std::uint32_t data = row * std::uint32_t(height);
  bytes b = {'B', 'M'};
  put32le(b, 54 + data);  // file size
  put32le(b, 0);          // reserved
  put32le(b, 54);         // offset of the pixels
  put32le(b, 40);         // BITMAPINFOHEADER
  put32le(b, std::uint32_t(width));
  put32le(b, std::uint32_t(top_down ? -height : height));
  put16le(b, 1);   // planes
  put16le(b, 24);  // bits per pixel
  put32le(b, 0);   // BI_RGB
  put32le(b, data);
  put32le(b, 2835);  // 72 dpi
  put32le(b, 2835);
  put32le(b, 0);
  put32le(b, 0);
  for (int r = 0; r < height; ++r) {
    const int y = top_down ? r : height - 1 - r;  // the image row stored r-th
    for (int x = 0; x < width; ++x) {
      const unsigned char* p = &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3];
      b.insert(b.end(), {p[2], p[1], p[0]});  // BGR
    }
    b.insert(b.end(), row - std::uint32_t(width) * 3, 0);
  }
  return b;
}

bytes png_header_only(std::uint32_t width, std::uint32_t height) { return png_signature_and_ihdr(width, height); }

bytes png_with_size(std::uint32_t width, std::uint32_t height) {
  bytes b = png_signature_and_ihdr(width, height);
  put_chunk(b, "IDAT", {0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01});  // zlib: one 0 byte
  put_chunk(b, "IEND", {});
  return b;
}

void write_file(const std::string& path, const bytes& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace test_images

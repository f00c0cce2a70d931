// Image files made by the tests (see image_files.hpp).

#include "image_files.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>

// stb's decoder too, as a second opinion on what the program writes: a copy of its own
// (static functions), apart from the one in the loader under test.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <stb/stb_image.h>
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

bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

samples16 pattern16(int width, int height, int channels, unsigned seed) {
  samples16 p;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c)
        p.push_back(static_cast<std::uint16_t>(
            (9473u * unsigned(x) + 20011u * unsigned(y) + 4099u * unsigned(c) + 257u * seed + 300u) & 0xFFFF));
  return p;
}

std::vector<float> pattern_float(int width, int height, int channels, unsigned seed) {
  static const float specials[] = {-0.0f, 1e-40f, -3.4e38f, 3.3e38f, 1.0f / 3.0f, -2.75f, 65536.5f, 1e-8f};
  std::vector<float> p;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c) {
        const unsigned k = unsigned(x) * 7u + unsigned(y) * 13u + unsigned(c) * 5u + seed;
        p.push_back(k % 5 == 0 ? specials[k / 5 % 8] : std::sin(float(k)) * float(1 + (k % 9)) * 0.37f);
      }
  return p;
}

namespace {

std::uint32_t adler32(const bytes& b) {
  std::uint32_t a = 1, s = 0;
  for (unsigned char v : b) a = (a + v) % 65521u, s = (s + a) % 65521u;
  return s << 16 | a;
}

/// `raw` as a zlib stream of stored (uncompressed) deflate blocks.
bytes zlib_stored(const bytes& raw) {
  bytes z = {0x78, 0x01};
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min<std::size_t>(65535, raw.size() - pos);
    z.push_back(pos + n == raw.size() ? 1 : 0);  // BFINAL on the last block, BTYPE 00 (stored)
    put16le(z, unsigned(n));
    put16le(z, unsigned(~n & 0xFFFF));
    z.insert(z.end(), raw.begin() + std::ptrdiff_t(pos), raw.begin() + std::ptrdiff_t(pos + n));
    pos += n;
  } while (pos < raw.size());
  put32be(z, adler32(raw));
  return z;
}

}  // namespace

bytes png16(int width, int height, int channels, const samples16& samples) {
  static const unsigned char colour_type[] = {0, 0, 4, 2, 6};
  bytes b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  bytes ihdr;
  put32be(ihdr, std::uint32_t(width));
  put32be(ihdr, std::uint32_t(height));
  ihdr.insert(ihdr.end(), {16, colour_type[channels], 0, 0, 0});
  put_chunk(b, "IHDR", ihdr);
  bytes raw;
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);  // filter: none
    for (int i = 0; i < width * channels; ++i) {
      const std::uint16_t v = samples[std::size_t(y) * std::size_t(width * channels) + std::size_t(i)];
      raw.push_back(static_cast<unsigned char>(v >> 8));
      raw.push_back(static_cast<unsigned char>(v & 0xFF));
    }
  }
  put_chunk(b, "IDAT", zlib_stored(raw));
  put_chunk(b, "IEND", {});
  return b;
}

bytes tiff(int width, int height, int channels, int bits, const void* samples, bool big_endian) {
  const auto put = [&](bytes& b, std::uint32_t v, int size) {
    for (int i = 0; i < size; ++i) {
      const int shift = 8 * (big_endian ? size - 1 - i : i);
      b.push_back(static_cast<unsigned char>((v >> shift) & 0xFF));
    }
  };
  const std::size_t count = std::size_t(width) * std::size_t(height) * std::size_t(channels);
  const int sb = bits / 8;
  bytes b = big_endian ? bytes{'M', 'M', 0, 42} : bytes{'I', 'I', 42, 0};
  const std::uint32_t data_at = 8, data_size = std::uint32_t(count) * std::uint32_t(sb);
  const std::uint32_t arrays_at = data_at + data_size + (data_size & 1);  // word-aligned
  const std::uint32_t ifd_at = arrays_at + 4 * std::uint32_t(channels);
  put(b, ifd_at, 4);
  const auto* p = static_cast<const unsigned char*>(samples);
  for (std::size_t i = 0; i < count; ++i) {  // each sample in the file's byte order
    std::uint32_t v = 0;
    if (sb == 1) v = p[i];
    else if (sb == 2) { std::uint16_t s; std::memcpy(&s, p + 2 * i, 2); v = s; }
    else std::memcpy(&v, p + 4 * i, 4);
    put(b, v, sb);
  }
  if (data_size & 1) b.push_back(0);
  for (int c = 0; c < channels; ++c) put(b, std::uint32_t(bits), 2);  // BitsPerSample, one per sample
  for (int c = 0; c < channels; ++c) put(b, bits == 32 ? 3u : 1u, 2);  // SampleFormat: IEEE float or unsigned
  struct entry { std::uint16_t tag, type; std::uint32_t count, value; };
  std::vector<entry> e = {
      {256, 4, 1, std::uint32_t(width)}, {257, 4, 1, std::uint32_t(height)},
      {258, 3, std::uint32_t(channels), arrays_at}, {259, 3, 1, 1}, {262, 3, 1, channels >= 3 ? 2u : 1u},
      {273, 4, 1, data_at}, {277, 3, 1, std::uint32_t(channels)}, {278, 4, 1, std::uint32_t(height)},
      {279, 4, 1, data_size}, {284, 3, 1, 1}};
  if (channels == 2 || channels == 4) e.push_back({338, 3, 1, 2});  // ExtraSamples: unassociated alpha
  e.push_back({339, 3, std::uint32_t(channels), arrays_at + 2 * std::uint32_t(channels)});
  put(b, std::uint32_t(e.size()), 2);
  for (const entry& x : e) {
    put(b, x.tag, 2);
    put(b, x.type, 2);
    put(b, x.count, 4);
    const bool per_sample = x.tag == 258 || x.tag == 339;
    if (per_sample && channels <= 2) {  // one or two SHORTs fit the value field, left-justified
      const std::uint32_t v = x.tag == 258 ? std::uint32_t(bits) : bits == 32 ? 3u : 1u;
      put(b, v, 2);
      put(b, channels == 2 ? v : 0u, 2);
    } else if (x.type == 3 && x.count == 1) {
      put(b, x.value, 2);
      put(b, 0, 2);
    } else {
      put(b, x.value, 4);
    }
  }
  put(b, 0, 4);  // no next IFD
  return b;
}

stb_image stb_decode8(const bytes& file) {
  stb_image r;
  std::unique_ptr<unsigned char, void (*)(void*)> p(
      stbi_load_from_memory(file.data(), int(file.size()), &r.width, &r.height, &r.channels, 0), stbi_image_free);
  if (!p) throw std::runtime_error(std::string("stb cannot decode the file: ") + stbi_failure_reason());
  r.u8.assign(p.get(), p.get() + std::size_t(r.width) * std::size_t(r.height) * std::size_t(r.channels));
  return r;
}

stb_image stb_decode16(const bytes& file) {
  stb_image r;
  std::unique_ptr<stbi_us, void (*)(void*)> p(
      stbi_load_16_from_memory(file.data(), int(file.size()), &r.width, &r.height, &r.channels, 0), stbi_image_free);
  if (!p) throw std::runtime_error(std::string("stb cannot decode the file: ") + stbi_failure_reason());
  r.u16.assign(p.get(), p.get() + std::size_t(r.width) * std::size_t(r.height) * std::size_t(r.channels));
  return r;
}

bool built_with(hipstencil_io::library l) {
  if (hipstencil_io::built_in(l)) return true;
  std::printf("skipped: built without %s\n", l == hipstencil_io::library::libpng ? "libpng" : "libtiff");
  return false;
}

void write_file(const std::string& path, const bytes& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace test_images

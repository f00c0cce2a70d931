// examples/common/image_headers.cpp
// Image file headers, read without stb (image_headers.hpp says why).

#include "image_headers.hpp"

#include "image_io.hpp"

#include <cstdint>
#include <cstring>

namespace hipstencil_io {
namespace headers {

const char* format_name(format f) {
  switch (f) {
    case format::png: return "PNG";
    case format::jpeg: return "JPEG";
    case format::bmp: return "BMP";
    case format::tga: return "TGA";
    default: return "image";
  }
}

namespace {

struct bytes_at {
  const unsigned char* p;
  std::size_t n;
  bool has(std::size_t offset, std::size_t count) const { return offset <= n && count <= n - offset; }
  unsigned u8(std::size_t i) const { return p[i]; }
  unsigned u16le(std::size_t i) const { return p[i] | unsigned(p[i + 1]) << 8; }
  unsigned u16be(std::size_t i) const { return unsigned(p[i]) << 8 | p[i + 1]; }
  std::uint32_t u32le(std::size_t i) const { return std::uint32_t(u16le(i)) | std::uint32_t(u16le(i + 2)) << 16; }
  std::uint32_t u32be(std::size_t i) const { return std::uint32_t(u16be(i)) << 16 | std::uint32_t(u16be(i + 2)); }
};

unsigned long long ceil_div(unsigned long long a, unsigned long long b) { return (a + b - 1) / b; }

void read_png_header(const bytes_at& b, header& h) {
  // After the 8-byte signature, the first chunk must be IHDR: length, "IHDR", width, height.
  if (b.has(12, 12) && std::memcmp(b.p + 12, "IHDR", 4) == 0) {
    h.has_size = true;
    h.width = b.u32be(16);
    h.height = b.u32be(20);
  }
  // The chunks up to IEND, as stb reads them (length, type, data, CRC) must all be there:
  // stb would first allocate an IDAT chunk's stated length, up to 2 GiB for a file of a
  // few bytes, and a file without IEND is cut short.
  for (std::size_t pos = 8;;) {
    if (!b.has(pos, 8)) {
      h.truncated = "it ends before its IEND chunk";
      break;
    }
    const std::uint32_t length = b.u32be(pos);
    if (std::memcmp(b.p + pos + 4, "IEND", 4) == 0) break;
    if (!b.has(pos + 8, std::size_t(length) + 4)) {
      bool letters = true;
      for (std::size_t i = 4; i < 8; ++i) letters = letters && std::isalpha(b.u8(pos + i));
      h.truncated = (letters ? "its " + std::string(b.p + pos + 4, b.p + pos + 8) + " chunk" : std::string("a chunk")) +
                    " at byte " + std::to_string(pos) + " runs past the end";
      break;
    }
    pos += 12 + std::size_t(length);
  }
  if (!h.has_size || !b.has(24, 2) || h.width < 1 || h.height < 1) return;
  // The filtered rows (a filter byte and the row's bits each; more when interlaced) come
  // out of deflate, which expands its input at most 1032 times: even at twice that, the
  // file holds signature, IHDR, an IDAT and raw / 2064 bytes.
  const unsigned depth = b.u8(24), color = b.u8(25);
  const unsigned samples = color == 0 ? 1 : color == 2 ? 3 : color == 3 ? 1 : color == 4 ? 2 : color == 6 ? 4 : 0;
  if (samples == 0 || depth == 0 || depth > 16) return;  // stb rejects these itself
  const unsigned long long raw =
      (unsigned long long)h.height * (1 + ceil_div((unsigned long long)h.width * samples * depth, 8));
  h.min_bytes = 8 + 25 + 12 + raw / 2064;
}

void read_jpeg_header(const bytes_at& b, std::size_t pos, header& h) {
  // Walk the marker segments up to the frame header (SOF0, 1 or 2: those stb decodes),
  // skipping what stb skips. Stops without a size at anything else.
  for (;;) {
    while (b.has(pos, 1) && b.u8(pos) != 0xFF) ++pos;  // stb skips bytes between segments
    while (b.has(pos, 1) && b.u8(pos) == 0xFF) ++pos;  // fill bytes
    if (!b.has(pos, 1)) return;
    const unsigned m = b.u8(pos++);
    if (m == 0xC0 || m == 0xC1 || m == 0xC2) {
      if (!b.has(pos, 8)) return;
      const std::size_t length = b.u16be(pos);
      const unsigned components = b.u8(pos + 7);
      if (length < 8 + 3 * std::size_t(components) || components == 0 || !b.has(pos + 8, 3 * std::size_t(components)))
        return;
      h.has_size = true;
      h.height = b.u16be(pos + 3);
      h.width = b.u16be(pos + 5);
      unsigned hmax = 1, vmax = 1;
      for (unsigned c = 0; c < components; ++c) {
        const unsigned hv = b.u8(pos + 8 + 3 * c + 1);
        hmax = std::max(hmax, hv >> 4);
        vmax = std::max(vmax, hv & 15u);
      }
      if (h.width < 1 || h.height < 1 || hmax > 4 || vmax > 4) return;  // stb rejects these itself
      // Every 8x8 block of every component carries at least one bit (its DC code, in the
      // scan that holds it), all after the frame header: at least the blocks of the
      // component with the most of them, component c covering ceil(width * hc / hmax) x
      // ceil(height * vc / vmax) pixels.
      unsigned long long blocks = 0;
      for (unsigned c = 0; c < components; ++c) {
        const unsigned hv = b.u8(pos + 8 + 3 * c + 1), hc = hv >> 4, vc = hv & 15u;
        if (hc == 0 || vc == 0) return;
        blocks = std::max(blocks, ceil_div(ceil_div((unsigned long long)h.width * hc, hmax), 8) *
                                      ceil_div(ceil_div((unsigned long long)h.height * vc, vmax), 8));
      }
      h.min_bytes = pos + length + ceil_div(blocks, 8);
      return;
    }
    const bool skipped = m == 0xC4 || m == 0xDB || m == 0xDD || (m >= 0xE0 && m <= 0xEF) || m == 0xFE;
    if (!skipped || !b.has(pos, 2)) return;
    pos += b.u16be(pos);
  }
}

/// What makes a JPEG unsafe for stb 2.27's decoder, or null. Its Huffman tables: stb stores
/// a table declaring more than 256 codes without checking, past the end of its arrays; and
/// it decodes a scan with a table no segment has defined, from uninitialised memory (and
/// then indexes its arrays with what it finds there). Follows the segments as stb does:
/// between them, anything up to an FF is skipped; every segment but a scan's entropy-coded
/// data is skipped by its length; entropy-coded data end at the first FF followed by
/// neither 00 (a stuffed FF) nor a restart marker. Stops (null) at EOI, at the end of the
/// data, and where stb stops with an error of its own. Bytes past the end count as zeros,
/// as stb reads them.
const char* jpeg_table_problem(const bytes_at& b, std::size_t pos) {
  const auto byte = [&](std::size_t i) { return b.has(i, 1) ? b.u8(i) : 0u; };
  bool defined[2][4] = {};  // [DC, AC][table id]
  bool progressive = false, seen_frame = false, in_scan = false;
  for (;;) {
    if (in_scan) {
      for (;;) {
        while (b.has(pos, 1) && b.u8(pos) != 0xFF) ++pos;
        while (b.has(pos, 1) && b.u8(pos) == 0xFF) ++pos;
        if (!b.has(pos, 1)) return nullptr;
        const unsigned m = b.u8(pos);
        if (m != 0x00 && (m < 0xD0 || m > 0xD7)) break;
        ++pos;
      }
    } else {
      while (b.has(pos, 1) && b.u8(pos) != 0xFF) ++pos;
      while (b.has(pos, 1) && b.u8(pos) == 0xFF) ++pos;
      if (!b.has(pos, 1)) return nullptr;
    }
    const unsigned m = b.u8(pos++);
    if (m == 0xD9) return nullptr;  // EOI
    const unsigned length = byte(pos) << 8 | byte(pos + 1);
    if (length < 2) return nullptr;  // stb rejects it
    const std::size_t end = pos + length;
    in_scan = false;
    if (m == 0xC4) {  // DHT: tables of a class/id byte, 16 code counts, the symbols
      std::size_t t = pos + 2;
      while (t < end) {
        const unsigned q = byte(t);
        if ((q >> 4) > 1 || (q & 15) > 3) return nullptr;  // stb: "bad DHT header"
        unsigned codes = 0;
        for (std::size_t i = 1; i <= 16; ++i) codes += byte(t + i);
        if (codes > 256) return "a Huffman table declares more than 256 codes";
        defined[q >> 4][q & 15] = true;
        t += 17 + codes;
      }
      if (t != end) return nullptr;  // stb: a table runs past its segment, an error
    } else if (m == 0xC0 || m == 0xC1 || m == 0xC2) {
      if (!seen_frame) progressive = m == 0xC2;
      seen_frame = true;
    } else if (m == 0xDA) {  // SOS: components (id, DC/AC table ids), Ss, Se, Ah/Al
      const unsigned n = byte(pos + 2);
      if (n < 1 || n > 4 || length != 6 + 2 * n) return nullptr;  // stb: "bad SOS"
      const unsigned ss = byte(pos + 3 + 2 * n), ah = byte(pos + 5 + 2 * n) >> 4;
      const bool uses_dc = !progressive || (ss == 0 && ah == 0), uses_ac = !progressive || ss != 0;
      for (unsigned c = 0; c < n; ++c) {
        const unsigned tables = byte(pos + 4 + 2 * c);
        if ((tables >> 4) > 3 || (tables & 15) > 3) return nullptr;  // stb: "bad DC huff" / "bad AC huff"
        if ((uses_dc && !defined[0][tables >> 4]) || (uses_ac && !defined[1][tables & 15]))
          return "a scan uses a Huffman table that no DHT segment defines";
      }
      in_scan = true;  // the header, then entropy-coded data
    } else if (!(m == 0xDB || m == 0xDC || m == 0xDD || (m >= 0xE0 && m <= 0xEF) || m == 0xFE)) {
      return nullptr;  // a marker stb does not take: it stops there
    }
    pos = end;
  }
}

void read_bmp_header(const bytes_at& b, header& h) {
  // The 14-byte file header, then an info header of 12, 40, 56, 108 or 124 bytes (its size
  // first), which stb reads whole: cut short, stb would read zeros in its place, and size
  // and allocate from them.
  if (!b.has(14, 4)) {
    h.truncated = "it ends inside its header";
    return;
  }
  const std::uint32_t header_size = b.u32le(14);
  const bool known =
      header_size == 12 || header_size == 40 || header_size == 56 || header_size == 108 || header_size == 124;
  if (known && !b.has(0, 14 + std::size_t(header_size))) {
    h.truncated = "it ends inside its header";
    return;
  }
  unsigned bpp = 0;
  std::uint32_t compression = 0;
  if (header_size == 12) {
    h.width = b.u16le(18);
    h.height = b.u16le(20);
    bpp = b.u16le(24);
  } else if (known) {
    h.width = std::int32_t(b.u32le(18));
    h.height = std::int32_t(b.u32le(22));  // negative: rows stored top-down
    bpp = b.u16le(28);
    compression = b.u32le(30);
  } else {
    h.corrupt = "its info header is not of 12, 40, 56, 108 or 124 bytes";
    return;
  }
  h.has_size = true;
  if (h.height < 0) h.height = -h.height;
  // Uncompressed or bit fields: every row holds at least its pixels, after the headers (a
  // lower bound: the rows' padding to 4 bytes and any palette are not counted). stb reads
  // 1, 4 and 8 bits per pixel as such, 16 and 24 too, and any other depth of 16 or more as
  // 32 (it rejects the others). It takes every compression but 1, 2 (RLE) and 4 and over,
  // as a signed number: a negative one reads as uncompressed.
  const unsigned long long w = h.width > 0 ? (unsigned long long)h.width : 0;
  unsigned long long row = 0;
  if (bpp == 1 || bpp == 4 || bpp == 8)
    row = ceil_div(w * bpp, 8);
  else if (bpp >= 16)
    row = w * (bpp == 16 ? 2 : bpp == 24 ? 3 : 4);
  const std::int32_t signed_compression = std::int32_t(compression);
  if (signed_compression != 1 && signed_compression != 2 && signed_compression < 4 && row > 0 && h.height > 0)
    h.min_bytes = 14 + header_size + (unsigned long long)h.height * row;
}

/// The header test of stb's TGA decoder (TGA has no magic number).
bool read_tga_header(const bytes_at& b, header& h) {
  if (!b.has(0, 17)) return false;
  const unsigned colormap_type = b.u8(1), type = b.u8(2), bpp = b.u8(16);
  if (colormap_type > 1) return false;
  if (colormap_type == 1) {
    if (type != 1 && type != 9) return false;
    const unsigned entry_bits = b.u8(7);
    if (entry_bits != 8 && entry_bits != 15 && entry_bits != 16 && entry_bits != 24 && entry_bits != 32) return false;
    if (bpp != 8 && bpp != 16) return false;
  } else if (type != 2 && type != 3 && type != 10 && type != 11) {
    return false;
  }
  if (bpp != 8 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32) return false;
  h.width = b.u16le(12);
  h.height = b.u16le(14);
  if (h.width < 1 || h.height < 1) return false;
  h.has_size = true;
  // Pixels: uncompressed, (bpp + 7) / 8 bytes each; run-length coded, at least a packet
  // header and one byte of pixel per 128 pixels. After the 18-byte header and the ID field.
  const unsigned long long pixels = (unsigned long long)h.width * (unsigned long long)h.height;
  const unsigned long long data = type >= 8 ? 2 * ceil_div(pixels, 128) : pixels * ((bpp + 7) / 8);
  h.min_bytes = 18 + b.u8(0) + data;
  return true;
}

}  // namespace

header read_header(const unsigned char* data, std::size_t size) {
  static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  const bytes_at b{data, size};
  header h;
  if (size >= 8 && std::memcmp(data, png_signature, 8) == 0) {
    h.fmt = format::png;
    read_png_header(b, h);
  } else if (size >= 2 && data[0] == 0xFF) {
    std::size_t pos = 1;
    while (pos < size && data[pos] == 0xFF) ++pos;  // stb accepts fill bytes before SOI
    if (pos < size && data[pos] == 0xD8) {
      // stb's format test reads the fill bytes too, and when they run past its 128-byte
      // buffer, it cannot go back to the start: it would decode from stale bytes. It gets
      // the file from the last fill byte on.
      h.start = pos - 1;
      h.fmt = format::jpeg;
      read_jpeg_header(b, pos + 1, h);
      h.corrupt = jpeg_table_problem(b, pos + 1);
    }
  } else if (size >= 2 && data[0] == 'B' && data[1] == 'M') {
    h.fmt = format::bmp;
    read_bmp_header(b, h);
  }
  if (h.fmt == format::unknown && read_tga_header(b, h)) h.fmt = format::tga;
  return h;
}

/// The PNG without its empty IDAT chunks, or an empty vector when it has none. An empty IDAT
/// is valid (and adds nothing to the image data), but stb 2.27 copies a first one into a
/// buffer it has not allocated yet (memcpy to a null pointer, of 0 bytes: undefined
/// behaviour). Chunks are walked as stb walks them (length, type, data, CRC); whatever
/// follows IEND or a chunk that runs past the end is kept as it is.
std::vector<unsigned char> png_without_empty_idat(const unsigned char* data, std::size_t size) {
  const bytes_at b{data, size};
  std::vector<std::size_t> empty;  // offsets of the empty IDAT chunks
  std::size_t pos = 8;
  while (b.has(pos, 12)) {
    const std::uint32_t length = b.u32be(pos);
    if (length == 0 && std::memcmp(data + pos + 4, "IDAT", 4) == 0) empty.push_back(pos);
    if (std::memcmp(data + pos + 4, "IEND", 4) == 0 || !b.has(pos + 12, length)) break;
    pos += 12 + std::size_t(length);
  }
  std::vector<unsigned char> out;
  if (empty.empty()) return out;
  out.reserve(size);
  std::size_t from = 0;
  for (std::size_t e : empty) {
    out.insert(out.end(), data + from, data + e);
    from = e + 12;
  }
  out.insert(out.end(), data + from, data + size);
  return out;
}

std::string size_text(long long w, long long h) { return std::to_string(w) + "x" + std::to_string(h); }

/// Rejects what the header alone shows to be unusable: no known format, an empty or too
/// large size, a file shorter than its size needs.
void check_header(const header& h, std::size_t size, const std::string& name) {
  const char* what = "cannot read image";
  if (size == 0) fail(what, name, "empty file");
  if (h.fmt == format::unknown) fail(what, name, "not an image of a supported format (PNG, JPEG, BMP, TGA)");
  const std::string f = format_name(h.fmt);
  if (h.has_size) {  // the size first: it is what the header says, whatever follows
    if (h.width < 1 || h.height < 1)
      fail(what, name, f + " header gives an invalid size: " + size_text(h.width, h.height) + " pixels");
    if (h.width > max_side || h.height > max_side || h.width * h.height > max_pixels)
      fail(what, name,
           f + " image of " + size_text(h.width, h.height) + " pixels is too large (the limits are " +
               std::to_string(max_pixels) + " pixels, e.g. 16384x8192, and " + std::to_string(max_side) + " a side)");
  }
  if (h.corrupt) fail(what, name, "corrupt " + f + " file: " + h.corrupt);
  if (!h.truncated.empty()) fail(what, name, "truncated " + f + " file: " + h.truncated);
  if (h.has_size && h.min_bytes > size)
    fail(what, name,
         "truncated " + f + " file: it has " + std::to_string(size) + " bytes, a " + size_text(h.width, h.height) +
             " " + f + " needs at least " + std::to_string(h.min_bytes));
}

}  // namespace headers
}  // namespace hipstencil_io

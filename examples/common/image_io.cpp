// examples/common/image_io.cpp
// The stb-backed part of hipstencil_io: decoding, PNG and JPEG encoding, and atomic file
// writing, on plain bytes.
// This is the only translation unit that holds stb's implementation. Files are read whole
// into memory and decoded from there through stb's I/O callbacks (see memory_reader).

#include "image_io.hpp"

#include "image_headers.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

// stb's implementation, restricted to the formats we document, with its functions static
// so they cannot clash with another copy of stb linked into the same program.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_FAILURE_USERMSG
// Every buffer stb_image allocates starts zeroed. Its JPEG decoder reads memory it never
// wrote on some corrupt files (a progressive scan's refinement reads coefficients no earlier
// scan set, and those bits steer the Huffman decoding), so with plain malloc the same bytes
// decoded or failed depending on what the heap held before: one call took a file that the
// next rejected. Zeroed buffers make a decode a function of the file alone. The cost is
// nil for large images (calloc takes fresh pages from the kernel, already zero).
#define STBI_MALLOC(size) std::calloc(1, size)
#define STBI_REALLOC_SIZED(p, old_size, new_size) hipstencil_io::detail::stb_realloc_zeroed(p, old_size, new_size)
#define STBI_FREE(p) std::free(p)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
namespace hipstencil_io::detail {
/// realloc for stb_image that zeroes the bytes past `old_size` (see STBI_MALLOC above).
inline void* stb_realloc_zeroed(void* p, std::size_t old_size, std::size_t new_size) {
  void* q = std::realloc(p, new_size);
  if (q && new_size > old_size) std::memset(static_cast<unsigned char*>(q) + old_size, 0, new_size - old_size);
  return q;
}
}  // namespace hipstencil_io::detail

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

namespace hipstencil_io {

namespace {

using namespace headers;

std::string errno_text(int e) { return std::strerror(e); }

}  // namespace

namespace detail {

std::vector<unsigned char> read_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fail("cannot open", path, "is a directory");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", path, errno_text(errno));
  struct fd_closer {
    int fd;
    ~fd_closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > max_file_bytes)
    fail("cannot read image", path,
         "the file is too large (" + std::to_string(st.st_size) + " bytes; the limit is " +
             std::to_string(max_file_bytes) + ")");
  std::vector<unsigned char> bytes;
  if (S_ISREG(st.st_mode)) bytes.reserve(std::size_t(st.st_size));
  unsigned char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", path, errno_text(errno));
    }
    if (n == 0) break;
    bytes.insert(bytes.end(), buf, buf + n);
    if (bytes.size() > std::size_t(max_file_bytes))
      fail("cannot read image", path, "the file is too large (over " + std::to_string(max_file_bytes) + " bytes)");
  }
  return bytes;
}

}  // namespace detail

namespace {

/// Forgets stb's last failure reason (a per-thread variable that only failures set), so that
/// a reason found after a call comes from that call.
void clear_stb_reason() { (void)stbi__err(nullptr, nullptr); }


/// stb's I/O callbacks over bytes in memory, recording whether the decoder asked for bytes
/// past the end. stb reads through a 128-byte buffer of its own, refilled whenever it runs
/// out (its first read is such a refill, and a short refill is normal at the end of the
/// data); the end is overrun when a read finds no bytes left (stb then goes on with zeros),
/// a read into any other buffer (stb's bulk reads of chunk and row data) comes back short,
/// or a skip goes past the end (even the padding of a BMP's last row must be there).
struct memory_reader {
  const unsigned char* data;
  std::size_t size;
  std::size_t pos = 0;
  const char* refill_buffer = nullptr;
  bool overran = false;

  static int read(void* user, char* out, int n) {
    auto* r = static_cast<memory_reader*>(user);
    if (!r->refill_buffer) r->refill_buffer = out;
    if (n <= 0) return 0;
    const std::size_t left = r->pos < r->size ? r->size - r->pos : 0;
    if (left == 0) {
      r->overran = true;
      return 0;
    }
    const std::size_t k = std::min(left, std::size_t(n));
    std::memcpy(out, r->data + r->pos, k);
    r->pos += k;
    if (k < std::size_t(n) && out != r->refill_buffer) r->overran = true;
    return int(k);
  }
  static void skip(void* user, int n) {
    auto* r = static_cast<memory_reader*>(user);
    if (n >= 0) {
      if (std::size_t(n) > r->size - std::min(r->pos, r->size)) r->overran = true;
      r->pos = std::min(r->size, r->pos + std::size_t(n));
    } else {
      r->pos -= std::min(r->pos, std::size_t(-(long long)n));
    }
  }
  static int eof(void* user) {
    auto* r = static_cast<memory_reader*>(user);
    return r->pos >= r->size;
  }
};

const stbi_io_callbacks memory_callbacks = {&memory_reader::read, &memory_reader::skip, &memory_reader::eof};

void check_data(const unsigned char* data, std::size_t size, const std::string& name) {
  if (!data && size != 0) fail("cannot read image", name, "null data with a size of " + std::to_string(size));
  if (size > std::size_t(max_file_bytes))
    fail("cannot read image", name,
         "the file is too large (" + std::to_string(size) + " bytes; the limit is " + std::to_string(max_file_bytes) +
             ")");
}

/// Why stb failed to decode a file of format f: its reason, unless the decoder of f gave none
/// and the reason left is one the other formats' tests set when they turn the file down
/// (stb tries PNG, BMP, JPEG, then TGA), or there is none.
std::string stb_reason(format f) {
  const char* r = stbi_failure_reason();
  const std::string reason = r ? r : "";
  const bool other_test = reason == "Not a PNG" || (f == format::tga && reason == "Corrupt JPEG");
  if (reason.empty() || (f != format::png && other_test))
    return std::string("corrupt ") + format_name(f) + " data";
  return reason;
}

[[noreturn]] void fail_truncated(format f, const std::string& name) {
  fail("cannot read image", name,
       std::string("truncated ") + format_name(f) + " file: it ends before its image data do");
}

}  // namespace

namespace detail {

decoded decode_memory(const unsigned char* data, std::size_t size, int desired_channels, const std::string& name) {
  const char* what = "cannot read image";
  if (desired_channels < 1 || desired_channels > 4)
    fail(what, name, "desired_channels must be 1 to 4, got " + std::to_string(desired_channels));
  check_data(data, size, name);
  const header h = read_header(data, size);
  check_header(h, size, name);

  std::vector<unsigned char> stripped;
  if (h.fmt == format::png) stripped = png_without_empty_idat(data, size);
  memory_reader reader = stripped.empty() ? memory_reader{data + h.start, size - h.start}
                                          : memory_reader{stripped.data(), stripped.size()};
  decoded d;
  clear_stb_reason();
  unsigned char* p =
      stbi_load_from_callbacks(&memory_callbacks, &reader, &d.width, &d.height, &d.file_channels, desired_channels);
  std::unique_ptr<unsigned char, void (*)(void*)> owner(p, stbi_image_free);
  if (reader.overran) fail_truncated(h.fmt, name);
  if (!p) fail(what, name, std::string("the ") + format_name(h.fmt) + " decoder failed: " + stb_reason(h.fmt));
  const std::string f = format_name(h.fmt);
  if (d.width < 1 || d.height < 1)
    fail(what, name, "the " + f + " decoder gave an empty " + size_text(d.width, d.height) + " image");
  if (d.width > max_side || d.height > max_side || (long long)d.width * d.height > max_pixels)
    fail(what, name, f + " image of " + size_text(d.width, d.height) + " pixels is too large");
  d.channels = desired_channels;
  d.pixels.assign(p, p + std::size_t(d.width) * std::size_t(d.height) * std::size_t(desired_channels));
  return d;
}

image_info info_memory(const unsigned char* data, std::size_t size, const std::string& name) {
  check_data(data, size, name);
  const header h = read_header(data, size);
  check_header(h, size, name);

  memory_reader reader{data + h.start, size - h.start};
  image_info info;
  if (stbi_info_from_callbacks(&memory_callbacks, &reader, &info.width, &info.height, &info.channels) &&
      !reader.overran) {
    if (h.fmt == format::bmp && info.height < 0 && info.height != std::numeric_limits<int>::min())
      info.height = -info.height;  // stb reports a top-down BMP's height as stored; its decoder, as a size
    if (info.width >= 1 && info.height >= 1 && (!h.has_size || (info.width == h.width && info.height == h.height)))
      return info;
  }
  // No header stb accepts (or one that disagrees with ours): the decoder names the reason
  // for this format (stb's info tries every format and reports the last failure).
  const decoded d = decode_memory(data, size, 4, name);
  return image_info{d.width, d.height, d.file_channels};
}

}  // namespace detail

image_info read_info(const std::string& path) {
  const std::vector<unsigned char> bytes = detail::read_file(path);
  return detail::info_memory(bytes.data(), bytes.size(), path);
}

namespace detail {

decoded decode(const std::string& path, int desired_channels) {
  if (desired_channels < 1 || desired_channels > 4)
    fail("cannot read image", path, "desired_channels must be 1 to 4, got " + std::to_string(desired_channels));
  const std::vector<unsigned char> bytes = detail::read_file(path);
  return decode_memory(bytes.data(), bytes.size(), desired_channels, path);
}

namespace {

/// Sink for stb_image_write's *_to_func writers: appends to a byte vector.
void append_bytes(void* context, void* data, int size) {
  if (size <= 0) return;
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  const auto* p = static_cast<const unsigned char*>(data);
  out->insert(out->end(), p, p + size);
}

/// Removes the temporary file unless released (after a successful rename).
struct temp_file {
  std::string path;
  int fd = -1;
  bool keep = false;
  ~temp_file() {
    if (fd >= 0) ::close(fd);
    if (!keep && !path.empty()) ::unlink(path.c_str());
  }
};

mode_t default_file_mode() {
  const mode_t mask = ::umask(0);  // read the umask (there is no getter) and restore it
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

std::vector<unsigned char> stb_encode_png(const unsigned char* data, int width, int height, int channels,
                                          std::size_t stride) {
  std::vector<unsigned char> out;
  if (!stbi_write_png_to_func(&append_bytes, &out, width, height, channels, data, int(stride))) out.clear();
  return out;
}

std::vector<unsigned char> stb_encode_jpeg(const unsigned char* data, int width, int height, int channels,
                                           int quality) {
  std::vector<unsigned char> out;
  if (!stbi_write_jpg_to_func(&append_bytes, &out, width, height, channels, data, quality)) out.clear();
  return out;
}

void write_file_atomically(const std::string& path, const std::string& what, const unsigned char* data,
                           std::size_t size) {
  if (path.empty()) fail(what, path, "empty file name");
  // Temporary file next to the destination, so that rename() is atomic (same filesystem).
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty()) fail(what, path, "the path names a directory");
  temp_file tmp;
  {
    std::string pattern = dir + "." + base + ".tmp-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    tmp.fd = ::mkstemp(buf.data());
    if (tmp.fd < 0) fail(what, path, "cannot create a temporary file in its directory: " + errno_text(errno));
    tmp.path = buf.data();
  }
  (void)::fchmod(tmp.fd, default_file_mode());  // mkstemp makes 0600; use what open() would

  std::FILE* f = ::fdopen(tmp.fd, "wb");
  if (!f) fail(what, path, errno_text(errno));
  tmp.fd = -1;  // now owned by f
  errno = 0;
  int err = 0;
  if (size > 0 && std::fwrite(data, 1, size, f) != size) err = errno ? errno : EIO;
  if (!err && std::fflush(f) != 0) err = errno ? errno : EIO;
  if (!err && ::fsync(::fileno(f)) != 0 && errno != EINVAL && errno != EROFS) err = errno;
  if (std::fclose(f) != 0 && !err) err = errno ? errno : EIO;
  if (err) fail(what, path, errno_text(err));
  if (std::rename(tmp.path.c_str(), path.c_str()) != 0) fail(what, path, errno_text(errno));
  tmp.keep = true;
}

void write_png(const std::string& path, const unsigned char* data, int width, int height, std::size_t pitch_bytes,
               int bytes_per_pixel, int png_channels) {
  const char* what = "cannot write PNG";
  if (path.empty()) fail(what, path, "empty file name");
  if (!data || width < 1 || height < 1)
    fail(what, path, "empty image (" + std::to_string(width) + "x" + std::to_string(height) + ")");
  if (!(bytes_per_pixel == 1 && png_channels == 1) && !(bytes_per_pixel == 4 && (png_channels == 3 || png_channels == 4)))
    fail(what, path, std::to_string(png_channels) + " channels cannot be written from " +
                         std::to_string(bytes_per_pixel) + "-byte pixels (grey: 1; RGBA pixels: 3 or 4)");
  if (pitch_bytes < std::size_t(width) * std::size_t(bytes_per_pixel))
    fail(what, path, "pitch_bytes " + std::to_string(pitch_bytes) + " is smaller than a row");
  if (pitch_bytes > std::size_t(0x7fffffff)) fail(what, path, "row pitch too large for the PNG encoder");
  const std::size_t slash = path.find_last_of('/');
  if (slash == path.size() - 1) fail(what, path, "the path names a directory");

  // Pack the pixels as the PNG wants them (RGB drops every 4th byte).
  const unsigned char* rows = data;
  std::size_t stride = pitch_bytes;
  std::vector<unsigned char> packed;
  if (bytes_per_pixel == 4 && png_channels == 3) {
    packed.resize(std::size_t(width) * std::size_t(height) * 3);
    for (int y = 0; y < height; ++y) {
      const unsigned char* in = data + std::size_t(y) * pitch_bytes;
      unsigned char* out = packed.data() + std::size_t(y) * std::size_t(width) * 3;
      for (int x = 0; x < width; ++x) {
        out[3 * x + 0] = in[4 * x + 0];
        out[3 * x + 1] = in[4 * x + 1];
        out[3 * x + 2] = in[4 * x + 2];
      }
    }
    rows = packed.data();
    stride = std::size_t(width) * 3;
  }
  const std::vector<unsigned char> png = stb_encode_png(rows, width, height, png_channels, stride);
  if (png.empty()) fail(what, path, "the PNG encoder failed (out of memory?)");
  write_file_atomically(path, what, png.data(), png.size());
}

}  // namespace detail
}  // namespace hipstencil_io

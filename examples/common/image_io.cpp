// examples/common/image_io.cpp
// The stb-backed part of hipstencil_io: decoding and atomic PNG writing, on plain bytes.
// This is the only translation unit that holds stb's implementation.

#include "image_io.hpp"

#include <cerrno>
#include <cstdio>
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

namespace hipstencil_io {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, const std::string& reason) {
  throw std::runtime_error(what + " '" + path + "': " + reason);
}

std::string errno_text(int e) { return std::strerror(e); }

struct file_closer {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

file_ptr open_for_reading(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fail("cannot open", path, "is a directory");
  file_ptr f(std::fopen(path.c_str(), "rb"));
  if (!f) fail("cannot open", path, errno_text(errno));
  return f;
}

std::string stb_reason() {
  const char* r = stbi_failure_reason();
  return r ? r : "unknown decoder error";
}

}  // namespace

image_info read_info(const std::string& path) {
  file_ptr f = open_for_reading(path);
  image_info info;
  if (!stbi_info_from_file(f.get(), &info.width, &info.height, &info.channels))
    fail("cannot read image", path, stb_reason() + " (supported: PNG, JPEG, BMP, TGA)");
  return info;
}

namespace detail {

decoded decode(const std::string& path, int desired_channels) {
  if (desired_channels < 1 || desired_channels > 4)
    fail("cannot read image", path, "desired_channels must be 1 to 4, got " + std::to_string(desired_channels));
  file_ptr f = open_for_reading(path);
  decoded d;
  unsigned char* p = stbi_load_from_file(f.get(), &d.width, &d.height, &d.file_channels, desired_channels);
  if (!p) fail("cannot read image", path, stb_reason() + " (supported: PNG, JPEG, BMP, TGA)");
  std::unique_ptr<unsigned char, void (*)(void*)> owner(p, stbi_image_free);
  d.channels = desired_channels;
  d.pixels.assign(p, p + std::size_t(d.width) * std::size_t(d.height) * std::size_t(desired_channels));
  return d;
}

namespace {

/// Sink for stbi_write_png_to_func: appends to a FILE*, remembering the first error.
struct sink {
  std::FILE* f;
  int error = 0;
  static void write(void* ctx, void* data, int size) {
    auto* s = static_cast<sink*>(ctx);
    if (s->error || size <= 0) return;
    if (std::fwrite(data, 1, std::size_t(size), s->f) != std::size_t(size)) s->error = errno ? errno : EIO;
  }
};

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
  sink s{f};
  errno = 0;
  const int ok = stbi_write_png_to_func(&sink::write, &s, width, height, png_channels, rows, int(stride));
  int err = s.error;
  if (!err && std::fflush(f) != 0) err = errno ? errno : EIO;
  if (!err && ::fsync(::fileno(f)) != 0 && errno != EINVAL && errno != EROFS) err = errno;
  if (std::fclose(f) != 0 && !err) err = errno ? errno : EIO;
  if (err) fail(what, path, errno_text(err));
  if (!ok) fail(what, path, "the PNG encoder failed (out of memory?)");
  if (std::rename(tmp.path.c_str(), path.c_str()) != 0) fail(what, path, errno_text(errno));
  tmp.keep = true;
}

}  // namespace detail
}  // namespace hipstencil_io

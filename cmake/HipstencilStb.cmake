# stb (Debian's libstb-dev, header-only) for the image I/O of the examples, the tests and the
# fuzzers: sets the cache variable HIPSTENCIL_STB_INCLUDE_DIR to the directory holding
# stb/stb_image.h and stb/stb_image_write.h, looking in the system's include directories and
# in the source tree's ignored .deps/include (a copy for machines without a package
# registry). Stops the configure with a message naming the package when stb is missing.
find_path(HIPSTENCIL_STB_INCLUDE_DIR stb/stb_image.h
          HINTS ${PROJECT_SOURCE_DIR}/.deps/include
          DOC "directory holding stb/stb_image.h and stb/stb_image_write.h (Debian: libstb-dev)")
if(NOT HIPSTENCIL_STB_INCLUDE_DIR)
  message(FATAL_ERROR "stb not found: install libstb-dev (stb/stb_image.h) or set HIPSTENCIL_STB_INCLUDE_DIR")
endif()

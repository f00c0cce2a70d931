# The optional image libraries of hipstencil-filter's file I/O (examples/common): libpng
# (Debian's libpng-dev, CMake's FindPNG) for 16-bit PNG and libtiff (libtiff-dev, CMake's
# FindTIFF) for TIFF.
# Both are optional because the GPU machines may lack them and have no package registry: a
# build without one prints one line saying what is left out and how to get it, and the
# program, asked for that format, fails with a message naming the package.
#
# hipstencil_find_image_libs() looks once per configure and sets the cache variables
# HIPSTENCIL_IO_LIBPNG and HIPSTENCIL_IO_TIFF (ON when found), with the include directories
# and libraries in HIPSTENCIL_IO_{LIBPNG,TIFF}_{INCLUDE_DIRS,LIBRARIES}: plain variables
# rather than imported targets, which would be visible only in the directory that found them
# (examples, tests and fuzzers all use them). Turn one off with -DHIPSTENCIL_WITH_LIBPNG=OFF /
# -DHIPSTENCIL_WITH_TIFF=OFF (or -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON / ..._TIFF=ON).
#
# hipstencil_link_image_libs(target) compiles `target` against what was found and defines
# HIPSTENCIL_IO_HAVE_LIBPNG and HIPSTENCIL_IO_HAVE_TIFF (0 or 1) for it.

option(HIPSTENCIL_WITH_LIBPNG "hipstencil-filter: read and write 16-bit PNG through libpng when it is found" ON)
option(HIPSTENCIL_WITH_TIFF "hipstencil-filter: read and write TIFF through libtiff when it is found" ON)

function(hipstencil_find_image_libs)
  get_property(_done GLOBAL PROPERTY HIPSTENCIL_IMAGE_LIBS_FOUND)
  if(_done)
    return()
  endif()
  set_property(GLOBAL PROPERTY HIPSTENCIL_IMAGE_LIBS_FOUND TRUE)

  set(_libpng OFF)
  if(HIPSTENCIL_WITH_LIBPNG)
    find_package(PNG QUIET)
    if(PNG_FOUND)
      set(_libpng ON)
      message(STATUS "libpng ${PNG_VERSION_STRING} found: hipstencil-filter reads and writes 16-bit PNG")
    else()
      message(STATUS "libpng not found: hipstencil-filter built without 16-bit PNG (apt-get install libpng-dev)")
    endif()
  else()
    message(STATUS "HIPSTENCIL_WITH_LIBPNG=OFF: hipstencil-filter built without 16-bit PNG")
  endif()
  set(HIPSTENCIL_IO_LIBPNG ${_libpng} CACHE INTERNAL "hipstencil-image-io has libpng")
  set(HIPSTENCIL_IO_LIBPNG_INCLUDE_DIRS "${PNG_INCLUDE_DIRS}" CACHE INTERNAL "")
  set(HIPSTENCIL_IO_LIBPNG_LIBRARIES "${PNG_LIBRARIES}" CACHE INTERNAL "")

  set(_tiff OFF)
  if(HIPSTENCIL_WITH_TIFF)
    find_package(TIFF QUIET)
    if(TIFF_FOUND)
      set(_tiff ON)
      message(STATUS "libtiff ${TIFF_VERSION_STRING} found: hipstencil-filter reads and writes TIFF")
    else()
      message(STATUS "libtiff not found: hipstencil-filter built without TIFF (apt-get install libtiff-dev)")
    endif()
  else()
    message(STATUS "HIPSTENCIL_WITH_TIFF=OFF: hipstencil-filter built without TIFF")
  endif()
  set(HIPSTENCIL_IO_TIFF ${_tiff} CACHE INTERNAL "hipstencil-image-io has libtiff")
  set(HIPSTENCIL_IO_TIFF_INCLUDE_DIRS "${TIFF_INCLUDE_DIRS}" CACHE INTERNAL "")
  set(HIPSTENCIL_IO_TIFF_LIBRARIES "${TIFF_LIBRARIES}" CACHE INTERNAL "")
endfunction()

function(hipstencil_link_image_libs target)
  hipstencil_find_image_libs()
  set(_have_libpng 0)
  set(_have_tiff 0)
  if(HIPSTENCIL_IO_LIBPNG)
    set(_have_libpng 1)
    target_include_directories(${target} PRIVATE ${HIPSTENCIL_IO_LIBPNG_INCLUDE_DIRS})
    target_link_libraries(${target} PRIVATE ${HIPSTENCIL_IO_LIBPNG_LIBRARIES})
  endif()
  if(HIPSTENCIL_IO_TIFF)
    set(_have_tiff 1)
    target_include_directories(${target} PRIVATE ${HIPSTENCIL_IO_TIFF_INCLUDE_DIRS})
    target_link_libraries(${target} PRIVATE ${HIPSTENCIL_IO_TIFF_LIBRARIES})
  endif()
  target_compile_definitions(${target} PRIVATE HIPSTENCIL_IO_HAVE_LIBPNG=${_have_libpng}
                                               HIPSTENCIL_IO_HAVE_TIFF=${_have_tiff})
endfunction()

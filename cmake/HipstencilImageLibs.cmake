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

# One optional library: find_package(<package>) unless HIPSTENCIL_WITH_<name> is OFF, one
# status line either way, and the cache variables HIPSTENCIL_IO_<name>[_INCLUDE_DIRS|_LIBRARIES].
function(_hipstencil_find_io_lib name package format does lib deb)
  set(_found OFF)
  if(HIPSTENCIL_WITH_${name})
    find_package(${package} QUIET)
    if(${package}_FOUND)
      set(_found ON)
      message(STATUS "${lib} ${${package}_VERSION_STRING} found: hipstencil-filter ${does}")
    else()
      message(STATUS "${lib} not found: hipstencil-filter built without ${format} (apt-get install ${deb})")
    endif()
  else()
    message(STATUS "HIPSTENCIL_WITH_${name}=OFF: hipstencil-filter built without ${format}")
  endif()
  set(HIPSTENCIL_IO_${name} ${_found} CACHE INTERNAL "hipstencil-image-io has ${lib}")
  set(HIPSTENCIL_IO_${name}_INCLUDE_DIRS "${${package}_INCLUDE_DIRS}" CACHE INTERNAL "")
  set(HIPSTENCIL_IO_${name}_LIBRARIES "${${package}_LIBRARIES}" CACHE INTERNAL "")
endfunction()

function(hipstencil_find_image_libs)
  get_property(_done GLOBAL PROPERTY HIPSTENCIL_IMAGE_LIBS_FOUND)
  if(_done)
    return()
  endif()
  set_property(GLOBAL PROPERTY HIPSTENCIL_IMAGE_LIBS_FOUND TRUE)

  _hipstencil_find_io_lib(LIBPNG PNG "16-bit PNG" "reads and writes 16-bit PNG" libpng libpng-dev)
  _hipstencil_find_io_lib(TIFF TIFF "TIFF" "reads and writes TIFF" libtiff libtiff-dev)
endfunction()

function(hipstencil_link_image_libs target)
  hipstencil_find_image_libs()
  foreach(_lib LIBPNG TIFF)
    set(_have_${_lib} 0)
    if(HIPSTENCIL_IO_${_lib})
      set(_have_${_lib} 1)
      target_include_directories(${target} PRIVATE ${HIPSTENCIL_IO_${_lib}_INCLUDE_DIRS})
      target_link_libraries(${target} PRIVATE ${HIPSTENCIL_IO_${_lib}_LIBRARIES})
    endif()
  endforeach()
  target_compile_definitions(${target} PRIVATE HIPSTENCIL_IO_HAVE_LIBPNG=${_have_LIBPNG}
                                               HIPSTENCIL_IO_HAVE_TIFF=${_have_TIFF})
endfunction()

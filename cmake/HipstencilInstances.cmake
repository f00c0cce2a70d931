# hipstencil-kernels: the kernels of include/hipstencil/detail/instance_list.inc and the
# batched ones of batch_instance_list.inc, compiled once, one translation unit per triple
# (so that `-j` spreads them over the cores), for hipstencil's own tests, examples and
# benchmark. Whatever links it gets
# HIPSTENCIL_PRECOMPILED_KERNELS and so compiles none of those kernels itself (see
# detail/instances.hpp). Users of the library need none of this.
function(hipstencil_add_kernel_library)
  if(HIPSTENCIL_GPU_BACKEND STREQUAL "host" OR TARGET hipstencil-kernels)
    return()
  endif()
  set(_sources "")
  # instance_list.inc: single-image kernels; batch_instance_list.inc: batched ones.
  foreach(_kind IN ITEMS single batch)
    if(_kind STREQUAL "single")
      set(_list ${PROJECT_SOURCE_DIR}/include/hipstencil/detail/instance_list.inc)
      set(_batch false)
      set(_prefix "")
    else()
      set(_list ${PROJECT_SOURCE_DIR}/include/hipstencil/detail/batch_instance_list.inc)
      set(_batch true)
      set(_prefix "batch_")
    endif()
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_list})
    file(STRINGS ${_list} _entries REGEX "^X\\(")
    foreach(_entry IN LISTS _entries)
      string(REGEX REPLACE "^X\\((.*)\\)$" "\\1" _args "${_entry}")
      string(REGEX REPLACE "[^A-Za-z0-9]+" "_" _name "${_args}")
      set(_file ${CMAKE_BINARY_DIR}/hipstencil-kernels/${_prefix}${_name}.cpp)
      file(CONFIGURE OUTPUT ${_file} CONTENT
           "// Generated from ${_kind} instance list by cmake/HipstencilInstances.cmake.\n#include <hipstencil/hipstencil.hpp>\nHIPSTENCIL_DEFINE_INSTANCE(${_batch}, ${_args})\n")
      list(APPEND _sources ${_file})
    endforeach()
  endforeach()
  hipstencil_device_sources(${_sources})
  add_library(hipstencil-kernels OBJECT ${_sources})
  target_link_libraries(hipstencil-kernels PUBLIC hipstencil::hipstencil)
  target_compile_definitions(hipstencil-kernels PUBLIC HIPSTENCIL_PRECOMPILED_KERNELS)
endfunction()

# Links hipstencil-kernels into `target` where the build has it (GPU backends).
function(hipstencil_link_kernels target)
  if(TARGET hipstencil-kernels)
    target_link_libraries(${target} PRIVATE hipstencil-kernels)
  endif()
endfunction()

# hipstencil-kernels: the kernels of every family of algo::families for every pixel pair of
# include/hipstencil/detail/instance_list.inc, and the batched ones for the pairs of
# batch_instance_list.inc, compiled once, one translation unit per pair holding every
# family (so that `-j` spreads them over the cores), for hipstencil's own tests, examples
# and benchmark. One unit per pair, not per (family, pair): each unit pays about 6 s (nvcc)
# and 4 s (hipcc, two targets) for the headers whatever it compiles, and with a unit per
# family that fixed cost was a third of the kernels' build.
# Whatever links it gets HIPSTENCIL_PRECOMPILED_KERNELS and so compiles none of those
# kernels itself (see detail/instances.hpp). Users of the library need none of this.

# Sets `out` to the tag names of algo::families, read from its one line in algorithm.hpp
# (`using families = list<naive, shared_mem<>, ...>;`): the families' count and order, and
# names for the generated files. A new family's entry there is all this needs.
function(hipstencil_family_names out)
  set(_header ${PROJECT_SOURCE_DIR}/include/hipstencil/algorithm.hpp)
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_header})
  file(STRINGS ${_header} _line REGEX "^using families = list<.*>;$")
  list(LENGTH _line _found)
  if(NOT _found EQUAL 1)
    message(FATAL_ERROR "algorithm.hpp: expected one line `using families = list<...>;`, found ${_found}")
  endif()
  # (file(STRINGS) keeps the line's closing ";" escaped, hence the loose end.)
  string(REGEX REPLACE "^using families = list<(.*)>[^>]*$" "\\1" _tags "${_line}")
  string(REGEX REPLACE "<[^<>]*>" "" _tags "${_tags}")  # shared_mem<> -> shared_mem
  string(REGEX REPLACE "[ \t]*,[ \t]*" ";" _tags "${_tags}")
  foreach(_tag IN LISTS _tags)
    if(NOT _tag MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR "algorithm.hpp: cannot read the family tag '${_tag}' in algo::families")
    endif()
  endforeach()
  set(${out} ${_tags} PARENT_SCOPE)
endfunction()

function(hipstencil_add_kernel_library)
  if(HIPSTENCIL_GPU_BACKEND STREQUAL "host" OR TARGET hipstencil-kernels)
    return()
  endif()
  set(_sources "")
  hipstencil_family_names(_families)
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
      string(REGEX REPLACE "^X\\((.*)\\)$" "\\1" _pair "${_entry}")
      string(REGEX REPLACE "[^A-Za-z0-9]+" "_" _name "${_pair}")
      set(_content "// Generated from the ${_kind} instance list by cmake/HipstencilInstances.cmake: every family of algo::families for (${_pair}).\n#include <hipstencil/hipstencil.hpp>\n")
      set(_index 0)
      foreach(_family IN LISTS _families)
        string(APPEND _content "HIPSTENCIL_DEFINE_INSTANCE(${_batch}, ${_index}, ${_pair})  // ${_family}\n")
        math(EXPR _index "${_index} + 1")
      endforeach()
      set(_file ${CMAKE_BINARY_DIR}/hipstencil-kernels/${_prefix}${_name}.cpp)
      file(CONFIGURE OUTPUT ${_file} CONTENT "${_content}")
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

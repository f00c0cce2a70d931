# hipstencil-kernels: the kernels of every family of algo::families for every pixel pair of
# include/hipstencil/detail/instance_list.inc, and the batched ones for the pairs of
# batch_instance_list.inc, compiled once for hipstencil's own tests, examples and
# benchmark, each translation unit holding every family for one pair (hipcc) or two
# consecutive pairs of a list (nvcc), so that `-j` spreads them over the cores. Not one
# unit per (family, pair): each unit pays for the headers whatever it compiles, and with a
# unit per family that fixed cost was a third of the kernels' build. The units include
# detail/instances.hpp (the families and their launch), not hipstencil.hpp, whose
# reduce.hpp brings in CUB: on a 2-core x86 machine, host code at -O3, an empty unit took
# 15 to 19 s through nvcc with hipstencil.hpp and 7 to 8 s with instances.hpp (hipcc, two
# targets: 8.4 and 7.7 s). Pairs a unit: with host code at -O0 (CI's GPU builds), the
# ushort3 and float3 pairs took 41.6 and 29.2 s through nvcc as units of their own and 65.9
# as one; through hipcc, two targets, 52.1 and 49.7 s, and 113.9 as one.
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
    list(LENGTH _entries _count)
    if(HIPSTENCIL_GPU_BACKEND STREQUAL "hip")
      set(_pairs_per_unit 1)
    else()
      set(_pairs_per_unit 2)
    endif()
    set(_first 0)
    while(_first LESS _count)
      math(EXPR _end "${_first} + ${_pairs_per_unit}")
      if(_end GREATER _count)
        set(_end ${_count})
      endif()
      set(_content "// Generated from the ${_kind} instance list by cmake/HipstencilInstances.cmake: every family of algo::families")
      set(_body "")
      set(_names "")
      set(_i ${_first})
      while(_i LESS _end)
        list(GET _entries ${_i} _entry)
        string(REGEX REPLACE "^X\\((.*)\\)$" "\\1" _pair "${_entry}")
        string(REGEX REPLACE "[^A-Za-z0-9]+" "_" _name "${_pair}")
        list(APPEND _names ${_prefix}${_name})
        string(APPEND _content " for (${_pair})")
        set(_index 0)
        foreach(_family IN LISTS _families)
          string(APPEND _body "HIPSTENCIL_DEFINE_INSTANCE(${_batch}, ${_index}, ${_pair})  // ${_family}\n")
          math(EXPR _index "${_index} + 1")
        endforeach()
        math(EXPR _i "${_i} + 1")
      endwhile()
      string(APPEND _content ".\n#include <hipstencil/detail/instances.hpp>\n${_body}")
      list(JOIN _names "+" _file_name)
      set(_file ${CMAKE_BINARY_DIR}/hipstencil-kernels/${_file_name}.cpp)
      file(CONFIGURE OUTPUT ${_file} CONTENT "${_content}")
      list(APPEND _sources ${_file})
      set(_first ${_end})
    endwhile()
  endforeach()
  hipstencil_device_sources(${_sources})
  # The SVD that factors dense filters (detail/factor_svd.hpp), whose Eigen headers cost
  # every unit that compiles them seconds: compiled here once; the units that link this
  # library see its declaration only. Host code (its headers, filter.hpp and error.hpp,
  # read no GPU macro), so it is compiled as plain C++: the device passes of nvcc and hipcc
  # added nothing to it but time (on a 2-core x86 machine nvcc took 77 s, g++ 39; hipcc
  # with gfx90a and gfx1030 53 s, hipcc -x c++ 26).
  set(_svd ${CMAKE_BINARY_DIR}/hipstencil-kernels/svd_terms.cpp)
  file(CONFIGURE OUTPUT ${_svd} CONTENT "// Generated by cmake/HipstencilInstances.cmake: detail::svd_terms, compiled once.\n#define HIPSTENCIL_COMPILE_SVD_TERMS\n#include <hipstencil/detail/factor_svd.hpp>\ntemplate std::vector<hipstencil::separable_filter> hipstencil::detail::svd_terms<hipstencil::filter2d>(const hipstencil::filter2d&, int, double);\n")
  if(HIPSTENCIL_GPU_BACKEND STREQUAL "hip")
    set_source_files_properties(${_svd} PROPERTIES COMPILE_OPTIONS "-x;c++")  # hipcc: C++, not HIP
  endif()
  list(APPEND _sources ${_svd})
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

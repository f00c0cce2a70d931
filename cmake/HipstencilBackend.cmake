# Chooses the GPU backend once for the whole build.
#
#   HIPSTENCIL_BACKEND=cuda  nvcc and the CUDA toolkit (CMake's CUDA language); device
#                            sources are compiled as CUDA. CMAKE_CUDA_ARCHITECTURES
#                            defaults to 90 (H100/H200).
#   HIPSTENCIL_BACKEND=hip   hipcc as the C++ compiler of the build
#                            (-DCMAKE_CXX_COMPILER=hipcc): CMake's own HIP language does not
#                            configure with Debian's ROCm layout. Targets from
#                            HIPSTENCIL_HIP_ARCHITECTURES (default gfx90a;gfx1030).
#   HIPSTENCIL_BACKEND=host  no GPU: the host reference only; GPU tests report skipped.
#   HIPSTENCIL_BACKEND=auto  (default) hip if the C++ compiler is hipcc; else cuda if a CUDA
#                            compiler and an NVIDIA GPU (nvidia-smi -L) are present, or a
#                            parent project has enabled CUDA; else host.
set(HIPSTENCIL_BACKEND "auto" CACHE STRING "GPU backend: auto, cuda, hip or host")
set_property(CACHE HIPSTENCIL_BACKEND PROPERTY STRINGS auto cuda hip host)
set(HIPSTENCIL_HIP_ARCHITECTURES "gfx90a;gfx1030" CACHE STRING "AMD targets for the hip backend")

set(_backend ${HIPSTENCIL_BACKEND})
if(_backend STREQUAL "auto")
  get_filename_component(_cxx_name "${CMAKE_CXX_COMPILER}" NAME)
  if(_cxx_name MATCHES "^hipcc")
    set(_backend hip)
  else()
    include(CheckLanguage)
    check_language(CUDA)
    find_program(_nvidia_smi nvidia-smi)
    set(_gpu_seen FALSE)
    if(_nvidia_smi)
      execute_process(COMMAND ${_nvidia_smi} -L RESULT_VARIABLE _smi_rc OUTPUT_VARIABLE _smi_out ERROR_QUIET)
      if(_smi_rc EQUAL 0 AND _smi_out MATCHES "GPU")
        set(_gpu_seen TRUE)
      endif()
    endif()
    get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(CMAKE_CUDA_COMPILER AND (_gpu_seen OR "CUDA" IN_LIST _languages))  # a parent project enabled CUDA
      set(_backend cuda)
    else()
      set(_backend host)
    endif()
  endif()
endif()
if(NOT _backend MATCHES "^(cuda|hip|host)$")
  message(FATAL_ERROR "HIPSTENCIL_BACKEND must be auto, cuda, hip or host, not '${HIPSTENCIL_BACKEND}'")
endif()
set(HIPSTENCIL_GPU_BACKEND ${_backend})

if(_backend STREQUAL "cuda")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
elseif(_backend STREQUAL "hip")
  get_filename_component(_cxx_name "${CMAKE_CXX_COMPILER}" NAME)
  if(NOT _cxx_name MATCHES "^hipcc")
    message(FATAL_ERROR "HIPSTENCIL_BACKEND=hip needs hipcc as the C++ compiler: -DCMAKE_CXX_COMPILER=hipcc")
  endif()
  find_package(rocprim CONFIG REQUIRED)  # reduce.hpp (Debian: librocprim-dev); brings hip::host
endif()
message(STATUS "hipstencil: GPU backend '${HIPSTENCIL_GPU_BACKEND}'")

# Adds the backend's needs to an INTERFACE library (the runtime and rocPRIM; CUB comes with
# CUDA, on nvcc's include path).
function(hipstencil_link_backend target)
  if(HIPSTENCIL_GPU_BACKEND STREQUAL "cuda")
    target_link_libraries(${target} INTERFACE CUDA::cudart)
  elseif(HIPSTENCIL_GPU_BACKEND STREQUAL "hip")
    target_link_libraries(${target} INTERFACE roc::rocprim hip::host)
    # At link time too: without a target, hipcc asks the (absent) GPU for one.
    foreach(_arch IN LISTS HIPSTENCIL_HIP_ARCHITECTURES)
      target_compile_options(${target} INTERFACE --offload-arch=${_arch})
      target_link_options(${target} INTERFACE --offload-arch=${_arch})
    endforeach()
  endif()
endfunction()

# Marks sources that hold device code: compiled as CUDA with nvcc on the cuda backend;
# with hipcc (the C++ compiler) on the hip backend; host-only with the C++ compiler on host.
function(hipstencil_device_sources)
  if(HIPSTENCIL_GPU_BACKEND STREQUAL "cuda")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()

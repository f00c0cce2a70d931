# Installs the headers and a CMake package: find_package(hipstencil) gives
# hipstencil::hipstencil (include path, C++17, Threads, Eigen) and adds, when it is found, what the
# consumer's toolchain needs (hipstencilConfig.cmake.in): one installation serves nvcc,
# hipcc and host-only consumers alike, as the headers themselves do (platform/config.hpp
# picks the backend from the compiler).
#
# HIPSTENCIL_INSTALL (default: on when hipstencil is the top-level project) adds the
# install rules; a parent project that takes hipstencil in with add_subdirectory or
# FetchContent does not install it unless it asks to.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

option(HIPSTENCIL_INSTALL "Add hipstencil's install rules (headers and CMake package)" ${PROJECT_IS_TOP_LEVEL})
if(NOT HIPSTENCIL_INSTALL)
  return()
endif()

# The exported target is not the build tree's `hipstencil`, which carries the backend
# chosen when this tree was configured (CUDA::cudart, hipcc's --offload-arch flags): the
# installed package chooses again for each consumer.
add_library(hipstencil_package INTERFACE)
set_target_properties(hipstencil_package PROPERTIES EXPORT_NAME hipstencil)
target_include_directories(hipstencil_package INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(hipstencil_package INTERFACE cxx_std_17)
target_link_libraries(hipstencil_package INTERFACE Threads::Threads Eigen3::Eigen)

set(HIPSTENCIL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hipstencil)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hipstencil DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS hipstencil_package EXPORT hipstencilTargets)
install(EXPORT hipstencilTargets NAMESPACE hipstencil:: DESTINATION ${HIPSTENCIL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hipstencilConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hipstencilConfig.cmake INSTALL_DESTINATION ${HIPSTENCIL_CMAKE_DIR})
# 0.x: a minor version may break the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hipstencilConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/hipstencilConfig.cmake ${PROJECT_BINARY_DIR}/hipstencilConfigVersion.cmake
  DESTINATION ${HIPSTENCIL_CMAKE_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/hipstencil)

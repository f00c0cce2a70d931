# Installs the headers and a CMake package: find_package(hipstencil) gives
# hipstencil::hipstencil with the include path and C++17.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hipstencil DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS hipstencil EXPORT hipstencilTargets)
install(EXPORT hipstencilTargets NAMESPACE hipstencil:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hipstencil)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hipstencilConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hipstencilConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hipstencil)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hipstencilConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/hipstencilConfig.cmake ${PROJECT_BINARY_DIR}/hipstencilConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hipstencil)

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Components: "server" (the service-server binary) and "development" (the
# libraries, headers and CMake package files) are what `cmake --install`
# installs; "server_package" (the systemd unit and the settings file under
# /etc, absolute paths) is installed only into the Debian package
# (cmake/ServicePackage.cmake), never by a plain `cmake --install`.
install(TARGETS service service_static service-server service_c
  EXPORT serviceTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT server
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/libservice/include/service
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
install(FILES ${PROJECT_SOURCE_DIR}/bindings/c/include/service_c.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
install(EXPORT serviceTargets NAMESPACE service::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/service COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/serviceConfig.cmake.in
  ${PROJECT_BINARY_DIR}/serviceConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/service)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/serviceConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/serviceConfig.cmake ${PROJECT_BINARY_DIR}/serviceConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/service COMPONENT development)

include(ServicePackage)

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS service service_static service-server service_c
  EXPORT serviceTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/libservice/include/service
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/bindings/c/include/service_c.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT serviceTargets NAMESPACE service::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/service)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/serviceConfig.cmake.in
  ${PROJECT_BINARY_DIR}/serviceConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/service)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/serviceConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/serviceConfig.cmake ${PROJECT_BINARY_DIR}/serviceConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/service)

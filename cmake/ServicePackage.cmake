# The Debian package of the server: `cpack -G DEB` in a configured and built
# tree (docs/operations.md "The Debian package"; scripts/check-package.sh
# builds, installs, starts and purges it in CI).
#
# One package, service-server: the binary (component "server", stripped),
# and the component "server_package": the systemd unit, the settings file
# /etc/service-server/environment (a conffile) and the documentation. The
# maintainer scripts (packaging/debian) create the user "service" and
# /var/lib/service-server, migrate on upgrade and enable the unit.
# Dependencies come from dpkg-shlibdeps, plus adduser for the scripts.

set(SERVICE_PACKAGE_MAINTAINER "service maintainers <maintainers@example.org>"
    CACHE STRING "Maintainer field of the Debian package")

install(FILES ${PROJECT_SOURCE_DIR}/packaging/service-server.service
  DESTINATION /lib/systemd/system COMPONENT server_package EXCLUDE_FROM_ALL)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/environment
  DESTINATION /etc/service-server COMPONENT server_package EXCLUDE_FROM_ALL)
# (postinst makes it 0640 root:service: only commented defaults ship in it.)
install(FILES ${PROJECT_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/service-server COMPONENT server_package EXCLUDE_FROM_ALL)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/service-server/docs COMPONENT server_package EXCLUDE_FROM_ALL
  FILES_MATCHING PATTERN "*.md" PATTERN screenshots EXCLUDE)

# The Debian changelog dpkg and lintian expect (one entry for this version).
string(TIMESTAMP _service_package_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${PROJECT_BINARY_DIR}/packaging/changelog.Debian
     "service-server (${PROJECT_VERSION}-1) unstable; urgency=medium\n\n"
     "  * Built by cpack from the CMake install rules (docs/operations.md).\n\n"
     " -- ${SERVICE_PACKAGE_MAINTAINER}  ${_service_package_date}\n")
execute_process(COMMAND gzip -9nc ${PROJECT_BINARY_DIR}/packaging/changelog.Debian
                OUTPUT_FILE ${PROJECT_BINARY_DIR}/packaging/changelog.Debian.gz)
install(FILES ${PROJECT_BINARY_DIR}/packaging/changelog.Debian.gz
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/service-server COMPONENT server_package EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME service-server)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${SERVICE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "self-hosted issue capture and triage service")
set(CPACK_PACKAGE_DESCRIPTION
    "Browser, mobile and server clients send bug reports with a capture key;\nthe service groups them by fingerprint, classifies them and lets teams\ntriage them in its web console. Runs on SQLite or PostgreSQL as a\nsystemd service (service-server.service, settings in\n/etc/service-server/environment).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};service;server;/" "${PROJECT_BINARY_DIR};service;server_package;/")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION web)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/packaging/debian/postinst ${PROJECT_SOURCE_DIR}/packaging/debian/prerm
    ${PROJECT_SOURCE_DIR}/packaging/debian/postrm ${PROJECT_SOURCE_DIR}/packaging/debian/conffiles)
include(CPack)

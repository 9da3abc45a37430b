# `cpack -G DEB` in the build tree: ratelab_<version>_<arch>.deb installing under /usr. Its
# dependencies are the Debian runtime packages of the libraries the binary links (found by
# dpkg-shlibdeps, Debian package dpkg-dev) plus redis-server, which ratelab starts as its
# managed server, and tzdata for the calendar windows' IANA zones. The licence is Apache-2.0
# (LICENSE); the package says so in /usr/share/doc/ratelab/copyright (resources/debian/copyright,
# Debian's machine-readable format, installed by RatelabInstall.cmake), where Debian packages
# declare their licence.
set(CPACK_PACKAGE_NAME ratelab)
set(CPACK_PACKAGE_VENDOR "ratelab")
set(CPACK_PACKAGE_CONTACT "ratelab maintainers <ratelab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Visualizer and test bench for distributed rate limiters on Redis")
set(CPACK_PACKAGE_DESCRIPTION
    "ratelab shows and tests rate limiters whose state lives in Redis: the Redisson token
bucket, natural-calendar fixed windows and multi-rule sliding windows. A Qt desktop
window draws decisions live; the command line replays traces, runs scenarios and
benchmarks the same engine.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "redis-server, tzdata")

include(CPack)

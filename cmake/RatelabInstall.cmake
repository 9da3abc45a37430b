# Install layout (GNUInstallDirs, prefix /usr in the Debian package):
#   bin/ratelab
#   share/applications/ratelab.desktop
#   share/icons/hicolor/{16x16..256x256}/apps/ratelab.png, .../scalable/apps/ratelab.svg
#   share/ratelab/scenarios/*.json, share/ratelab/examples/*  (found by exampleScenarioDirs())
#   share/ratelab/lessons/*.json  (beside the scenarios they play: shippedLessonsDir())
#   share/doc/ratelab/copyright  (the licence, Apache-2.0, as Debian's machine-readable file)
install(TARGETS ratelab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/resources/ratelab.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/scenarios ${PROJECT_SOURCE_DIR}/resources/examples
        ${PROJECT_SOURCE_DIR}/resources/lessons DESTINATION ${CMAKE_INSTALL_DATADIR}/ratelab)
install(FILES ${PROJECT_SOURCE_DIR}/resources/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

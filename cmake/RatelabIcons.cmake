# The application icon: resources/icons/ratelab.svg is the one drawing. At build time it is
# rendered to the hicolor PNG sizes (rsvg-convert, Debian package librsvg2-bin), which are
# embedded in `target` for the window (resources/icons/ratelab.qrc, :/icons/...) and installed
# with the SVG into the XDG icon theme, so the menu entry and the window show the same icon.
set(RATELAB_ICON_SIZES 16 24 32 48 64 128 256)
set(RATELAB_ICON_SVG ${PROJECT_SOURCE_DIR}/resources/icons/ratelab.svg)

# ratelab_add_icons(target [INSTALL]): renders and embeds; INSTALL also installs the icons.
function(ratelab_add_icons target)
    cmake_parse_arguments(ARG "INSTALL" "" "" ${ARGN})
    find_program(RATELAB_RSVG_CONVERT rsvg-convert)
    if(NOT RATELAB_RSVG_CONVERT)
        message(FATAL_ERROR "rsvg-convert is missing: it renders the icon "
                            "(Debian: apt-get install librsvg2-bin; scripts/lib/deps.sh installs it)")
    endif()
    set(tree ${CMAKE_CURRENT_BINARY_DIR}/icons)
    set(pngs)
    foreach(size IN LISTS RATELAB_ICON_SIZES)
        set(dir ${tree}/hicolor/${size}x${size}/apps)
        set(png ${dir}/ratelab.png)
        add_custom_command(
            OUTPUT ${png}
            COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
            COMMAND ${RATELAB_RSVG_CONVERT} --width=${size} --height=${size} --format=png
                    --output=${png} ${RATELAB_ICON_SVG}
            DEPENDS ${RATELAB_ICON_SVG}
            COMMENT "Rendering the ${size} px icon"
            VERBATIM)
        list(APPEND pngs ${png})
        if(ARG_INSTALL)
            install(FILES ${png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
        endif()
    endforeach()
    if(ARG_INSTALL)
        install(FILES ${RATELAB_ICON_SVG} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
    endif()

    # rcc resolves the qrc's paths beside the qrc, so it goes next to the rendered tree.
    configure_file(${PROJECT_SOURCE_DIR}/resources/icons/ratelab.qrc ${tree}/ratelab.qrc COPYONLY)
    qt_add_resources(icon_sources ${tree}/ratelab.qrc)
    target_sources(${target} PRIVATE ${icon_sources} ${pngs})
endfunction()

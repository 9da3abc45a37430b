# Strict warnings for our own targets only (never for third-party code), per compiler: GCC and
# Clang spell some of them differently. -Werror is on unless RATELAB_WERROR is OFF (e.g. when
# trying a newer compiler whose new warnings have not been fixed yet).
option(RATELAB_WERROR "Treat warnings in ratelab's own targets as errors" ON)

function(ratelab_warnings target)
    # (GCC's flags stay in the order they always had, so ccache keeps its hits.)
    set(flags -Wall -Wextra)
    if(RATELAB_WERROR)
        list(APPEND flags -Werror)
    endif()
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # a local that shadows another local or a parameter (members and globals excluded)
        list(APPEND flags -Wshadow=local)
    elseif(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        # Clang's nearest to GCC's -Wshadow=local: locals shadowing locals and parameters,
        # including a lambda's locals shadowing what it does not capture.
        list(APPEND flags -Wshadow -Wshadow-uncaptured-local)
    endif()
    list(APPEND flags -Wnon-virtual-dtor)
    target_compile_options(${target} PRIVATE ${flags})
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
endfunction()

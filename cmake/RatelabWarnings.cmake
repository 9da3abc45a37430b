# Strict warnings for our own targets only (never for third-party code).
function(ratelab_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wshadow=local -Wnon-virtual-dtor)
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
endfunction()

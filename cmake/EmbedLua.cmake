# Embeds Lua scripts into the binary at build time: each NAME.lua becomes a C++ source
# defining `const char* const <symbol>` holding the script text, regenerated when the .lua changes.
function(ratelab_embed_lua target)
    foreach(lua_file IN LISTS ARGN)
        get_filename_component(stem ${lua_file} NAME_WE)
        set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_${stem}_lua.cpp)
        add_custom_command(
            OUTPUT ${out}
            COMMAND ${CMAKE_COMMAND} -DIN=${CMAKE_CURRENT_SOURCE_DIR}/${lua_file} -DOUT=${out}
                    -DSYMBOL=kLua_${stem} -P ${PROJECT_SOURCE_DIR}/cmake/EmbedLuaFile.cmake
            DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${lua_file} ${PROJECT_SOURCE_DIR}/cmake/EmbedLuaFile.cmake
            COMMENT "Embedding ${lua_file}"
            VERBATIM)
        target_sources(${target} PRIVATE ${out})
    endforeach()
endfunction()

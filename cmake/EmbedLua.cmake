# Embeds Lua scripts into the binary at build time: each NAME.lua becomes a C++ source
# defining `const char* const <symbol>` holding the script text, regenerated when the .lua changes.
# Found beside this file, so that a project including it from elsewhere (the fuzz targets)
# embeds the same way.
set(RATELAB_EMBED_LUA_FILE ${CMAKE_CURRENT_LIST_DIR}/EmbedLuaFile.cmake)

function(ratelab_embed_lua target)
    foreach(lua_file IN LISTS ARGN)
        get_filename_component(stem ${lua_file} NAME_WE)
        set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_${stem}_lua.cpp)
        add_custom_command(
            OUTPUT ${out}
            COMMAND ${CMAKE_COMMAND} -DIN=${CMAKE_CURRENT_SOURCE_DIR}/${lua_file} -DOUT=${out}
                    -DSYMBOL=kLua_${stem} -P ${RATELAB_EMBED_LUA_FILE}
            DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${lua_file} ${RATELAB_EMBED_LUA_FILE}
            COMMENT "Embedding ${lua_file}"
            VERBATIM)
        target_sources(${target} PRIVATE ${out})
    endforeach()
endfunction()

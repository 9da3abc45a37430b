# Embeds text files into the binary at build time: each file becomes a C++ source defining
# `const char* const <symbol>` holding its text, regenerated when the file changes.
# The script mode is found beside this file, so that a project including it from elsewhere (the
# fuzz targets) embeds the same way.
set(RATELAB_EMBED_LUA_FILE ${CMAKE_CURRENT_LIST_DIR}/EmbedLuaFile.cmake)

# Lua scripts: NAME.lua defines ratelab::lua::kLua_NAME.
function(ratelab_embed_lua target)
    ratelab_embed_text(${target} ratelab::lua kLua_ ${ARGN})
endfunction()

# Any text file (the report page's script and style): NAME.EXT defines NAMESPACE::PREFIXNAME.
function(ratelab_embed_text target namespace prefix)
    foreach(text_file IN LISTS ARGN)
        get_filename_component(stem ${text_file} NAME_WE)
        get_filename_component(ext ${text_file} LAST_EXT)
        string(SUBSTRING "${ext}" 1 -1 ext)
        set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_${stem}_${ext}.cpp)
        add_custom_command(
            OUTPUT ${out}
            COMMAND ${CMAKE_COMMAND} -DIN=${CMAKE_CURRENT_SOURCE_DIR}/${text_file} -DOUT=${out}
                    -DSYMBOL=${prefix}${stem} -DNAMESPACE=${namespace}
                    -P ${RATELAB_EMBED_LUA_FILE}
            DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${text_file} ${RATELAB_EMBED_LUA_FILE}
            COMMENT "Embedding ${text_file}"
            VERBATIM)
        target_sources(${target} PRIVATE ${out})
    endforeach()
endfunction()

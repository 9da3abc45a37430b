# Script mode: writes OUT, a C++ file defining SYMBOL as the text of IN.
file(READ ${IN} content)
string(FIND "${content}" ")LUA\"" clash)
if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${IN} contains the raw-string terminator )LUA\"")
endif()
file(WRITE ${OUT}.tmp "// Generated from ${IN}; do not edit.\nnamespace ratelab::lua {\nextern const char* const ${SYMBOL};\nconst char* const ${SYMBOL} = R\"LUA(${content})LUA\";\n}  // namespace ratelab::lua\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)

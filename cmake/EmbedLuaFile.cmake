# Script mode: writes OUT, a C++ file defining SYMBOL (in NAMESPACE, default ratelab::lua) as the
# text of IN.
if(NOT DEFINED NAMESPACE)
    set(NAMESPACE ratelab::lua)
endif()
file(READ ${IN} content)
string(FIND "${content}" ")LUA\"" clash)
if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${IN} contains the raw-string terminator )LUA\"")
endif()
file(WRITE ${OUT}.tmp "// Generated from ${IN}; do not edit.\nnamespace ${NAMESPACE} {\nextern const char* const ${SYMBOL};\nconst char* const ${SYMBOL} = R\"LUA(${content})LUA\";\n}  // namespace ${NAMESPACE}\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)

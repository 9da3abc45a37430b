#!/usr/bin/env bash
# Fails when an object of the window (ui/ and app/tools/) was compiled with a hiredis header in
# its include closure: the compiler's own dependency lists, not the include lines, so an engine
# header that pulls hiredis in behind the window's back is caught too (docs/architecture.md,
# "Layers": the UI never sees Redis). Reads `ninja -t deps` of a Ninja build tree, or the .o.d
# files of a Makefile one.
# Usage: check_ui_dependencies.sh BUILD_DIR   (exit 0 clean, 1 naming each object and header)
#        check_ui_dependencies.sh --self-test
set -u

# deps: "<object>: ..." lines, each followed by its dependencies indented (ninja -t deps).
check() {
    awk '
        /^[^ \t]/ { object = $1; sub(/:$/, "", object); window = object ~ /(^|\/)(ui|app\/tools)\/CMakeFiles\// ; if (window) objects++; next }
        window && /hiredis/ { gsub(/^[ \t]+/, ""); print object ": includes " $0 " (through an engine header)"; bad = 1 }
        END {
            if (objects == 0) { print "no object of ui/ or app/tools/ in the dependency lists: build first"; exit 1 }
            exit bad
        }'
}

deps_of() {
    local build=$1
    if [ -f "$build/build.ninja" ]; then
        ninja -C "$build" -t deps
    else
        # A Makefile tree: each .o.d is "<object>: <dependency> \" lines.
        find "$build/ui" "$build/app" -name '*.o.d' 2>/dev/null | while read -r d; do
            sed -e 's/\\$//' -e 's/^\([^ ]*\):/\1:\n/' "$d" | tr ' ' '\n' | awk 'NR == 1 { print; next } NF { print "    " $0 }'
        done
    fi
}

if [ "${1:-}" = --self-test ]; then
    clean=$'ui/CMakeFiles/ratelab_ui.dir/a.cpp.o: #deps 2\n    /usr/include/qt6/QtCore/qstring.h\n    engine/limiters/limiter.h\n'
    dirty=$'engine/CMakeFiles/e.dir/r.cpp.o: #deps 1\n    /usr/include/hiredis/hiredis.h\n'"$clean"$'app/tools/CMakeFiles/ratelab_tools.dir/b.cpp.o: #deps 1\n    /usr/include/hiredis/read.h\n'
    printf '%s' "$clean" | check >/dev/null || { echo "self-test: a clean list failed"; exit 1; }
    out=$(printf '%s' "$dirty" | check) && { echo "self-test: a window object with hiredis passed"; exit 1; }
    [ "$(printf '%s\n' "$out" | grep -c 'b.cpp.o')" = 1 ] || { echo "self-test: app/tools not checked"; exit 1; }
    printf '%s\n' "$out" | grep -q 'r.cpp.o' && { echo "self-test: an engine object was flagged"; exit 1; }
    printf '' | check >/dev/null && { echo "self-test: an empty list passed"; exit 1; }
    echo "self-test passed"
    exit 0
fi
deps_of "${1:?usage: check_ui_dependencies.sh BUILD_DIR}" | check

#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB) of a built tree and installs it into a scratch root
# with dpkg-deb -x (the machine's dpkg database is never touched), then checks what a desktop
# user gets: the binary, the menu entry (desktop-file-validate), every icon size, the examples,
# the licence (Apache-2.0 in /usr/share/doc/ratelab/copyright), the package's dependencies, and
# that the installed binary runs: --help, and a replay of an installed example, whose CSV must
# equal the build tree's binary's.
#
#   tests/package_check.sh BUILD_DIR SOURCE_DIR CPACK
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR CPACK" >&2; exit 2; }
build=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
cpack=$3
sizes="16 24 32 48 64 128 256"

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
# WIDTHxHEIGHT of a PNG file (its IHDR chunk), empty when it is not a PNG.
png_size() {
    [ -f "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 0
    local w h
    read -r w h < <(od -An -tu4 --endian=big -j16 -N8 "$1")
    echo "${w}x${h}"
}
check() {  # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then ok "$what"; else bad "$what"; fi
}

for tool in dpkg-deb dpkg-shlibdeps desktop-file-validate; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "package_check: $tool is missing (Debian: dpkg-dev, desktop-file-utils;" \
             "scripts/lib/deps.sh installs them)" >&2
        exit 1
    }
done

work=$build/package-check
rm -rf "$work"
mkdir -p "$work/out" "$work/root"
cd "$work"

# --- the package ----------------------------------------------------------------------------
if ! "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >cpack.log 2>&1; then
    cat cpack.log
    echo "package_check: cpack failed" >&2
    exit 1
fi
debs=("$work"/out/ratelab_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || { echo "expected one ratelab_*.deb in $work/out" >&2; exit 1; }
deb=${debs[0]}
echo "package: $deb ($(du -k "$deb" | cut -f1) KiB)"

depends=$(dpkg-deb --field "$deb" Depends)
echo "Depends: $depends"
for dep in redis-server libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libhiredis libc6 libstdc++6; do
    check "depends on $dep" grep -q "\b$dep" <<<"$depends"
done
outside=$(dpkg-deb --contents "$deb" | awk '{print $6}' | grep -v -E '^\./(usr/)?$|^\./usr/' || true)
check "installs under /usr only" test -z "$outside"

# --- installed into a scratch root ------------------------------------------------------------
root=$work/root
dpkg-deb -x "$deb" "$root"
usr=$root/usr
check "bin/ratelab is an executable" test -x "$usr/bin/ratelab"
desktop=$usr/share/applications/ratelab.desktop
check "the desktop file is installed" test -f "$desktop"
check "desktop-file-validate passes" desktop-file-validate "$desktop"
exec_name=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
icon_name=$(sed -n 's/^Icon=//p' "$desktop")
check "Exec=$exec_name is the installed binary" test -x "$usr/bin/$exec_name"
check "the menu entry is in a category" grep -q '^Categories=.*Development;' "$desktop"
for size in $sizes; do
    png=$usr/share/icons/hicolor/${size}x${size}/apps/$icon_name.png
    check "icon ${size}x${size}" test "$(png_size "$png")" = "${size}x${size}"
done
check "icon scalable (SVG)" grep -q '<svg' "$usr/share/icons/hicolor/scalable/apps/$icon_name.svg"
for kind in scenarios examples lessons; do
    for f in "$source_dir/resources/$kind"/*; do
        check "example $kind/$(basename "$f")" cmp -s "$f" "$usr/share/ratelab/$kind/$(basename "$f")"
    done
done

# --- the licence: Debian's machine-readable copyright file -------------------------------------
copyright=$usr/share/doc/ratelab/copyright
check "the copyright file is installed" test -f "$copyright"
check "the copyright file is in Debian's machine-readable format" \
    grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$copyright"
check "the copyright file declares Apache-2.0" grep -qx 'License: Apache-2.0' "$copyright"
if [ -f /usr/share/common-licenses/Apache-2.0 ]; then
    check "LICENSE is the Apache License 2.0 text (Debian's common-licenses copy)" \
        cmp -s "$source_dir/LICENSE" /usr/share/common-licenses/Apache-2.0
fi

# --- the installed binary runs ----------------------------------------------------------------
# No REDIS_URL: ratelab starts (and stops) its own redis-server, as it does from the menu.
unset REDIS_URL
check "ratelab --help runs" bash -c "'$usr/bin/ratelab' --help | grep -q 'ratelab replay'"
examples=$usr/share/ratelab/examples
if "$usr/bin/ratelab" replay --limiter "$examples/login.json" --trace "$examples/login-burst.csv" \
    >installed.csv 2>installed.err &&
    "$build/bin/ratelab" replay --limiter "$source_dir/resources/examples/login.json" \
        --trace "$source_dir/resources/examples/login-burst.csv" >built.csv 2>built.err; then
    rows=$(($(wc -l <installed.csv) - 1))
    check "installed replay of examples/login.json ($rows rows) equals the build tree's" \
        bash -c "[ $rows -gt 0 ] && cmp -s installed.csv built.csv"
else
    cat installed.err built.err 2>/dev/null
    bad "replay of an installed example"
fi

check "the installed lessons pass ratelab lesson check (their scenarios beside them)" \
    bash -c "'$usr/bin/ratelab' lesson check '$usr/share/ratelab/lessons'/*.json >lessons.out"

# --- would apt install it? (only where apt knows the archive: a dry run, installs nothing) ----
if command -v apt-get >/dev/null 2>&1 && apt-cache show redis-server >/dev/null 2>&1; then
    check "apt-get install --simulate resolves every dependency" \
        bash -c "apt-get install --simulate -q '$deb' >apt-simulate.log 2>&1"
else
    echo "skip apt-get install --simulate (no apt package lists)"
fi

echo "package_check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

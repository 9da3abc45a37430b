# Sourced by run.sh, test.sh and screenshot.sh: installs the Debian 12 packages ratelab needs
# when any is missing (as root, or through sudo). Does nothing when everything is already there.
# The program's packages build and run it (librsvg2-bin renders the icon at build time;
# libssl-dev is the TLS transport's, rediss://); the tests' add redis-tools (redis-cli makes the
# test cluster), openssl (the TLS tests' certificates), clang-14 (the second compiler and the
# fuzzers'), dpkg-dev (dpkg-shlibdeps), desktop-file-utils (the Debian package's check) and
# chromium (tst_report_browser loads report.html in it, headless).
RATELAB_PROGRAM_PACKAGES=(
    build-essential cmake pkg-config ninja-build
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl1-mesa-dev
    libhiredis-dev libssl-dev librsvg2-bin redis-server tzdata
)
RATELAB_PACKAGES=(
    "${RATELAB_PROGRAM_PACKAGES[@]}"
    redis-tools openssl
    clang-14 libclang-rt-14-dev
    dpkg-dev desktop-file-utils
    chromium
)

# ratelab_install_deps [PACKAGE...]: the packages named (run.sh: the program's), by default
# RATELAB_PACKAGES (everything the tests need too).
ratelab_install_deps() {
    local missing=()
    local pkg
    [ $# -gt 0 ] || set -- "${RATELAB_PACKAGES[@]}"
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    echo "ratelab: installing ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo="sudo"
        else
            echo "ratelab: missing packages (${missing[*]}) and not root; install them with apt-get" >&2
            return 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# The program alone (run.sh, screenshot.sh): the ratelab target, no test executables (test.sh
# builds and runs those), -O2 -g (the benchmarks' build), Ninja where installed. A new folder is
# configured without tests; a folder test.sh made keeps them, and only the program is rebuilt.
ratelab_build() {
    local build_dir=$1
    local tests=()
    [ -f "$build_dir/CMakeCache.txt" ] || tests=(-DRATELAB_BUILD_TESTS=OFF)
    # shellcheck disable=SC2046 # no generator, or "-G Ninja"
    cmake -S . -B "$build_dir" $(ratelab_generator "$build_dir") -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "${tests[@]}"
    cmake --build "$build_dir" -j"$(nproc)" --target ratelab
}

# The build the tests run: -O1 without debug information compiles about a third faster than
# RelWithDebInfo's -O2 -g (a widget test: 4.1 s against 7.5 s, both with precompiled headers),
# and the tests check decisions, not speed (benchmarks use the -O2 build of run.sh).
ratelab_build_tests() {
    local build_dir=$1
    # shellcheck disable=SC2046 # no generator, or "-G Ninja"
    cmake -S . -B "$build_dir" $(ratelab_generator "$build_dir") -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DRATELAB_BUILD_TESTS=ON
    cmake --build "$build_dir" -j"$(nproc)"
}

# Ninja schedules the many small steps (moc, precompiled headers, links) across targets better
# than make; a build folder keeps the generator it was made with.
ratelab_generator() {
    if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
        echo "-G Ninja"
    fi
}

# The second compiler: every target (product and tests) with clang-14 and -Werror, so that
# Clang's warnings fail CI as GCC's do. Only compiled, never run: without optimization or
# debug info, and its executables are not linked (an empty file stands for each; the GCC
# build links and runs them), to keep it cheap.
ratelab_build_clang() {
    local build_dir=$1
    # shellcheck disable=SC2046
    CC=clang-14 CXX=clang++-14 cmake -S . -B "$build_dir" $(ratelab_generator "$build_dir") \
        -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g0" -DRATELAB_WERROR=ON \
        -DCMAKE_CXX_LINK_EXECUTABLE="<CMAKE_COMMAND> -E touch <TARGET>"
    cmake --build "$build_dir" -j"$(nproc)"
}

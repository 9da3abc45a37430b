# Sourced by run.sh and test.sh: installs the Debian 12 packages ratelab needs when any is
# missing (as root, or through sudo). Does nothing when everything is already there.
# librsvg2-bin renders the icon at build time; dpkg-dev (dpkg-shlibdeps) and desktop-file-utils
# build and check the Debian package; clang-14 is the second compiler and the fuzzers'.
# libssl-dev is the TLS transport's (rediss://); openssl makes the TLS tests' certificates.
RATELAB_PACKAGES=(
    build-essential cmake pkg-config
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl1-mesa-dev
    libhiredis-dev redis-server redis-tools tzdata
    libssl-dev openssl
    clang-14 libclang-rt-14-dev
    librsvg2-bin dpkg-dev desktop-file-utils ninja-build
)

ratelab_install_deps() {
    local missing=()
    local pkg
    for pkg in "${RATELAB_PACKAGES[@]}"; do
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

ratelab_build() {
    local build_dir=$1
    cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build "$build_dir" -j"$(nproc)"
}

# The build the tests run: -O1 without debug information compiles about a third faster than
# RelWithDebInfo's -O2 -g (a widget test: 4.1 s against 7.5 s, both with precompiled headers),
# and the tests check decisions, not speed (benchmarks use the -O2 build of run.sh).
ratelab_build_tests() {
    local build_dir=$1
    # shellcheck disable=SC2046 # no generator, or "-G Ninja"
    cmake -S . -B "$build_dir" $(ratelab_generator "$build_dir") -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG"
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

#!/usr/bin/env bash
# Runs the real ratelab window under Xvfb through a short scripted demo (its own managed local
# Redis) and writes into the folder given: main.png (and main-gray.png, as a grayscale handout
# shows it), state.png and redisson.png while the run goes; once it is over comparison.png, the
# run's output folder run/ and report-html.png (its report.html as Chromium renders it), the
# timelines and the comparison at 1024x700 (small-1024x700.png, comparison-1024x700.png, the
# smallest size the layout is made for), in presentation mode (presentation.png,
# presentation-comparison.png) and after leaving it (after-presentation.png), the Tune tab after a
# sweep of the first limiter's first two fields (tune.png), and with a dark
# palette chosen in the window (main-dark.png, comparison-dark.png, redisson-dark.png); then the
# concurrency example's in-flight view (concurrency.png, -gray, -1024x700, -dark), the gateways
# example's comparison (gateways.png, -gray, -1024x700) and the concurrency lesson's panel
# (lesson.png, -gray, -1024x700) and twelve steps into the boundary example at 1024x700
# (step-1024x700.png, step-gray.png).
#   scripts/screenshot.sh OUTDIR [SCENARIO.json] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/screenshot.sh OUTDIR [SCENARIO.json] [SECONDS]}
scenario=${2:-resources/scenarios/three-limiters-live.json}
seconds=${3:-8}
. scripts/lib/deps.sh
RATELAB_PACKAGES+=(xvfb xauth chromium)
BUILD_DIR=${BUILD_DIR:-build}
ratelab_install_deps
[ -x "$BUILD_DIR/bin/ratelab" ] || ratelab_build "$BUILD_DIR"
# A private settings folder, so the demo neither reads nor changes the user's settings.
export XDG_CONFIG_HOME=$(mktemp -d)
export XDG_RUNTIME_DIR=$(mktemp -d)
unset REDIS_URL
xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD_DIR/bin/ratelab" --screenshots "$out" \
    "$scenario" "$seconds"
# The run's report.html as a browser shows it (headless: no display needed; --no-sandbox when
# run as root, as in a container).
if [ -f "$out/run/report.html" ]; then
    sandbox=()
    [ "$(id -u)" -ne 0 ] || sandbox=(--no-sandbox)
    # The page as a reader sees it: wide and light, on a 1024 x 700 screen, and dark.
    shoot() {  # NAME SIZE [chromium flags]
        local name=$1 size=$2
        shift 2
        chromium --headless "${sandbox[@]}" --disable-gpu --hide-scrollbars --window-size="$size" \
            --user-data-dir="$XDG_CONFIG_HOME/chromium" "$@" \
            --screenshot="$(realpath "$out")/$name.png" \
            "file://$(realpath "$out/run/report.html")" 2>/dev/null &&
            echo "screenshot: $out/$name.png"
    }
    shoot report-html 1280,2000
    shoot report-html-1024 1024,700
    shoot report-html-dark 1280,2000 --force-dark-mode
    # Grayscale copies: accepted and rejected must stay apart without colour.
    if command -v convert >/dev/null; then
        for name in report-html report-html-dark; do
            [ -f "$out/$name.png" ] && convert "$out/$name.png" -colorspace Gray "$out/$name-gray.png"
        done
    fi
fi
rm -rf "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"

#!/usr/bin/env bash
# Fails on an include that points the wrong way (docs/architecture.md, "Layers"):
#  - an engine folder may include only its own folder, the folders before it in
#      url -> redis -> limiters -> redisson -> stats -> traffic -> explain -> output -> scenario -> run -> hunt
#      -> lessons -> live
#    and the engine's top-level headers (engine/*.h: input_error.h, json_input.h, ...);
#    the top-level headers include none of the folders;
#  - engine/url/ (URL parsing) includes no hiredis: it knows no connection;
#  - engine/stats/ includes nothing from engine/redis/ (a RedisError becomes an error cause
#    in traffic/, next to the request loop);
#  - no file under ui/ includes hiredis or anything from engine/redis/ (the URL value types
#    are engine/url's; background Redis reading is engine/live's job);
#  - no engine file outside engine/limiters/ names a limiter type (LimiterType::...): what a
#    type does is its descriptor's (limiters/algorithm.h);
#  - app/ -> ui/: no file under ui/ includes a header of app/, app/tools/ included (the
#    screenshot demo and the UI bench are the executable's, not the product library's), and
#    the tools (app/tools/) include ui/ and engine/ headers and their own, not the rest of app/.
# Usage: check_include_order.sh SOURCE_DIR    (exit 0 clean, 1 with one line per violation)
#        check_include_order.sh --self-test   (plants violations in a scratch tree: they must
#                                              all be found, and a clean tree must pass)
set -u

ORDER=(url redis limiters redisson stats traffic explain output scenario run hunt distributed lessons live)
declare -A RANK
for i in "${!ORDER[@]}"; do
    RANK[${ORDER[$i]}]=$i
done

check() {
    local root=$1 bad=0 file folder target dir self rank include
    while IFS= read -r file; do
        folder=${file#"$root"/engine/}
        if [[ "$folder" == */* ]]; then
            folder=${folder%%/*}
            self=${RANK[$folder]:--1}
            if ((self < 0)); then
                echo "$file: engine/$folder is not in the folder order; add it to docs/architecture.md and this check"
                bad=1
                continue
            fi
        else
            self=-1  # a top-level header or source: may include only top-level headers
        fi
        while IFS= read -r include; do
            target=${include#*\"}
            target=${target%\"*}
            if [[ "$target" != */* ]]; then
                # a top-level engine header (input_error.h, json_input.h, input_limits.h, ...)
                # or a header next to the file
                if [[ ! -e "$root/engine/$target" && ! -e "${file%/*}/$target" ]]; then
                    echo "$file: includes \"$target\", which is not an engine header"
                    bad=1
                fi
                continue
            fi
            dir=${target%%/*}
            rank=${RANK[$dir]:--1}
            if ((rank < 0 || rank > self)); then
                echo "$file: includes \"$target\" (engine/$dir is not below engine/${folder:-.})"
                bad=1
            fi
        done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file")
    done < <(find "$root/engine" -type f \( -name '*.h' -o -name '*.cpp' \) | sort)

    while IFS= read -r include; do
        echo "url: $include (URL parsing knows no connection)"
        bad=1
    done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]hiredis/' \
                 "$root/engine/url" --include='*.h' --include='*.cpp' 2>/dev/null)

    while IFS= read -r include; do
        echo "stats: $include (counters know no Redis: classify RedisError in traffic/)"
        bad=1
    done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](hiredis|redis)/' \
                 "$root/engine/stats" --include='*.h' --include='*.cpp' 2>/dev/null)

    while IFS= read -r include; do
        echo "ui: $include (ui/ includes nothing from engine/redis/; only engine/live reads Redis)"
        bad=1
    done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](hiredis|redis)/' \
                 "$root/ui" --include='*.h' --include='*.cpp')

    while IFS= read -r use; do
        echo "$use (a type's behaviour is its descriptor's: engine/limiters/algorithm.h)"
        bad=1
    done < <(grep -rnE 'LimiterType::[A-Z]' "$root/engine" --include='*.h' --include='*.cpp' \
                 2>/dev/null | grep -v "^$root/engine/limiters/")

    while IFS= read -r file; do
        while IFS= read -r include; do
            target=${include#*\"}
            target=${target%\"*}
            [[ -e "$root/app/$target" ]] || continue
            if [[ "$file" == "$root"/ui/* ]]; then
                echo "$file: includes \"$target\" (app/ is above ui/)"
                bad=1
            elif [[ "$target" != tools/* ]]; then
                echo "$file: includes \"$target\" (app/tools/ sees ui/ and engine/, not app/)"
                bad=1
            fi
        done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file")
    done < <(find "$root/ui" "$root/app/tools" -type f \( -name '*.h' -o -name '*.cpp' \) \
                 2>/dev/null | sort)
    return $bad
}

self_test() {
    # global: the EXIT trap runs after this function returns
    scratch=$(mktemp -d) || exit 2
    trap 'rm -rf "$scratch"' EXIT
    mkdir -p "$scratch/engine/url" "$scratch/engine/redis" "$scratch/engine/live" \
        "$scratch/engine/traffic" "$scratch/engine/stats" "$scratch/ui/window" "$scratch/app/tools"
    : >"$scratch/engine/input_limits.h"
    : >"$scratch/app/command_line.h"
    : >"$scratch/app/tools/ui_bench.h"
    printf '#include "redis/a.h"\n#include "input_limits.h"\n' >"$scratch/engine/live/ok.h"
    printf '#include "stats/s.h"\n' >"$scratch/engine/traffic/ok.h"
    printf '#include "url/redis_url.h"\n' >"$scratch/ui/window/ok.cpp"
    printf '#include "url/redis_url.h"\n' >"$scratch/engine/redis/ok.h"
    printf '#include "tools/ui_bench.h"\n#include "window/main_window.h"\n' \
        >"$scratch/app/tools/ok.cpp"
    if ! check "$scratch" >/dev/null; then
        echo "self-test: a clean tree was refused"
        exit 1
    fi
    local -a planted=(
        'engine/redis/up.h|#include "live/run_io.h"'
        'engine/url/up.h|#include "redis/redis_error.h"'
        'engine/url/c.cpp|#include <hiredis/hiredis.h>'
        'engine/stats/up.cpp|#include "traffic/worker.h"'
        'engine/stats/e.cpp|#include "redis/redis_error.h"'
        'engine/top_level.h|#include "scenario/scenario.h"'
        'engine/live/x.cpp|#include "no_such_header.h"'
        'engine/live/ui.h|#include "window/main_window.h"'
        'ui/window/a.cpp|#include <hiredis/hiredis.h>'
        'ui/window/b.cpp|#include "redis/redis_router.h"'
        'ui/window/c.h|#include "redis/redis_connection.h"'
        'ui/window/d.cpp|#include "redis/local_redis_server.h"'
        'ui/window/h.h|#include "redis/redis_error.h"'
        'ui/window/i.h|#include "redis/redis_url.h"'
        'ui/window/e.cpp|#include "tools/ui_bench.h"'
        'ui/run/f.h|#include "command_line.h"'
        'app/tools/g.cpp|#include "command_line.h"'
        'engine/traffic/t.cpp|if (spec.type == LimiterType::FixedWindow) {'
    )
    local entry path line found
    for entry in "${planted[@]}"; do
        path=${entry%%|*}
        line=${entry#*|}
        mkdir -p "$(dirname "$scratch/$path")"
        printf '%s\n' "$line" >"$scratch/$path"
        found=$(check "$scratch" | grep -cF "$path")
        rm "$scratch/$path"
        if [[ "$found" != 1 ]]; then
            echo "self-test: $path with $line was not reported"
            exit 1
        fi
    done
    echo "self-test: ${#planted[@]} planted violations found, the clean tree passes"
}

if [[ "${1:-}" == "--self-test" ]]; then
    self_test
    exit 0
fi
root=${1:?usage: check_include_order.sh SOURCE_DIR | --self-test}
if check "$root"; then
    echo "include order: clean"
else
    exit 1
fi

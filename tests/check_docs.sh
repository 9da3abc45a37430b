#!/usr/bin/env bash
# Fails when the documentation's front page or links are broken (docs/testing.md, "The
# documentation check"):
#  - README.md is over 150 lines, or shows no picture in its first 25 lines;
#  - a relative link in README.md, docs/*.md, bench/README.md or bench/results/*.md points to a
#    file or folder that does not exist, or to a heading anchor that the Markdown file it names
#    does not have. Anchors are GitHub's: the heading's text in lower case, everything but
#    letters, digits, spaces, '-' and '_' dropped, spaces as '-', and '-1', '-2' ... after a
#    repeated one. Links in fenced code blocks and in `code spans` are not links;
#  - the documentation counts the algorithms wrongly: "six algorithms" (or "ratelab's six
#    limiters") where engine/limiters/algorithm_list.h lists another number of them;
#  - a heading cites an issue number ("## Faults (issue 16, items 1, 2)"): headings say what a
#    section holds, not which ticket it came from.
# Usage: check_docs.sh SOURCE_DIR    (exit 0 clean, 1 with one line per problem: file:line: ...)
#        check_docs.sh --self-test   (plants each kind of problem in a scratch tree: every one
#                                     must be found, and a clean tree must pass)
set -u
export LC_ALL=C.UTF-8

MAX_README_LINES=150
PICTURE_WITHIN=25

# The file with fenced code blocks blanked (line numbers kept) and code spans removed.
prose() {
    awk '/^[[:space:]]*(```|~~~)/ { fenced = !fenced; print ""; next }
         fenced { print ""; next }
         { print }' "$1" | sed -E 's/`[^`]*`//g'
}

# The GitHub anchors of a Markdown file's headings, one a line.
anchors() {
    awk '/^[[:space:]]*(```|~~~)/ { fenced = !fenced; next }
         !fenced && /^#+[ \t]/ && !/^#######/ { print }' "$1" |
        sed -E 's/^#+[[:space:]]+//; s/[[:space:]]+#+[[:space:]]*$//; s/[[:space:]]+$//' |
        sed -E 's/!?\[([^]]*)\]\([^)]*\)/\1/g; s/.*/\L&/; s/[^[:alnum:] _-]//g; s/ /-/g' |
        awk '{ n = seen[$0]++; print (n ? $0 "-" n : $0) }'
}

# The number of built-in algorithms the engine lists, as a word ("seven"); empty without the
# list. The user's own script type is listed there too but is not one of them (its line says so).
algorithm_count() {
    local list=$1/engine/limiters/algorithm_list.h n
    local -a words=(zero one two three four five six seven eight nine ten eleven twelve)
    [ -f "$list" ] || return 0
    n=$(grep -E '^const Algorithm& [A-Za-z]+Algorithm\(\);' "$list" | grep -vc 'not one of the built-in')
    echo "${words[$n]:-$n}"
}

check() {
    local root=$1 bad=0 file rel lines target path anchor dir dest lineno count said
    lines=$(wc -l <"$root/README.md")
    if ((lines > MAX_README_LINES)); then
        echo "README.md: $lines lines, more than $MAX_README_LINES: move the detail into docs/"
        bad=1
    fi
    if ! head -n "$PICTURE_WITHIN" "$root/README.md" | grep -qE '!\[[^]]*\]\([^)]+\)'; then
        echo "README.md: no picture in its first $PICTURE_WITHIN lines"
        bad=1
    fi
    for file in "$root/README.md" "$root"/docs/*.md "$root/bench/README.md" "$root"/bench/results/*.md; do
        [ -f "$file" ] || continue
        rel=${file#"$root"/}
        dir=$(dirname "$file")
        while IFS=: read -r lineno target; do
            target=${target#*](}
            target=${target%)}
            case $target in
                [a-zA-Z]*:*) continue ;;  # http:, https:, mailto: ...
            esac
            path=${target%%#*}
            anchor=
            [[ "$target" == *'#'* ]] && anchor=${target#*#}
            if [ -z "$path" ]; then
                dest=$file
            else
                dest=$dir/$path
                if [ ! -e "$dest" ]; then
                    echo "$rel:$lineno: link to a missing file: $target"
                    bad=1
                    continue
                fi
            fi
            if [ -n "$anchor" ] && [[ "$dest" == *.md ]] &&
                ! anchors "$dest" | grep -qxF -- "$anchor"; then
                echo "$rel:$lineno: link to a missing heading: $target (no '#$anchor' in ${dest#"$root"/})"
                bad=1
            fi
        done < <(prose "$file" | grep -noE '\]\([^) ]+\)')
        count=$(algorithm_count "$root")
        if [ -n "$count" ]; then
            while IFS=: read -r lineno said; do
                said=${said,,}
                said=${said#ratelab\'s }
                if [ "${said%% *}" != "$count" ]; then
                    echo "$rel:$lineno: says \"$said\"; engine/limiters/algorithm_list.h lists $count algorithms"
                    bad=1
                fi
            done < <(prose "$file" | grep -noiE "\b(ratelab's )?(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (built-in )?(algorithms\b|limiters decide)")
        fi
        while IFS=: read -r lineno said; do
            echo "$rel:$lineno: a heading cites an issue: $said"
            bad=1
        done < <(prose "$file" | grep -nE '^#+[[:space:]].*\b[Ii]ssues? #?[0-9]+')
    done
    return $bad
}

self_test() {
    local scratch failures=0
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' RETURN
    plant_clean() {
        rm -rf "$scratch/tree"
        mkdir -p "$scratch/tree/docs/screenshots" "$scratch/tree/bench/results"
        touch "$scratch/tree/docs/screenshots/main.png"
        cat >"$scratch/tree/README.md" <<'EOF'
# Tool

![The window](docs/screenshots/main.png)

See [the guide](docs/guide.md#run-history-and-compare-with), [repeats](docs/guide.md#notes-1),
[code](docs/guide.md#ratelab-watch), [µs](docs/guide.md#server-µs-side-by-side-a_b),
[the top](#tool), [the folder](docs/screenshots/) and [the web](https://example.com/x#y).
`[not a link](missing.md)`
EOF
        cat >"$scratch/tree/docs/guide.md" <<'EOF'
# Guide

## Run history and compare with…
## Notes
## Notes
## `ratelab watch`
## Server µs side by side: a_b

```
[also not a link](missing.md)
# not a heading
```

Back to [the README](../README.md#tool) and [results](../bench/results/day.md#a-day).
EOF
        cat >"$scratch/tree/bench/README.md" <<'EOF'
# Bench
[A day](results/day.md)
EOF
        printf '# A day\n' >"$scratch/tree/bench/results/day.md"
        mkdir -p "$scratch/tree/engine/limiters"
        printf 'const Algorithm& tokenBucketAlgorithm();\nconst Algorithm& gcraAlgorithm();\n' \
            >"$scratch/tree/engine/limiters/algorithm_list.h"
        echo 'The two algorithms, and ratelab'"'"'s two limiters decide; issue 7 is no heading.' \
            >>"$scratch/tree/docs/guide.md"
    }
    expect() {  # expect DESCRIPTION PATTERN: the check must fail and print PATTERN
        local out
        if out=$(check "$scratch/tree"); then
            echo "self-test: not found: $1"
            failures=$((failures + 1))
        elif ! grep -q -- "$2" <<<"$out"; then
            echo "self-test: $1: expected '$2' in: $out"
            failures=$((failures + 1))
        fi
    }

    plant_clean
    if ! out=$(check "$scratch/tree"); then
        echo "self-test: the clean tree fails: $out"
        failures=$((failures + 1))
    fi

    plant_clean
    echo 'A [missing file](docs/nothing.md).' >>"$scratch/tree/README.md"
    expect "a link to a missing file" 'README.md:9: link to a missing file: docs/nothing.md'

    plant_clean
    echo 'A [missing heading](guide.md#notes-2).' >>"$scratch/tree/docs/guide.md"
    expect "a link to a missing heading" "docs/guide.md:.*no '#notes-2' in docs/guide.md"

    plant_clean
    echo 'A [missing heading](#nowhere) here.' >>"$scratch/tree/bench/results/day.md"
    expect "a missing heading in the same file" "bench/results/day.md:2: link to a missing heading: #nowhere"

    plant_clean
    sed -i 's/^# Bench$/# Bench\n[A folder](nothing\/)/' "$scratch/tree/bench/README.md"
    expect "a link to a missing folder" 'bench/README.md:2: link to a missing file: nothing/'

    plant_clean
    seq 1 150 >>"$scratch/tree/README.md"
    expect "a README over $MAX_README_LINES lines" "README.md: 158 lines"

    plant_clean
    sed -i '/^!\[/d' "$scratch/tree/README.md"
    expect "a README without a picture on its first screen" "no picture in its first"

    plant_clean
    echo 'What each of the six algorithms decides.' >>"$scratch/tree/docs/guide.md"
    expect "a wrong count of algorithms" 'docs/guide.md:.*says "six algorithms"; .* lists two algorithms'

    plant_clean
    echo "What ratelab's Three limiters decide." >>"$scratch/tree/README.md"
    expect "a wrong count of limiters" 'README.md:9: says "three limiters decide"'

    plant_clean
    echo '## Interrupts (issue 16, items 1, 2)' >>"$scratch/tree/docs/guide.md"
    expect "an issue number in a heading" 'docs/guide.md:.*a heading cites an issue: ## Interrupts (issue 16'

    if [ "$failures" -eq 0 ]; then
        echo "self-test: every planted problem was found"
        return 0
    fi
    return 1
}

case ${1:-} in
    --self-test) self_test ;;
    '') echo "usage: $0 SOURCE_DIR | --self-test" >&2; exit 2 ;;
    *) check "$1" ;;
esac

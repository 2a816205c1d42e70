#!/usr/bin/env bash
# Whole-process speed as a user sees it: median of 5 runs of
#   toolcall parse FILE >/dev/null
#   toolcall parse -c FILE
#   cat FILE | toolcall stream >/dev/null
#   toolcall split --text FILE >/dev/null
# on a generated ~40 MB hermes transcript, next to a bare `cat FILE
# >/dev/null` pass and `rg -c '<tool_call>' FILE` (the cost of reading the
# file at all, issue 48; the ratios to it are printed), and on a 200 MB one
# the same ratios, the peak RSS of parse, split and validate and the peak
# RssAnon (memory not counting the mapped file's page cache) of parse.
#
#   benches/whole-process.sh [TOOLCALL_BINARY] [MB]
#
# The binary defaults to target/dist/toolcall, the shipped build (built with
# `cargo build --profile dist` if missing); BEFORE=OTHER_BINARY adds its
# rows to the same run for a before/after; set BIG_MB=0 to skip the 200 MB
# runs. Uses hyperfine when installed.
set -euo pipefail
cd "$(dirname "$0")/.."
TC=${1:-target/dist/toolcall}
MB=${2:-40}
BIG_MB=${BIG_MB:-200}
RUNS=${RUNS:-5}
[ -x "$TC" ] || cargo build --profile dist --bin toolcall
cargo build --release --example transcript >/dev/null 2>&1
DIR=${TMPDIR:-/tmp}/toolcall-whole-process
mkdir -p "$DIR"
FILE=$DIR/hermes-$MB.txt
[ -s "$FILE" ] || target/release/examples/transcript "$MB" >"$FILE"
SIZE=$(stat -c %s "$FILE")

median() { # command string -> median seconds of $RUNS runs
    local i t times=()
    for i in $(seq "$RUNS"); do
        /usr/bin/time -o "$DIR/t" -f %e bash -c "$1 >/dev/null" >/dev/null 2>&1
        times+=("$(tail -1 "$DIR/t")")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"
}

row() { # name, command (its stdout is discarded)
    local s
    if command -v hyperfine >/dev/null; then
        # no intermediate shell unless the command is a pipeline
        local shell=(-N)
        case "$2" in *"|"*) shell=() ;; esac
        s=$(hyperfine "${shell[@]}" --warmup 2 --runs "$RUNS" --export-json "$DIR/h.json" "$2" >/dev/null 2>&1 &&
            python3 -c "import json;print(json.load(open('$DIR/h.json'))['results'][0]['median'])")
    else
        s=$(median "$2")
    fi
    awk -v n="$1" -v s="$s" -v b="$SIZE" \
        'BEGIN { printf "| %s | %.3f s | %.0f MB/s |\n", n, s, (s > 0 ? b / s / 1e6 : 0) }'
}

# the seconds of the last row
last() { awk -F'|' '{ sub(/ s /, "", $3); print $3 + 0 }' <<<"$1"; }

ratio() { # name, seconds, seconds of the reference
    awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%s: %.2f×\n", n, (b > 0 ? a / b : 0) }'
}

# one table on FILE; with BEFORE set, the same rows for it too
table() { # file, size
    local f=$1 SIZE=$2 r rg p c
    echo "| what | time | throughput |"
    echo "|---|---|---|"
    row "cat FILE" "cat $f"
    if command -v rg >/dev/null; then
        r=$(row "rg -c '<tool_call>' FILE" "rg -c '<tool_call>' $f"); echo "$r"; rg=$(last "$r")
    fi
    for bin in ${BEFORE:+"$BEFORE"} "$TC"; do
        local tag=""
        [ -n "${BEFORE:-}" ] && tag=" ($bin)"
        r=$(row "toolcall parse FILE$tag" "$bin parse $f"); echo "$r"; p=$(last "$r")
        r=$(row "toolcall parse -c FILE$tag" "$bin parse -c $f"); echo "$r"; c=$(last "$r")
        row "cat FILE \| toolcall stream$tag" "cat $f | $bin stream"
        row "toolcall split --text FILE$tag" "$bin split --text $f"
        if [ -n "${rg:-}" ]; then
            echo
            ratio "parse ÷ rg -c$tag" "$p" "$rg"
            ratio "parse -c ÷ rg -c$tag" "$c" "$rg"
            echo
        fi
    done
}

# peak RssAnon (kB) of a command, sampled every few ms from /proc
rss_anon() {
    "$@" >/dev/null 2>&1 &
    local pid=$! peak=0 v
    while v=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) && [ -n "$v" ]; do
        [ "$v" -gt "$peak" ] && peak=$v
        sleep 0.002
    done
    wait "$pid" || true
    echo "$peak"
}

echo "input: $FILE ($SIZE bytes), median of $RUNS runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
table "$FILE" "$SIZE"

if [ "$BIG_MB" != 0 ]; then
    BIG=$DIR/hermes-$BIG_MB.txt
    [ -s "$BIG" ] || target/release/examples/transcript "$BIG_MB" >"$BIG"
    BSIZE=$(stat -c %s "$BIG")
    TOOLS=fixtures/validate/tools/openai-chat.json
    echo
    echo "input: $BIG ($BSIZE bytes), load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    table "$BIG" "$BSIZE"
    echo
    echo "| peak RSS, $BIG_MB MB input | RSS | RSS / input | time |"
    echo "|---|---|---|---|"
    for cmd in "parse" "split --text" "validate --no-config --no-strict --tools $TOOLS"; do
        /usr/bin/time -o "$DIR/t" -f '%M %e' $TC $cmd "$BIG" >/dev/null 2>&1 || true
        out=$(tail -1 "$DIR/t")
        awk -v c="${cmd%% --no-config*}" -v kb="${out% *}" -v s="${out#* }" -v b="$BSIZE" \
            'BEGIN { printf "| %s | %.0f MB | %.2f | %.2f s |\n", c, kb / 1024, kb * 1024 / b, s }'
    done
    for bin in ${BEFORE:+"$BEFORE"} "$TC"; do
        for cmd in "parse" "parse -c"; do
            # shellcheck disable=SC2086
            kb=$(rss_anon $bin $cmd "$BIG")
            echo "peak RssAnon, toolcall $cmd ($bin): $((kb / 1024)) MB"
        done
        for cmd in "parse" "stream"; do
            # piped input is never mapped: peak RSS of the largest process
            /usr/bin/time -o "$DIR/t" -f '%M' bash -c "cat $BIG | $bin $cmd >/dev/null" 2>/dev/null || true
            echo "peak RSS, cat FILE | toolcall $cmd ($bin): $(($(tail -1 "$DIR/t") / 1024)) MB"
        done
    done
fi

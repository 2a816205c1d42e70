#!/bin/sh
# Long fuzzing runs, one target at a time on one core, lowest priority:
# validate 45 min, parse 40, stream 40, wire 30. Logs go to $LOGS/TARGET.log,
# crashes (the run keeps going past them) to fuzz/artifacts/TARGET/.
#
# The binaries are built once and copied to $LOGS/bin first, so editing or
# rebuilding the crate while the runs go on does not change what is fuzzed.
#
# Start it detached (from anywhere):
#   setsid nohup nice -n 19 fuzz/run-long.sh > /work/fuzzlogs/run-long.out 2>&1 < /dev/null &
set -u
FUZZ=$(cd "$(dirname "$0")" && pwd)
LOGS=${LOGS:-/work/fuzzlogs}
TRIPLE=x86_64-unknown-linux-gnu
mkdir -p "$LOGS/bin"
cd "$FUZZ" || exit 2

echo "start $(date -Is)"
RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz build > "$LOGS/build.log" 2>&1 || {
    echo "build failed, see $LOGS/build.log"
    exit 2
}
for t in validate parse stream wire; do
    cp "target/$TRIPLE/release/$t" "$LOGS/bin/$t"
done
[ -d seeds/validate ] || python3 seed.py

run() { # target seconds
    t=$1
    secs=$2
    mkdir -p "corpus/$t" "artifacts/$t"
    echo "$t: start $(date -Is), ${secs}s"
    nice -n 19 "$LOGS/bin/$t" "corpus/$t" "seeds/$t" \
        -max_len=8192 -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -artifact_prefix="artifacts/$t/" > "$LOGS/$t.log" 2>&1
    echo "$t: end $(date -Is), exit $?, artifacts: $(ls "artifacts/$t" | wc -l)"
}

run validate 2700
run parse 2400
run stream 2400
run wire 1800
echo "done $(date -Is)"

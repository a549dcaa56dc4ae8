#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer harnesses (Fuzz/Harnesses) with libFuzzer and address
# sanitizer instrumentation on every module, then runs each target in turn for a fixed time.
#
#   FUZZ_SECONDS=60       seconds per target
#   FUZZ_RUNS=1000000     instead: stop each target after this many executions (no time limit)
#   FUZZ_TARGETS="a b"    which targets (default: all; names as in Fuzz/Harnesses/Package.swift)
#   FUZZ_ARGS="..."       more libFuzzer flags, e.g. -runs=1000000 or -jobs=2
#   FUZZ_BUILD=0          run the harnesses already built (skip `swift build`)
#   FUZZ_TIMEOUT=5        seconds (wall clock) one input may take before it counts as a hang;
#                         raise it when fuzzing at nice 19 on a busy machine, where a starved
#                         process can take longer than that over an input that takes 50 ms
#
# Each target starts from its committed seeds (Fuzz/Seeds/<target>/) plus what earlier runs found
# (.build-fuzz/corpus/<target>/, kept between runs). A crash, a hang (FUZZ_TIMEOUT) or running out
# of memory (one allocation over 1 GB: -malloc_limit_mb=1024; the whole process over 3 GB:
# -rss_limit_mb=3072) writes the input to Fuzz/Crashes/<target>/ and fails the run;
# reproduce with `.build-fuzz/release/<target> Fuzz/Crashes/<target>/crash-…`. Logs go to
# .build-fuzz/logs/<target>.log. Prints the executions of every target at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch="$root/.build-fuzz"
seconds=${FUZZ_SECONDS:-60}
limit=(-max_total_time="$seconds"); label="${seconds}s"
timeout=${FUZZ_TIMEOUT:-5}
if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); label="$FUZZ_RUNS runs"; fi
all=$(sed -n 's/^ *("\(fuzz-[a-z0-9-]*\)".*/\1/p' "$root/Fuzz/Harnesses/Package.swift")
targets=${FUZZ_TARGETS:-$all}

if [ "${FUZZ_BUILD:-1}" != 0 ]; then
    # SwiftPM kept an old build manifest for the path dependency and missed a source file added
    # to it (the build failed with "cannot find type"): let it write a new one
    rm -f "$scratch/release.yaml"
    swift build -c release --package-path "$root/Fuzz/Harnesses" --scratch-path "$scratch" \
        -Xswiftc -sanitize=fuzzer,address
fi

# Swift's own crash backtracer would run inside ASan's and libFuzzer's handlers: leave crashes to
# them. LeakSanitizer's check at exit is off because Swift keeps some global objects (the node
# registry's type tables) behind pointers packed into enum payloads, which it cannot see, so
# every run would end with a false "leak"; libFuzzer's check for leaks per input stays on.
# Use-after-return detection is off (as in `make test-sanitize`): it maps an 11 MB fake stack
# for every thread, and the file source and decoder targets start threads for every input.
export SWIFT_BACKTRACE=enable=no
# A smaller quarantine and shorter allocation stacks: with ASan's defaults (256 MB of freed
# memory held back, 30-frame stacks kept for every allocation site) the process grows by KBs per
# input until libFuzzer's 1024 MB limit stops a long run (fuzz-decode: 290 → 326 MB over 13 000
# inputs; with these 130 → 137 MB, and faster). Inputs are small, so a use after free is still
# caught while the block is among the last 32 MB freed.
export ASAN_OPTIONS=${ASAN_OPTIONS:-leak_check_at_exit=0:detect_stack_use_after_return=0:quarantine_size_mb=32:malloc_context_size=10}
# libFuzzer's check for leaks per input reports every unreachable block once it runs, those
# globals included: the same suppressions as `make test-sanitize` (each with its reason there).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0}
mkdir -p "$scratch/logs"
summary=()
failed=0
for t in $targets; do
    bin="$scratch/release/$t"
    [ -x "$bin" ] || { echo "no fuzz target '$t'; targets: $(echo $all)" >&2; exit 2; }
    corpus="$scratch/corpus/$t"
    crashes="$root/Fuzz/Crashes/$t"
    log="$scratch/logs/$t.log"
    mkdir -p "$corpus" "$crashes"
    # Each target runs in an empty directory of its own: whatever it reads or writes by a relative
    # path stays there. The graph target gets a few input files there to name.
    work=$(mktemp -d "${TMPDIR:-/tmp}/mediagraph-fuzz-$t.XXXXXX")
    if [ "$t" = fuzz-graph ]; then
        cp "$root/Fuzz/Seeds/fuzz-y4m/420.y4m" "$work/in.y4m"
        cp "$root/Fuzz/Seeds/fuzz-wav/s16.wav" "$work/in.wav"
        cp "$root/Fuzz/Seeds/fuzz-shader/swirl.glsl" "$work/in.glsl"
        cp "$root/Fuzz/Seeds/fuzz-cube/domain3.cube" "$work/in.cube"
        cp "$root/Fuzz/Seeds/fuzz-acv/four-curves.acv" "$work/in.acv"
        cp "$root/Fuzz/Seeds/fuzz-h264/bframes.h264" "$work/in.h264"
        cp "$root/Fuzz/Seeds/fuzz-ivf/vp9.ivf" "$work/in.ivf"
        cp "$root/Fuzz/Seeds/fuzz-adts/mono.aac" "$work/in.aac"
        cp "$root/Fuzz/Seeds/fuzz-subtitles/crlf-tags.srt" "$work/in.srt"
        cp "$root/Graphs/media/signs.ass" "$work/in.ass"
    fi
    dict=()
    [ -f "$root/Fuzz/Dictionaries/$t.dict" ] && dict=(-dict="$root/Fuzz/Dictionaries/$t.dict")
    echo "== $t: $label (log: $log)"
    start=$(date +%s)
    set +e
    # CPU seconds as well as wall-clock ones: at nice 19 on a busy machine the wall clock says
    # more about the other processes than about the target.
    TIMEFORMAT='%U %S'
    # One input asking for a gigabyte is a finding (malloc_limit); the process's RSS may grow
    # further over a long run, as ASan's allocator keeps pages of every size class it has used
    # (fuzz-filesrc: 1 GB after 250 000 inputs with 49 MB live).
    { time { (cd "$work" && "$bin" "${limit[@]}" -timeout="$timeout" -malloc_limit_mb=1024 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$crashes/" "${dict[@]}" ${FUZZ_ARGS:-} "$corpus" "$root/Fuzz/Seeds/$t") >"$log" 2>&1; } ; } 2>"$log.cpu"
    status=$?
    set -e
    elapsed=$(( $(date +%s) - start ))
    rm -rf "$work"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $status -eq 0 ]; then
        result=ok
    elif [ $status -eq 72 ] && grep -q "libFuzzer: run interrupted" "$log"; then
        # SIGINT (libFuzzer's -interrupted_exitcode): stopped by hand, not a finding
        result="interrupted, no finding"
    else
        failed=1
        # a slow unit is written there too but is not what failed
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | grep -v '/slow-unit-' | tail -1)
        result="FAILED (exit $status) ${artifact:-see $log}"
        grep -m1 -E "ERROR: |Fatal error|SUMMARY" "$log" || true
    fi
    cpu=$(awk '{printf "%.0f", $1 + $2}' "$log.cpu" 2>/dev/null || echo "?")
    rm -f "$log.cpu"
    summary+=("$(printf '%-16s %12s executions %6ss (%ss CPU)  %s' "$t" "${runs:-?}" "$elapsed" "$cpu" "$result")")
done

echo
echo "fuzz summary ($label per target, commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "?")$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ", modified")):"
printf '%s\n' "${summary[@]}"
exit $failed

#!/usr/bin/env bash
# `make test-sanitize`: the whole test suite under address sanitizer, with undefined-behaviour
# checks on the C code, then the engine and scheduler tests under thread sanitizer. Debug builds
# (every check of Swift itself on, -Ounchecked is release-only) in scratch paths of their own
# (.build-asan, .build-tsan), so the release build `make test` uses is untouched. Not part of
# `make test` (CI): about 25 minutes on 2 cores.
#
#   SANITIZE="address thread"   which runs (default both)
#   TSAN_FILTER=regex           which tests run under thread sanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=${SANITIZE:-address thread}
# The tests that run graphs on threads: the scheduler and progress tests (engine, test nodes),
# graph runs with real nodes through the CLI (fan-out, encoders and the muxer on their own threads,
# Ctrl-C while running), and the graphs with several inputs (the synchronizers, concat, overlay,
# stack, transition, amix, N-input shaders, the snapshot node's encoder thread), the row-band
# workers (BandCrew) and the shader's bands taking row chunks from a shared counter, frei0r mixers
# and version-2 C plugins.
tsan_filter=${TSAN_FILTER:-threadCountsGiveTheSameResult|SchedulerTests|ProgressReadingTests|FilterGraphTests|EncodeAndMuxTests|VideoSynchronizerTests|AudioSynchronizerTests|SyncTimingTests|ConcatTests|ConcatMismatchTests|OverlayGraphTests|StackGraphTests|TransitionGraphTests|AmixTests|MultiInputShaderTests|SnapshotTests|RowBandsTests|ConcatMemoryTests|Frei0rMixerTests|CPluginV2Tests}

# Swift's crash backtracer would run inside the sanitizers' own handlers: leave reports to them.
export SWIFT_BACKTRACE=enable=no
# Tests that bound the time a hostile input may take (5 s in a release build) allow this many
# times more: a debug build under a sanitizer runs several times slower.
export MEDIAGRAPH_TEST_TIME_SCALE=${MEDIAGRAPH_TEST_TIME_SCALE:-10}

for run in $runs; do
    case $run in
    address)
        # Swift's compiler has no undefined-behaviour sanitizer on Linux (Swift code traps on
        # overflow and bounds by itself in a debug build); the C code (the plugin shim, the
        # clang-imported headers) is compiled with -fsanitize=undefined, whose checks the
        # address sanitizer's runtime carries. Errors stop the process.
        export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0"
        export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
        # Leaks: see scripts/sanitizers/lsan.supp for what is suppressed and why.
        export LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0"
        echo "== address sanitizer (+ undefined behaviour in C): the whole suite"
        swift build --build-tests --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build-asan
        swift test --skip-build --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build-asan \
            --parallel --num-workers 2
        ;;
    thread)
        unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
        export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
        echo "== thread sanitizer: $tsan_filter"
        # -DMEDIAGRAPH_TSAN: locks are pthread mutexes, which the sanitizer sees (Core's Lock.swift)
        swift build --build-tests --sanitize=thread -Xswiftc -DMEDIAGRAPH_TSAN --scratch-path .build-tsan
        swift test --skip-build --sanitize=thread -Xswiftc -DMEDIAGRAPH_TSAN --scratch-path .build-tsan --filter "$tsan_filter"
        ;;
    *) echo "unknown sanitizer run '$run' (address, thread)" >&2; exit 2 ;;
    esac
done
echo "sanitizers: clean ($runs)"

#!/usr/bin/env bash
# Builds Examples/CustomFilter as a user would: a program of its own depending on MediaGraph by
# version, here a tagged (1.0.0) clone of this checkout's committed HEAD, resolved offline — into
# DIR (default .build/example-check). CustomFilterPackageTests does the same steps; `make test`
# runs this beside the main build, which leaves a core idle much of the time, so that the test
# finds the example built (or waits for this to finish) and builds it again there (then only
# checking that nothing changed) instead of compiling MediaGraph in debug while the other tests run. DIR/commit names the commit
# built, written only when the build succeeded.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/.build/example-check}
url=https://github.com/mediagraph/MediaGraph.git
rm -rf "$dir"
mkdir -p "$dir/CustomFilter"
# while this runs, DIR/building holds its process id: CustomFilterPackageTests waits for it
echo $$ > "$dir/building"
trap 'rm -f "$dir/building"' EXIT
git clone --quiet --no-local --depth 1 "file://$root" "$dir/MediaGraph"
git -C "$dir/MediaGraph" tag 1.0.0
cp -R "$root/Examples/CustomFilter/Package.swift" "$root/Examples/CustomFilter/Sources" "$dir/CustomFilter/"
swift package --package-path "$dir/CustomFilter" config set-mirror --original "$url" --mirror "file://$dir/MediaGraph"
# Each commit is tagged 1.0.0 anew, and SwiftPM's fingerprint store (~/.swiftpm/security) may have
# recorded 1.0.0 at another commit for a clone at this path (a user's 1.0.0 never moves): the
# strict check then refused the build ("does not match previously recorded value").
swift build --package-path "$dir/CustomFilter" --disable-dependency-cache --resolver-fingerprint-checking warn
git -C "$dir/MediaGraph" rev-parse HEAD > "$dir/commit"

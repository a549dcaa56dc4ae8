#!/usr/bin/env bash
# Installs the built `mediagraph` binary, its man page, its bash, zsh and fish completions and the
# example plugin under PREFIX (`make install PREFIX=…` builds first and then runs this).
#   scripts/install.sh PREFIX [CONFIG]
# The man page comes from swift-argument-parser's generate-manual plugin (it reads the same
# command declarations as --help); the completions from the binary's
# --generate-completion-script. Both work offline.
set -euo pipefail
prefix=${1:?usage: scripts/install.sh PREFIX [CONFIG]}
config=${2:-release}
swift=${SWIFT:-swift}
cd "$(dirname "$0")/.."
bin=.build/$config/mediagraph
[ -x "$bin" ] || { echo "install: $bin is missing; build first (make build CONFIG=$config)" >&2; exit 1; }
# The example plugin goes where the installed binary looks first: PREFIX/lib/mediagraph/plugins
# (`../lib/mediagraph/plugins` beside bin/, Docs/writing-a-plugin.md), so graphs that name
# "ExampleFilters" run with the installed binary as they do in the build directory.
plugin=.build/$config/libExampleFilters.so
[ -f "$plugin" ] || { echo "install: $plugin is missing; build first (make build CONFIG=$config)" >&2; exit 1; }

# The plugin builds the package (already built: nothing to do) and writes mediagraph.1 into its
# work directory under .build/plugins.
"$swift" package plugin generate-manual --configuration "$config" >/dev/null
man=$(find .build/plugins/GenerateManual/outputs -name mediagraph.1 -print -quit 2>/dev/null || true)
[ -n "$man" ] || { echo "install: the generate-manual plugin wrote no mediagraph.1" >&2; exit 1; }

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d" "$prefix/lib/mediagraph/plugins"
install -m 755 "$bin" "$prefix/bin/mediagraph"
install -m 755 "$plugin" "$prefix/lib/mediagraph/plugins/libExampleFilters.so"
install -m 644 "$man" "$prefix/share/man/man1/mediagraph.1"
"$bin" --generate-completion-script bash > "$prefix/share/bash-completion/completions/mediagraph"
"$bin" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_mediagraph"
"$bin" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/mediagraph.fish"
echo "installed mediagraph, its man page, completions and the example plugin under $prefix"

#!/usr/bin/env bash
# Installs the built `mediagraph` binary, its man page and its bash, zsh and fish completions
# under PREFIX (`make install PREFIX=…` builds first and then runs this).
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

# The plugin builds the package (already built: nothing to do) and writes mediagraph.1 into its
# work directory under .build/plugins.
"$swift" package plugin generate-manual --configuration "$config" >/dev/null
man=$(find .build/plugins/GenerateManual/outputs -name mediagraph.1 -print -quit 2>/dev/null || true)
[ -n "$man" ] || { echo "install: the generate-manual plugin wrote no mediagraph.1" >&2; exit 1; }

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$bin" "$prefix/bin/mediagraph"
install -m 644 "$man" "$prefix/share/man/man1/mediagraph.1"
"$bin" --generate-completion-script bash > "$prefix/share/bash-completion/completions/mediagraph"
"$bin" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_mediagraph"
"$bin" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/mediagraph.fish"
echo "installed mediagraph, its man page and completions under $prefix"

#!/usr/bin/env bash
# Installs into a temporary prefix and checks what a user gets: the binary runs, every file is
# there and not empty, the binary finds the example plugin by name, `man -l` renders the page
# (with the subcommands in it), and bash and zsh accept the completion scripts' syntax. Run by CI after the tests (`make check-install`).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
scripts/install.sh "$prefix" "${1:-release}" >/dev/null
fail() { echo "check-install: $*" >&2; exit 1; }
for f in bin/mediagraph share/man/man1/mediagraph.1 share/bash-completion/completions/mediagraph \
         share/zsh/site-functions/_mediagraph share/fish/vendor_completions.d/mediagraph.fish \
         lib/mediagraph/plugins/libExampleFilters.so; do
  [ -s "$prefix/$f" ] || fail "$f missing or empty under $prefix"
done
"$prefix/bin/mediagraph" --help >/dev/null || fail "the installed binary does not run"
# a graph naming "ExampleFilters" finds the installed plugin on the binary's own search path
"$prefix/bin/mediagraph" validate Graphs/plugin-example.json >/dev/null 2>&1 \
  || fail "the installed binary does not find the example plugin (Graphs/plugin-example.json)"
page=$(MANWIDTH=80 man -l "$prefix/share/man/man1/mediagraph.1" 2>&1 | col -b) || fail "man -l failed: $page"
for word in NAME SYNOPSIS validate run nodes; do
  grep -q "$word" <<<"$page" || fail "the rendered man page lacks '$word'"
done
bash -n "$prefix/share/bash-completion/completions/mediagraph" || fail "bash completion: syntax error"
if command -v zsh >/dev/null; then zsh -n "$prefix/share/zsh/site-functions/_mediagraph" || fail "zsh completion: syntax error"; fi
if command -v fish >/dev/null; then fish -n "$prefix/share/fish/vendor_completions.d/mediagraph.fish" || fail "fish completion: syntax error"; fi
echo "check-install: binary, man page, completions and example plugin installed and usable"

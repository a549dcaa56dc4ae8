# The two commands a new user needs are `make run` and `make test` (see README.md).
SWIFT ?= swift
CONFIG ?= release
BIN = .build/$(CONFIG)/mediagraph
PREFIX ?= /usr/local

.PHONY: setup build run test bench clean install check-install

setup:
	./scripts/setup.sh

build: setup
	$(SWIFT) build -c $(CONFIG)

# Sets everything up and runs the main job: the default graph, which writes out/demo.mp4.
run: build
	$(BIN) run Graphs/demo.json

# Sets everything up and runs every test (unit and end-to-end) against the release build.
test: build
	$(SWIFT) test -c $(CONFIG) --parallel --num-workers 2

# Long measurements against ffmpeg, measured in the same run (not part of the tests).
bench: build
	$(SWIFT) build -c $(CONFIG) --product mediagraph-bench
	.build/$(CONFIG)/mediagraph-bench

# Installs the binary, its man page and bash/zsh/fish completions under PREFIX (bin/, share/man/,
# share/bash-completion/, share/zsh/site-functions/, share/fish/vendor_completions.d/).
install: build
	SWIFT=$(SWIFT) ./scripts/install.sh "$(PREFIX)" $(CONFIG)

# Installs into a temporary prefix and checks the files and that `man -l` renders the page (CI).
check-install: build
	SWIFT=$(SWIFT) ./scripts/check-install.sh $(CONFIG)

clean:
	rm -rf .build out

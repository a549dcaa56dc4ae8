# The two commands a new user needs are `make run` and `make test` (see README.md).
SWIFT ?= swift
CONFIG ?= release
BIN = .build/$(CONFIG)/mediagraph
PREFIX ?= /usr/local

.PHONY: setup build run test bench fuzz test-sanitize clean install check-install

setup:
	./scripts/setup.sh

build: setup
	$(SWIFT) build -c $(CONFIG)

# Sets everything up and runs the main job: the default graph, which writes out/demo.mp4.
run: build
	$(BIN) run Graphs/demo.json

# Sets everything up and runs every test (unit and end-to-end) against the release build: one
# `swift test` that builds and runs. No test uses `@testable import`, so the library modules are
# built without testability, with the same flags as `swift build` (`make run` and `make test`
# share the build; with testability every module compiled again, and the build took 8 minutes
# on 2 cores against 6). Beside it, the example package's build against a tagged clone
# (scripts/build-example.sh, log in .build/example-check.log), which CustomFilterPackageTests
# then finds done, or waits for: the main build leaves a core idle much of the time.
test: setup
	@mkdir -p .build
	./scripts/build-example.sh > .build/example-check.log 2>&1 & example=$$!; \
	$(SWIFT) test -c $(CONFIG) --disable-testable-imports --parallel --num-workers 2; status=$$?; \
	wait $$example || echo "the example's early build failed (.build/example-check.log); CustomFilterPackageTests built it again"; \
	exit $$status

# Long measurements against ffmpeg, measured in the same run (not part of the tests).
bench: build
	$(SWIFT) build -c $(CONFIG) --product mediagraph-bench
	.build/$(CONFIG)/mediagraph-bench

# Installs the binary, its man page, bash/zsh/fish completions and the example plugin under PREFIX
# (bin/, share/man/, share/bash-completion/, share/zsh/site-functions/,
# share/fish/vendor_completions.d/, lib/mediagraph/plugins/).
install: build
	SWIFT=$(SWIFT) ./scripts/install.sh "$(PREFIX)" $(CONFIG)

# Installs into a temporary prefix and checks the files and that `man -l` renders the page (not part
# of `test`: the manual plugin rebuilds the package, minutes on 2 cores).
check-install: build
	SWIFT=$(SWIFT) ./scripts/check-install.sh $(CONFIG)

# libFuzzer harnesses with address sanitizer, FUZZ_SECONDS (60) per target (README, "Fuzzing").
fuzz: setup
	./Fuzz/run.sh

# The tests under address (+ undefined behaviour in C) and thread sanitizers; not part of `test`.
test-sanitize: setup
	./scripts/test-sanitize.sh

clean:
	rm -rf .build out

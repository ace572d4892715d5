# Two commands do everything on a fresh Debian machine:
#   make run    install what is missing, build, start the service on $HOST:$PORT
#   make test   the same set-up, then the whole test suite
# Stamp files under .stamps/ make a second run skip what is already done.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
# Puts Node 24 first on PATH (fetched from the npm registry when the machine's node is older than 24).
NODE := eval "$$(bash scripts/node-env.sh)";
SRC := $(shell find src -type f 2>/dev/null)

.PHONY: setup run test build dev lint typecheck openapi bench clean
.DEFAULT_GOAL := run

setup: .stamps/debian .stamps/npm

.stamps/debian: scripts/install-debian-deps.sh scripts/debian-packages.txt
	bash scripts/install-debian-deps.sh
	@mkdir -p .stamps && touch $@

.stamps/debian-test: scripts/install-debian-deps.sh scripts/debian-packages.txt scripts/debian-packages-test.txt
	bash scripts/install-debian-deps.sh $$(sed -e 's/#.*//' scripts/debian-packages-test.txt)
	@mkdir -p .stamps && touch $@

.stamps/debian-bench: scripts/install-debian-deps.sh scripts/debian-packages.txt scripts/debian-packages-bench.txt
	bash scripts/install-debian-deps.sh $$(sed -e 's/#.*//' scripts/debian-packages-bench.txt)
	@mkdir -p .stamps && touch $@

.stamps/npm: package.json package-lock.json
	$(NODE) npm ci --no-audit --no-fund
	@mkdir -p .stamps && touch $@

dist/.built: .stamps/npm $(SRC) scripts/copy-assets.mjs tsconfig.json tsconfig.build.json
	$(NODE) rm -rf dist && npm run build
	@touch $@

build: setup dist/.built

# small young generations (the offline thread keeps a larger one): less memory, same speed (docs/benchmarks.md, "Memory budget")
run: build
	$(NODE) exec node --max-semi-space-size=2 --max-old-space-size=1024 dist/server.js

dev: setup
	$(NODE) npm run dev

# plain output (no colour codes) so that a CI log reads as text, whatever terminal it runs in
test: setup .stamps/debian-test
	$(NODE) export NO_COLOR=1 FORCE_COLOR=0 && npm run typecheck && npm run lint && npm test

typecheck lint openapi: .stamps/npm
	$(NODE) npm run $@

bench: build .stamps/debian-bench
	$(NODE) npm run bench

clean:
	rm -rf dist .stamps node_modules .tools

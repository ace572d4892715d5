#!/usr/bin/env bash
# The WORKERS 1 / 4 / 12 table of issue 23 (bench/scaling.ts) on a 16-core machine without network
# (the `device` tool's machines: nothing can be fetched there, at most 64 MiB travel with a call).
#
#   here:   bash bench/device-scaling.sh pack   # builds, then packs into .device/ (git-ignored)
#   there:  bash bench/device-scaling.sh run    # unpacks into /tmp/ls, runs the bench, log in $OUT
#
# What travels, compressed: Node 24 (the binary only), dist/, the production node_modules (build
# leftovers of native modules pruned) with autocannon and tsx for the bench, bench/ and
# test/data/, and the Debian packages of Apertium en->es with the libraries its programs need
# (from this machine's apt cache; they are unpacked into / there, as dpkg -x does).
# On the device: run(command: "bash bench/device-scaling.sh run", carry: [".device"], timeout_s: 600).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT_DIR=${OUT:-bench/out}
PACK=.device

pack () {
  eval "$(bash scripts/node-env.sh)"
  npm run build >/dev/null
  rm -rf "$PACK" /tmp/ls-pack && mkdir -p "$PACK" /tmp/ls-pack/app
  # the production modules, and what the bench itself needs
  cp package.json package-lock.json /tmp/ls-pack/app/
  (cd /tmp/ls-pack/app && npm ci --omit=dev --no-audit --no-fund --ignore-scripts >/dev/null)
  cp -r node_modules/cld/build /tmp/ls-pack/app/node_modules/cld/ 2>/dev/null || true
  rm -rf /tmp/ls-pack/app/node_modules/cld/deps /tmp/ls-pack/app/node_modules/cld/build/Release/obj.target /tmp/ls-pack/app/node_modules/cld/build/Release/.deps
  for dep in autocannon tsx esbuild @esbuild get-tsconfig resolve-pkg-maps; do
    [ -e "node_modules/$dep" ] && cp -r "node_modules/$dep" /tmp/ls-pack/app/node_modules/
  done
  mkdir -p /tmp/ls-pack/app/test/data /tmp/ls-pack/app/src/runtime && cp test/data/sentiment-dev.jsonl /tmp/ls-pack/app/test/data/
  # bench/scaling.ts imports the runtime's machine helpers from src (tsx runs them); dist/ stays
  # newer than what src/ holds there, so the bench does not try to build (times kept: cp -p)
  cp -p src/runtime/machine.ts /tmp/ls-pack/app/src/runtime/
  cp -p tsconfig.json tsconfig.build.json /tmp/ls-pack/app/
  cp -rp bench /tmp/ls-pack/app/
  cp -r dist /tmp/ls-pack/app/
  rm -rf /tmp/ls-pack/app/bench/out /tmp/ls-pack/app/bench/corpus
  cp "$(command -v node)" /tmp/ls-pack/node
  # Apertium en->es: its packages and those of the libraries its programs link
  mkdir -p /tmp/ls-pack/debs
  local pkgs
  pkgs=$( (echo apertium apertium-eng-spa lttoolbox apertium-lex-tools cg3 perl-modules-5.36;
    for bin in lt-proc apertium-tagger apertium-transfer apertium-interchunk apertium-postchunk apertium-pretransfer lrx-proc cg-proc apertium-wblank-attach apertium-wblank-detach apertium-wblank-mode; do
      ldd "$(command -v "$bin")" | awk '/=> \// {print $3}' | xargs -r dpkg -S 2>/dev/null | cut -d: -f1
    done) | sort -u)
  (cd /tmp/ls-pack/debs && apt-get download $pkgs >/dev/null)
  tar -C /tmp/ls-pack -cJf "$PACK/bundle.tar.xz" .
  local size
  size=$(stat -c %s "$PACK/bundle.tar.xz")
  echo "packed $((size / 1024 / 1024)) MiB into $PACK/bundle.tar.xz ($(echo "$pkgs" | wc -w) Debian packages)"
  if [ "$size" -gt $((60 * 1024 * 1024)) ]; then echo "too large to travel (64 MiB in all)" >&2; exit 1; fi
}

run () {
  rm -rf /tmp/ls && mkdir -p /tmp/ls && tar -C /tmp/ls -xJf "$PACK/bundle.tar.xz"
  for deb in /tmp/ls/debs/*.deb; do dpkg -x "$deb" /; done
  ldconfig || true
  mkdir -p "$OUT_DIR"
  export PATH="/tmp/ls:$PATH"
  cd /tmp/ls/app
  node --version
  node --import tsx bench/scaling.ts --workers 1,4,12 --service-cores 12 --duration 15 --connections 64 2>&1 | tee "$OUT_DIR/scaling.log"
}

case "${1:-}" in
  pack) pack ;;
  run) run ;;
  *) echo "usage: bash bench/device-scaling.sh pack|run" >&2; exit 2 ;;
esac

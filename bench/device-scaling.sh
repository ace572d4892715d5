#!/usr/bin/env bash
# The WORKERS 1 / 4 / 12 table of issue 23 (bench/scaling.ts) on a 16-core machine without network
# (the `device` tool's machines: nothing can be fetched there, at most 64 MiB travel with a call).
#
#   here:   bash bench/device-scaling.sh pack   # builds, then packs into .device/ (git-ignored)
#   there:  bash bench/device-scaling.sh run    # unpacks into /tmp/ls, runs the bench, log in $OUT
#
# What travels, compressed: Node 24 (the binary only), dist/, the production node_modules (build
# leftovers of native modules, types and maps pruned), the bench bundled as JavaScript (autocannon
# in it) with its sentences, test/data/, and the Debian packages of Apertium en->es with the
# libraries its programs need (unpacked there into a root of their own, /tmp/ls/root).
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
  # types, maps and docs are not needed to run
  find /tmp/ls-pack/app/node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' \) -delete
  mkdir -p /tmp/ls-pack/app/test/data /tmp/ls-pack/app/bench/lib && cp test/data/sentiment-dev.jsonl /tmp/ls-pack/app/test/data/
  # the bench itself, bundled (no TypeScript there), where its own paths expect it, and its sentences
  npx esbuild bench/scaling.ts --bundle --platform=node --format=esm --packages=external --outfile=/tmp/ls-pack/app/bench/lib/scaling.mjs --log-level=warning
  # the load generator with autocannon in it (a devDependency: not among the production modules)
  npx esbuild bench/lib/cannon-child.ts --bundle --platform=node --format=esm --outfile=/tmp/ls-pack/app/bench/lib/cannon-child.mjs --log-level=warning \
    --banner:js="import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);"
  node --import tsx -e "import('./bench/lib/corpus.ts').then(m => process.stdout.write(JSON.stringify(m.englishCorpus().sentences)))" > /tmp/ls-pack/app/sentences.json
  cp -r dist web /tmp/ls-pack/app/
  find /tmp/ls-pack/app/dist -name '*.map' -delete
  cp "$(command -v node)" /tmp/ls-pack/node
  # Apertium en->es: its packages and those of the libraries its programs link (but the C
  # library's and the C++ runtime's, which every system has)
  mkdir -p /tmp/ls-pack/debs
  local pkgs
  pkgs=$( (echo apertium apertium-eng-spa lttoolbox apertium-lex-tools cg3
    for bin in lt-proc apertium-tagger apertium-transfer apertium-interchunk apertium-postchunk apertium-pretransfer lrx-proc cg-proc apertium-wblank-attach apertium-wblank-detach apertium-wblank-mode; do
      for lib in $(ldd "$(command -v "$bin")" | awk '/=> \// {print $3}'); do
        dpkg -S "$lib" 2>/dev/null || dpkg -S "/usr$lib" 2>/dev/null || dpkg -S "$(realpath "$lib")" 2>/dev/null || true
      done | cut -d: -f1
    done) | sort -u | grep -vxE 'libc6|libgcc-s1|libstdc\+\+6|zlib1g|liblzma5')
  (cd /tmp/ls-pack/debs && apt-get download $pkgs >/dev/null)
  tar -C /tmp/ls-pack -cJf "$PACK/bundle.tar.xz" .
  local size
  size=$(stat -c %s "$PACK/bundle.tar.xz")
  echo "packed $((size / 1024 / 1024)) MiB into $PACK/bundle.tar.xz ($(echo "$pkgs" | wc -w) Debian packages)"
  if [ "$size" -gt $((60 * 1024 * 1024)) ]; then echo "too large to travel (64 MiB in all)" >&2; exit 1; fi
}

run () {
  rm -rf /tmp/ls && mkdir -p /tmp/ls/root && tar -C /tmp/ls -xJf "$PACK/bundle.tar.xz"
  # Apertium and its libraries in a root of their own, found by PATH and LD_LIBRARY_PATH; its mode
  # files name /usr/share/apertium
  for deb in /tmp/ls/debs/*.deb; do dpkg -x "$deb" /tmp/ls/root; done
  [ -e /usr/share/apertium ] || ln -s /tmp/ls/root/usr/share/apertium /usr/share/apertium
  export PATH="/tmp/ls:/tmp/ls/root/usr/bin:$PATH" LD_LIBRARY_PATH="/tmp/ls/root/usr/lib/x86_64-linux-gnu:/tmp/ls/root/lib/x86_64-linux-gnu"
  mkdir -p "$OUT_DIR" && OUT_DIR=$(cd "$OUT_DIR" && pwd)
  cd /tmp/ls/app
  node --version
  lt-proc -h 2>&1 | head -1 || true
  node bench/lib/scaling.mjs --sentences sentences.json --workers "${SCALING_WORKERS:-1,4,12}" --service-cores "${SCALING_CORES:-12}" --duration "${SCALING_SECONDS:-15}" --connections 64 2>&1 | tee "$OUT_DIR/scaling.log"
}

case "${1:-}" in
  pack) pack ;;
  run) run ;;
  *) echo "usage: bash bench/device-scaling.sh pack|run" >&2; exit 2 ;;
esac

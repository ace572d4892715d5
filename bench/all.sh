#!/usr/bin/env bash
# Every benchmark, in turn (npm run bench / make bench). The detection corpus is built first when
# missing (~3 min, downloads ~120 MB of Debian packages into bench/corpus/cache).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f bench/corpus/detect.jsonl ] || npm run bench:detect:corpus
npm run bench:translate
npm run bench:detect
npm run bench:detect:load
npm run bench:detect:startup
npm run bench:analyze
npm run bench:sentiment
npm run bench:edit
npm run bench:office
npm run bench:load
npm run bench:fuzz -- --cases 20000

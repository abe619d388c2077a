#!/usr/bin/env bash
# .devbench/node.xz: this machine's node (v20, glibc), symbols stripped (no effect on speed), xz with the x86 filter.
set -euo pipefail
DB=$(cd "$(dirname "$0")/../.." && pwd)/.devbench
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cp "$(command -v node)" "$T/node" && strip --strip-all "$T/node" && "$T/node" -v
xz --x86 --lzma2=preset=9e,dict=128MiB -T1 -c "$T/node" > "$DB/node.xz"
ls -l "$DB/node.xz"

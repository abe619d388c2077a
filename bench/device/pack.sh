#!/usr/bin/env bash
# Rebuilds .devbench/app.tar.xz (bench/device/README.md) from the current working tree (run it here, before each device call, after any
# change to src/ or bench/): the service bundle (dist/, with the CLI), the bench harness bundled (bench/run.mjs,
# prebuilt/bare-server.mjs) and the few packages they load at run time. node.xz and pg.tar.xz are built once
# (bench/device/pack-node.sh, pack-pg.sh). Needs this machine's node_modules.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
DB="$REPO/.devbench"
STAGE=$(mktemp -d /tmp/devbench-pack.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT
cd "$REPO"
node scripts/build.mjs --cli >&2
node "$REPO/bench/device/bundle-bench.mjs" "$STAGE/app" >&2
mkdir -p "$STAGE/app/dist"
cp dist/main.js dist/cli.js dist/ingest.worker.js dist/build.json "$STAGE/app/dist/"
# What dist/main.js and the harness load at run time (scripts/build.mjs SERVICE_EXTERNAL that are imported statically,
# ioredis for PostgreSQL + Redis, @fastify/rate-limit's stores loaded by path), with their dependencies.
node "$REPO/bench/device/closure.mjs" "$REPO" better-sqlite3 openai @opentelemetry/core @opentelemetry/exporter-trace-otlp-http \
  @opentelemetry/exporter-trace-otlp-proto @opentelemetry/resources @opentelemetry/sdk-trace-node ioredis @fastify/rate-limit \
  | grep -v -E '^node_modules/(prebuild-install|rc|tar-fs|simple-get|detect-libc|napi-build-utils|node-abi|expand-template|github-from-package|minimist|mkdirp-classic|pump|tunnel-agent|chownr|tar-stream|bl|buffer|base64-js|ieee754|inherits|readable-stream|safe-buffer|string_decoder|util-deprecate|end-of-stream|once|wrappy|fs-constants|simple-concat|decompress-response|mimic-response|deep-extend|ini|strip-json-comments|semver)$' \
  > "$STAGE/mods.txt"
grep -q '^node_modules/better-sqlite3$' "$STAGE/mods.txt"
while read -r m; do
  if [ "$m" = node_modules/better-sqlite3 ]; then
    mkdir -p "$STAGE/app/$m/build/Release"
    cp -r "$m/package.json" "$m/lib" "$STAGE/app/$m/"
    cp "$m/build/Release/better_sqlite3.node" "$STAGE/app/$m/build/Release/"
  else
    mkdir -p "$STAGE/app/$(dirname "$m")"
    cp -r "$m" "$STAGE/app/$m"
  fi
done < "$STAGE/mods.txt"
# Types, maps, docs and TypeScript sources are never loaded.
find "$STAGE/app/node_modules" \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) -type f -delete
rm -rf "$STAGE/app/node_modules/openai/src"
find "$STAGE/app/node_modules" -type d -empty -delete
# taskset (util-linux, libc only), for a machine without it: run.sh puts it last on PATH.
mkdir -p "$STAGE/app/tools" && cp "$(command -v taskset)" "$STAGE/app/tools/taskset"
( cd "$STAGE/app" && git -C "$REPO" rev-parse HEAD > SOURCE_COMMIT && git -C "$REPO" status --short > SOURCE_STATUS || true )
du -sh "$STAGE/app" >&2
tar -C "$STAGE/app" -cf - . | xz -9e -T2 > "$DB/app.tar.xz.new"
mv "$DB/app.tar.xz.new" "$DB/app.tar.xz"
ls -l "$DB/app.tar.xz" >&2

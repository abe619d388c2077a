#!/bin/sh
# Starts the built image where only buildah works (no daemon; docs/operations.md "What was verified here"):
# `buildah run --isolation chroot` shares the host's network, so the service is reached on 127.0.0.1.
#   sh deploy/base-image/smoke-test.sh [image] [postgres-url]
# Checks: the process runs as uid 10001 under tini; /livez and /readyz answer; the image's HEALTHCHECK command
# passes; the CLI (dist/cli.js) makes a key that the API accepts; with a PostgreSQL URL, an api and a worker
# container share it (the compose layout) and SIGTERM stops both with status 0.
set -eu
IMAGE=${1:-localhost/svc:verify}
PG=${2:-}
PORT=${SMOKE_PORT:-18080}
SECRET=smoke-test-server-secret-0123456789abcdef
TRACK=$(mktemp)
# new runs in a command substitution (a subshell): the containers to remove are kept in a file.
cleanup() { while read -r c; do buildah rm "$c" >/dev/null 2>&1 || true; done < "$TRACK"; rm -f "$TRACK"; }
trap cleanup EXIT
new() { c=$(buildah from "$IMAGE"); echo "$c" >> "$TRACK"; echo "$c"; }
wait_http() {
  i=0
  until node -e "fetch('http://127.0.0.1:$PORT$1').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; do
    i=$((i + 1)); [ $i -lt 120 ] || { echo "FAIL: $1 did not answer" >&2; exit 1; }; sleep 0.5
  done
}
# SIGTERM to the container's tini (a descendant of that buildah run), as a container engine's stop sends it.
stop() {
  t=$(ps -eo pid=,ppid=,comm= | awk -v root="$1" '{ parent[$1] = $2; name[$1] = $3 } END { for (p in parent) { q = p; while (q in parent && q != root) q = parent[q]; if (q == root && name[p] == "tini") print p } }')
  kill -TERM $t
}
cmd() { buildah inspect --format '{{.OCIv1.Config.Entrypoint}} {{.OCIv1.Config.Cmd}} user {{.OCIv1.Config.User}}' "$IMAGE"; }

echo "image: $IMAGE; entrypoint and command: $(cmd)"
c=$(new)
echo "user in the image: $(buildah run --isolation chroot "$c" -- id -u):$(buildah run --isolation chroot "$c" -- id -g)"
buildah run --isolation chroot --env PORT=$PORT --env SERVER_SECRET=$SECRET "$c" -- /usr/bin/tini -- node dist/main.js > /tmp/smoke-all.log 2>&1 &
pid=$!
wait_http /livez && wait_http /readyz && echo "ok: /livez and /readyz (role all, SQLite in the volume path)"
buildah run --isolation chroot --env PORT=$PORT "$c" -- node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" \
  && echo "ok: the HEALTHCHECK command passes inside the container"
key=$(buildah run --isolation chroot --env SERVER_SECRET=$SECRET --env LOG_LEVEL=silent "$c" -- node dist/cli.js keys create --scopes admin --json | node -e "process.stdin.on('data', (d) => process.stdout.write(JSON.parse(d).key))")
node -e "fetch('http://127.0.0.1:$PORT/v2/workspaces/current', { headers: { authorization: 'Bearer $key' } }).then(async (r) => { console.log('ok: GET /v2/workspaces/current with a CLI-made key:', r.status); process.exit(r.status === 200 ? 0 : 1) })"
stop $pid; wait $pid && echo "ok: SIGTERM, exit 0"
grep -q '"msg":"stopped"' /tmp/smoke-all.log && echo "ok: graceful shutdown logged"

if [ -n "$PG" ]; then
  a=$(new); w=$(new)
  env="--env DATABASE_URL=$PG --env DATABASE_SCHEMA=svc_smoke_$$ --env SERVER_SECRET=$SECRET --env PORT=$PORT"
  # shellcheck disable=SC2086
  buildah run --isolation chroot $env "$a" -- node dist/cli.js migrate && echo "ok: node dist/cli.js migrate (the Kubernetes Job's command)"
  # shellcheck disable=SC2086
  buildah run --isolation chroot $env --env SVC_ROLE=api "$a" -- /usr/bin/tini -- node dist/main.js > /tmp/smoke-api.log 2>&1 &
  api=$!
  # shellcheck disable=SC2086
  buildah run --isolation chroot $env --env SVC_ROLE=worker "$w" -- /usr/bin/tini -- node dist/main.js > /tmp/smoke-worker.log 2>&1 &
  worker=$!
  wait_http /readyz && echo "ok: api role on PostgreSQL ready"
  sleep 3; grep -q '"msg":"worker started"' /tmp/smoke-worker.log && echo "ok: worker role started on the same database"
  stop $api; stop $worker; wait $api && wait $worker && echo "ok: both stopped with status 0"
  if command -v psql >/dev/null; then PGOPTIONS="-c client_min_messages=warning" psql -q "$PG" -c "drop schema svc_smoke_$$ cascade"; fi
fi

#!/usr/bin/env bash
# The bench's small-table scenarios on a machine without node, npm, PostgreSQL or Redis (a borrowed x86-64 Linux box,
# glibc >= 2.36): unpacks node, the built service + bundled harness (app.tar.xz, made by pack.sh) and PostgreSQL 15 +
# Redis 7 (pg.tar.xz) into /tmp, then runs `bench/run.ts` bundled, with results under $OUT. Run from the repo root:
#   bash bench/device/run.sh
# Environment (all optional): BENCH_* as for `npm run bench` (defaults here: BENCH_SCALE=0 BENCH_SOAK_MINUTES=0,
# BENCH_ONLY = the small-table block, BENCH_ENGINES=sqlite,postgres, BENCH_DURATION=8); DEVBENCH_ENGINES=sqlite skips
# PostgreSQL/Redis; DEVBENCH_PGPORT / DEVBENCH_REDISPORT (5432 / 6379); DEVBENCH_PIN_DB=0 leaves PostgreSQL and Redis
# unpinned (default 1: on cores 0-1 with the servers, as on a 2-core machine); DEVBENCH_TIMEOUT (s, the bench's limit, 370);
# DEVBENCH_LIBS=all uses every carried shared library instead of only those the system lacks.
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DB="$REPO/.devbench"
OUT=${OUT:-/tmp/devbench-out}
mkdir -p "$OUT"
T0=$(date +%s)
W=$(mktemp -d /tmp/devbench.XXXXXX)
chmod 755 "$W"
PG_PID=
REDIS_PID=
BENCH_PID=

log() { printf '[devbench %4ss] %s\n' "$(($(date +%s) - T0))" "$*"; }

unxz_to() { # file.xz → stdout: xz, or Python's lzma where xz is missing
  if command -v xz >/dev/null 2>&1; then xz -dc "$1"; else python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer, 1 << 20)' "$1"; fi
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

as_nobody() { # PostgreSQL refuses root
  if [ "$(id -u)" != 0 ]; then "$@"
  elif command -v setpriv >/dev/null 2>&1; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
  else su -s /bin/sh nobody -c "exec $(printf '%q ' "$@")"; fi
}

cleanup() {
  [ -n "$BENCH_PID" ] && kill -TERM -- "-$BENCH_PID" 2>/dev/null
  # The postmaster's own pid (PG_PID may be su's): fast shutdown.
  [ -s "$W/pgdata/data/postmaster.pid" ] && kill -INT "$(head -1 "$W/pgdata/data/postmaster.pid")" 2>/dev/null
  [ -n "$PG_PID" ] && kill -TERM "$PG_PID" 2>/dev/null
  [ -n "$REDIS_PID" ] && kill -TERM "$REDIS_PID" 2>/dev/null
  sleep 1
  [ -n "$PG_PID" ] && kill -KILL "$PG_PID" 2>/dev/null
  rm -rf "$W"
}

main() {
  trap cleanup EXIT
  log "machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%d GiB", $2/1048576}' /proc/meminfo), $(ldd --version 2>/dev/null | head -1), kernel $(uname -r)"
  log "taskset: $(command -v taskset || echo missing) $(taskset --version 2>&1 | head -1)"

  # 1. Unpack.
  mkdir -p "$W/bin" "$W/pg" "$W/root"
  unxz_to "$DB/node.xz" > "$W/bin/node" && chmod 755 "$W/bin/node" || log "node: unpack FAILED"
  unxz_to "$DB/app.tar.xz" | tar -C "$W/root" -xf - || log "app: unpack FAILED"
  unxz_to "$DB/pg.tar.xz" | tar -C "$W/pg" -xf - || log "pg: unpack FAILED"
  chmod -R a+rX "$W"
  # The working tree's package.json (npm start's flags, read by bench/lib.ts) and the docs the bench may rewrite.
  cp "$REPO/package.json" "$W/root/"
  mkdir -p "$W/root/docs" && cp "$REPO/docs/performance.md" "$REPO/docs/performance.svg" "$W/root/docs/" 2>/dev/null
  log "unpacked ($(du -sh "$W" | cut -f1)); app built from $(cat "$W/root/SOURCE_COMMIT" 2>/dev/null) + $(wc -l < "$W/root/SOURCE_STATUS" 2>/dev/null) changed files"

  # 2. Shared libraries: the system's where it has them, the carried ones (Debian 12) for what it lacks.
  local CARRIED="$W/pg/libs" FALLBACK="$W/libs" PGBIN="$W/pg/usr/lib/postgresql/15/bin"
  local BINS=("$W/bin/node" "$PGBIN/postgres" "$PGBIN/initdb" "$W/pg/bin/redis-server" "$W/root/node_modules/better-sqlite3/build/Release/better_sqlite3.node")
  mkdir -p "$FALLBACK"
  if command -v ldd >/dev/null 2>&1; then
    for _ in 1 2 3 4 5 6; do
      local missing
      missing=$(for b in "${BINS[@]}"; do LD_LIBRARY_PATH="$FALLBACK" ldd "$b" 2>&1; done |
        awk '/=> not found/ {print $1} /: version .* not found/ {sub(/:$/, "", $1); n = split($1, p, "/"); print p[n]}' | sort -u)
      [ -z "$missing" ] && break
      for l in $missing; do [ -e "$CARRIED/$l" ] && ln -sf "$CARRIED/$l" "$FALLBACK/$l"; done
    done
    export LD_LIBRARY_PATH="$FALLBACK"
  else
    export LD_LIBRARY_PATH="$CARRIED"
  fi
  # DEVBENCH_LIBS=all: every carried library (a check that the carried set is complete).
  [ "${DEVBENCH_LIBS:-}" = all ] && export LD_LIBRARY_PATH="$CARRIED"
  if ! "$W/bin/node" -e 0 2>/dev/null || ! "$PGBIN/postgres" -V >/dev/null 2>&1 || ! "$W/pg/bin/redis-server" --version >/dev/null 2>&1; then
    log "with the system's libraries something does not start: using every carried library"
    export LD_LIBRARY_PATH="$CARRIED"
  fi
  log "carried libraries in use ($LD_LIBRARY_PATH): $(ls "$LD_LIBRARY_PATH" | tr '\n' ' ')"
  command -v ldd >/dev/null 2>&1 && for b in "${BINS[@]}"; do ldd "$b" 2>&1 | grep -q 'not found' && log "$(basename "$b"): $(ldd "$b" 2>&1 | grep 'not found' | tr '\n' ' ')"; done
  export PATH="$W/bin:$PATH:$W/root/tools"
  log "node $(node -v) at $(command -v node); taskset $(command -v taskset)"

  # 3. PostgreSQL + Redis (fall back to SQLite alone when they do not come up within 20 s).
  local ENGINES=${BENCH_ENGINES:-sqlite,postgres}
  local PGPORT=${DEVBENCH_PGPORT:-5432} REDISPORT=${DEVBENCH_REDISPORT:-6379}
  local PIN=()
  if [ "${DEVBENCH_PIN_DB:-1}" = 1 ] && [ "$(nproc)" -gt 2 ] && command -v taskset >/dev/null 2>&1; then PIN=(taskset -c 0,1); fi
  if [ "${DEVBENCH_ENGINES:-}" = sqlite ] || [[ "$ENGINES" != *postgres* ]]; then
    ENGINES=sqlite
  else
    local PGDATA="$W/pgdata" TZ_PG=GMT LOCALE=C.UTF-8
    # Ports taken by something else: the next free ones (the URLs below follow).
    while port_open "$PGPORT"; do log "port $PGPORT is taken"; PGPORT=$((PGPORT + 10000 > 65000 ? PGPORT + 1 : PGPORT + 10000)); done
    while port_open "$REDISPORT"; do log "port $REDISPORT is taken"; REDISPORT=$((REDISPORT + 10000 > 65000 ? REDISPORT + 1 : REDISPORT + 10000)); done
    # initdb and postgres look their user up: uid 65534 must have a passwd entry.
    if [ "$(id -u)" = 0 ] && ! getent passwd 65534 >/dev/null 2>&1; then
      echo 'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin' >> /etc/passwd
      getent group 65534 >/dev/null 2>&1 || echo 'nogroup:x:65534:' >> /etc/group
    fi
    [ -e /usr/share/zoneinfo/Etc/UTC ] && TZ_PG=Etc/UTC
    mkdir -p "$PGDATA" && chown 65534:65534 "$PGDATA" 2>/dev/null
    if ! as_nobody "$PGBIN/initdb" -D "$PGDATA/data" -U postgres -A trust -E UTF8 --locale=$LOCALE > "$W/initdb.log" 2>&1; then
      log "initdb with $LOCALE failed ($(tail -2 "$W/initdb.log" | tr '\n' ' ')): trying C"
      rm -rf "$PGDATA/data"
      LOCALE=C
      as_nobody "$PGBIN/initdb" -D "$PGDATA/data" -U postgres -A trust -E UTF8 --locale=C > "$W/initdb.log" 2>&1 || log "initdb FAILED: $(tail -3 "$W/initdb.log" | tr '\n' ' ')"
    fi
    echo 'CREATE DATABASE test;' | as_nobody "$PGBIN/postgres" --single -D "$PGDATA/data" postgres > "$W/single.log" 2>&1 || log "CREATE DATABASE test FAILED: $(tail -3 "$W/single.log")"
    # As the 2-core machine's PostgreSQL (docs/performance.md): autovacuum off, defaults otherwise; no Unix socket (TCP only).
    as_nobody "${PIN[@]}" "$PGBIN/postgres" -D "$PGDATA/data" -c listen_addresses=127.0.0.1 -c port="$PGPORT" \
      -c unix_socket_directories= -c autovacuum=off -c timezone="$TZ_PG" -c log_timezone="$TZ_PG" >> "$OUT/services.log" 2>&1 &
    PG_PID=$!
    "${PIN[@]}" "$W/pg/bin/redis-server" --bind 127.0.0.1 --port "$REDISPORT" --save '' --appendonly no --protected-mode no --daemonize no >> "$OUT/services.log" 2>&1 &
    REDIS_PID=$!
    local up=
    for _ in $(seq 1 200); do
      if port_open "$PGPORT" && port_open "$REDISPORT"; then up=1; break; fi
      sleep 0.1
    done
    if [ -n "$up" ]; then
      log "PostgreSQL ($LOCALE, TimeZone $TZ_PG) on $PGPORT and Redis on $REDISPORT are up${PIN:+, pinned to cores 0-1}"
      export TEST_PG_URL="postgres://postgres@127.0.0.1:$PGPORT/test" TEST_REDIS_URL="redis://127.0.0.1:$REDISPORT"
    else
      log "PostgreSQL or Redis did not come up within 20 s: SQLite only (see services.log)"
      tail -5 "$W/initdb.log" "$OUT/services.log" 2>/dev/null
      ENGINES=sqlite
    fi
  fi

  # 4. The bench.
  export BENCH_ENGINES="$ENGINES" BENCH_SCALE=${BENCH_SCALE:-0} BENCH_SOAK_MINUTES=${BENCH_SOAK_MINUTES:-0} BENCH_DURATION=${BENCH_DURATION:-8}
  export BENCH_ONLY=${BENCH_ONLY:-'^(cold start|webhook deliveries|event|getConversation|listConversations|listWorkspaceMembers|GET /v2/(workspaces|inbox)|POST /v2/inbox)'}
  export SVC_TEST_BUILD=dist BENCH_PREBUILT="$W/root/prebuilt"
  log "bench: BENCH_ENGINES=$BENCH_ENGINES BENCH_DURATION=$BENCH_DURATION BENCH_SCALE=$BENCH_SCALE BENCH_SOAK_MINUTES=$BENCH_SOAK_MINUTES BENCH_PUBLISH=${BENCH_PUBLISH:-} BENCH_ONLY=$BENCH_ONLY"
  cd "$W/root" || return
  # Its own process group (setsid): whatever it leaves running is stopped with it.
  local SETSID=()
  command -v setsid >/dev/null 2>&1 && SETSID=(setsid)
  "${SETSID[@]}" node bench/run.mjs > >(tee "$OUT/bench.stdout.txt") 2>&1 &
  BENCH_PID=$!
  local limit=${DEVBENCH_TIMEOUT:-370} started
  started=$(date +%s)
  while kill -0 "$BENCH_PID" 2>/dev/null; do
    if [ $(($(date +%s) - started)) -ge "$limit" ]; then
      log "bench still running after $limit s: stopped"
      kill -TERM -- "-$BENCH_PID" 2>/dev/null || kill -TERM "$BENCH_PID"
      sleep 2
      kill -KILL -- "-$BENCH_PID" 2>/dev/null || kill -KILL "$BENCH_PID" 2>/dev/null
      break
    fi
    sleep 1
  done
  wait "$BENCH_PID" 2>/dev/null
  log "bench exited with $? after $(($(date +%s) - started)) s"
  [ -n "${SETSID[*]}" ] && kill -TERM -- "-$BENCH_PID" 2>/dev/null
  BENCH_PID=
  sleep 0.5

  # 5. Results: the table's rows as markdown and JSON, the docs if the bench rewrote them (BENCH_PUBLISH=bench).
  grep -E '^\|' "$OUT/bench.stdout.txt" > "$OUT/rows.md" 2>/dev/null
  python3 - "$OUT/rows.md" "$OUT/rows.json" "$OUT/bench.stdout.txt" <<'PY' || log "rows.json FAILED"
import json, sys
lines = [l.rstrip('\n') for l in open(sys.argv[1], encoding='utf-8') if l.startswith('|')]
out = open(sys.argv[3], encoding='utf-8').read().splitlines()
header = [l for l in out if ' GiB, Node ' in l] + [l for l in out if l.endswith('s per scenario')]
rows = []
if lines:
    keys = [c.strip() for c in lines[0].strip('|').split('|')]
    for l in lines[2:]:
        rows.append(dict(zip(keys, [c.strip() for c in l.strip('|').split('|')])))
json.dump({'header': header, 'rows': rows}, open(sys.argv[2], 'w', encoding='utf-8'), indent=1, ensure_ascii=False)
print(f'{len(rows)} rows')
PY
  for f in performance.md performance.svg; do
    cmp -s "$W/root/docs/$f" "$REPO/docs/$f" || cp "$W/root/docs/$f" "$OUT/$f"
  done
  log "done: $(ls "$OUT" | tr '\n' ' ')"
}

main 2>&1 | tee "$OUT/bench.log"
exit 0

#!/usr/bin/env bash
# Installs (from Debian's packages) and starts the local services the tests talk to:
# PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379; and Chromium for the dashboard's
# browser tests. Idempotent.
set -uo pipefail
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

need_apt=()
command -v pg_ctlcluster >/dev/null 2>&1 || need_apt+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
# the dashboard's browser tests drive Debian's Chromium (/usr/bin/chromium) with playwright-core
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "[services] installing ${need_apt[*]}"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi

if ! (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  echo "[services] starting PostgreSQL"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  echo "[services] starting Redis"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
fi
for port in 5432 6379; do
  for _ in $(seq 1 30); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 1; done
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && echo "[services] 127.0.0.1:$port is up" || echo "[services] warning: 127.0.0.1:$port is not reachable"
done

#!/usr/bin/env bash
# make run: warmboxd in the foreground on its Unix socket and 127.0.0.1:8080,
# on the OCI engine (crun or runc, no Docker on the request path) where runc is and
# we are root, else on the Docker engine.  WARMBOX_ENGINE=docker picks Docker.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then
  sock=/run/warmbox/warmbox.sock
else
  sock=${XDG_RUNTIME_DIR:-/tmp}/warmbox.sock
fi
engine=()
if [ "${WARMBOX_ENGINE:-}" != docker ] && [ "$(id -u)" = 0 ] && command -v runc >/dev/null 2>&1 \
   && [ -x bin/warmbox-oci ]; then
  engine=(--engine oci)
  which="the OCI engine (crun where it runs, else runc, run by bin/warmbox-oci; WARMBOX_ENGINE=docker make run for Docker)"
else
  which="the Docker engine"
fi
cat <<TXT
warmboxd is starting on unix:$sock and http://127.0.0.1:8080 (loopback, no auth),
on $which.
Try, from another terminal:

  curl -s http://127.0.0.1:8080/v1/executions -H 'Content-Type: application/json' \\
       -d '{"language":"python","code":"print(6*7)"}'

  bin/warmbox --url unix:$sock run python -c 'print(6*7)'

Stop it with Ctrl-C.
TXT
mkdir -p "$(dirname "$sock")"
exec bin/warmboxd --listen "unix:$sock" --listen 127.0.0.1:8080 --insecure-no-auth "${engine[@]}"

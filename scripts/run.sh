#!/usr/bin/env bash
# make run: warmboxd in the foreground on its Unix socket and 127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then
  sock=/run/warmbox/warmbox.sock
else
  sock=${XDG_RUNTIME_DIR:-/tmp}/warmbox.sock
fi
cat <<TXT
warmboxd is starting on unix:$sock and http://127.0.0.1:8080 (loopback, no auth).
Try, from another terminal:

  curl -s http://127.0.0.1:8080/v1/executions -H 'Content-Type: application/json' \\
       -d '{"language":"python","code":"print(6*7)"}'

  bin/warmbox --url unix:$sock run python -c 'print(6*7)'

Stop it with Ctrl-C.
TXT
mkdir -p "$(dirname "$sock")"
exec bin/warmboxd --listen "unix:$sock" --listen 127.0.0.1:8080 --insecure-no-auth

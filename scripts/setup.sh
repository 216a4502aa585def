#!/usr/bin/env bash
# Make this machine ready to build, run and test warmbox:
#   1. as root, install the Debian packages that are missing (nothing when
#      all are present; apt-get update only when something is missing);
#   2. make sure a Docker engine answers: when none does and we are root,
#      start dockerd --bridge=none --iptables=false and remember its pid in
#      /run/warmbox-dockerd.pid (a dockerd we did not start is left alone);
#   3. as root, on a hybrid cgroup layout whose v2 hierarchy holds
#      controllers that no v1 hierarchy has (here: hugetlb), mount each on
#      a v1 hierarchy of its own, so that crun runs (it refuses such a
#      host); it says what it mounted (docs/operators.md: how to undo it);
#   4. build the sandbox images offline (profiles/build-image.sh).
#
#   scripts/setup.sh [--images-only]
set -euo pipefail
cd "$(dirname "$0")/.."

images_only=false
[ "${1:-}" = "--images-only" ] && images_only=true

say() { printf 'setup: %s\n' "$*" >&2; }

packages=(gcc make pkg-config libc6-dev libevent-dev libcurl4-openssl-dev libcjson-dev
  libseccomp-dev libsqlite3-dev libssl-dev sqlite3 docker.io python3 curl ca-certificates
  perl tar coreutils openssl socat runc crun runsc e2fsprogs strace util-linux iproute2 prometheus haproxy
  # make test checks the formatting (make format-check).
  clang-format
  # The python image's data stack (profiles/build-image.sh copies them in).
  python3-numpy python3-pandas python3-scipy python3-matplotlib python3-sympy python3-pil
  python3-openpyxl python3-yaml python3-bs4 python3-lxml python3-networkx libopenblas0-pthread
  # Sessions carry Python's global names between containers with it (bootstrap.py).
  python3-cloudpickle
  # CPython's own regression tests: the stdlib corpus (tests/benign/test_python_stdlib.py)
  # runs them in a test image; the shipped image has none.
  libpython3.11-testsuite
  # The other languages' images: the shell's tools, Ruby, gcc/g++, Go,
  # Rust, the JDK (profiles/build-image.sh copies their files in).
  bash grep sed gawk findutils diffutils bc jq ruby g++ golang-1.19-go golang-1.19-src rustc
  libstd-rust-dev openjdk-17-jdk-headless
  # A Podman engine for the several-engines tests (docs/deployment.md).
  podman catatonit uidmap fuse-overlayfs slirp4netns)

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  # JavaScript runs the host's node: Debian's nodejs when none is installed.
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  # npm fetches the third-party clients the tests drive (tests/node).
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    say "missing packages: ${missing[*]} (run as root, or install them)"
    exit 1
  fi
  say "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# gVisor: register runsc (no network; our seccomp applied inside the
# sandbox too) in /etc/docker/daemon.json, keeping whatever else is there.
# Only for a dockerd that we start or started: another one is left alone.
register_runsc() {
  [ -x /usr/bin/runsc ] && [ "$(id -u)" = 0 ] || return 0
  mkdir -p /etc/docker
  python3 - <<'PY'
import json, os
path = "/etc/docker/daemon.json"
cfg = {}
if os.path.exists(path):
    with open(path) as f:
        cfg = json.load(f)
want = {"path": "/usr/bin/runsc", "runtimeArgs": ["--network=none", "--oci-seccomp"]}
if cfg.get("runtimes", {}).get("runsc") != want:
    cfg.setdefault("runtimes", {})["runsc"] = want
    with open(path + ".tmp", "w") as f:
        json.dump(cfg, f, indent=2)
    os.replace(path + ".tmp", path)
    print("setup: registered runsc in", path)
PY
}

ours_running() {
  [ -f /run/warmbox-dockerd.pid ] && kill -0 "$(cat /run/warmbox-dockerd.pid)" 2>/dev/null
}

engine_answers() {
  local host=${DOCKER_HOST:-unix:///var/run/docker.sock}
  case "$host" in
  unix://*) curl -fsS --max-time 3 --unix-socket "${host#unix://}" http://localhost/_ping >/dev/null 2>&1 ;;
  tcp://*) curl -fsS --max-time 3 "http://${host#tcp://}/_ping" >/dev/null 2>&1 ;;
  *) return 1 ;;
  esac
}

ensure_engine() {
  engine_answers && return 0
  if [ -n "${DOCKER_HOST:-}" ] && [ "${DOCKER_HOST}" != unix:///var/run/docker.sock ]; then
    say "DOCKER_HOST=$DOCKER_HOST does not answer"
    exit 1
  fi
  if [ "$(id -u)" != 0 ] || ! command -v dockerd >/dev/null 2>&1; then
    say "no Docker engine answers at /var/run/docker.sock and I cannot start one (not root, or no dockerd)"
    exit 1
  fi
  say "starting dockerd --bridge=none --iptables=false (log: /var/log/warmbox-dockerd.log)"
  mkdir -p /var/log
  setsid dockerd --bridge=none --iptables=false >>/var/log/warmbox-dockerd.log 2>&1 </dev/null &
  echo $! >/run/warmbox-dockerd.pid
  for _ in $(seq 1 120); do
    engine_answers && { say "dockerd answers (pid $(cat /run/warmbox-dockerd.pid))"; return 0; }
    kill -0 "$(cat /run/warmbox-dockerd.pid)" 2>/dev/null || break
    sleep 0.5
  done
  say "dockerd did not come up; last lines of its log:"
  tail -20 /var/log/warmbox-dockerd.log >&2
  exit 1
}

# crun refuses a hybrid layout whose v2 hierarchy holds any controller
# ("cgroups in hybrid mode not supported, drop all controllers from
# cgroupv2"): each such controller gets a v1 hierarchy of its own, which
# moves it out of v2 (a controller is bound to one hierarchy).  Nothing on
# a pure v1 or pure v2 host, nothing for a controller some v1 hierarchy
# already has, nothing when not root.
prepare_cgroups_for_crun() {
  local root=/sys/fs/cgroup controllers c
  [ "$(id -u)" = 0 ] || return 0
  [ "$(stat -f -c %T "$root" 2>/dev/null)" = tmpfs ] || return 0
  [ "$(stat -f -c %T "$root/unified" 2>/dev/null)" = cgroup2fs ] || return 0
  controllers=$(cat "$root/unified/cgroup.controllers" 2>/dev/null) || return 0
  for c in $controllers; do
    # Already on a v1 hierarchy: the kernel would not list it in v2.
    awk -v c="$c" '$3 == "cgroup" { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] == c) f = 1 }
      END { exit !f }' /proc/mounts && continue
    if mkdir -p "$root/$c" && mount -t cgroup -o "$c" cgroup "$root/$c"; then
      say "mounted the $c cgroup controller on $root/$c (a v1 hierarchy of its own) so that crun" \
        "runs on this hybrid host; to undo: umount $root/$c && rmdir $root/$c"
    else
      rmdir "$root/$c" 2>/dev/null || true
      say "could not mount the $c cgroup controller on $root/$c: the OCI engine runs runc"
    fi
  done
}

$images_only || install_packages
$images_only || prepare_cgroups_for_crun
if ! engine_answers || ours_running; then
  register_runsc
  # dockerd reloads its runtimes on SIGHUP.
  ours_running && kill -HUP "$(cat /run/warmbox-dockerd.pid)" && sleep 1
fi
ensure_engine
for dir in profiles/*/; do
  [ -f "$dir/profile.json" ] || continue
  profiles/build-image.sh "$(basename "$dir")"
done

# The OCI engine's image store (oci/image.c): each image unpacked once, by
# its id, from the image just built, so that the OCI engine (make run's
# default where runc is) needs no Docker engine to run.  An image already
# there under its tag is not copied again.
if [ "$(id -u)" = 0 ] && command -v runc >/dev/null 2>&1; then
  make -s bin/warmbox-oci >/dev/null
  store=${WARMBOX_OCI_IMAGES:-/var/lib/warmbox/oci-images}
  mkdir -p "$store" && chmod 711 "$store"
  for dir in profiles/*/; do
    [ -f "$dir/profile.json" ] || continue
    image=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["image"])' "$dir/profile.json")
    id=$(docker image inspect --format '{{.Id}}' "$image")
    tag=$(printf '%s' "$image" | sed 's|%|%25|g; s|/|%2F|g; s|:|%3A|g')
    if [ -d "$store/${id#sha256:}/rootfs" ] && [ "$(cat "$store/tags/$tag" 2>/dev/null)" = "$id" ]; then
      continue
    fi
    tmp=$(mktemp /var/tmp/warmbox-image.XXXXXX)
    docker save "$image" -o "$tmp"
    bin/warmbox-oci load --images "$store" "$tmp" >/dev/null || { rm -f "$tmp"; exit 1; }
    rm -f "$tmp"
    say "OCI image store: $image is ${id:0:19} ($store)"
  done
fi

# The clients the interface tests drive, pinned by tests/node/package-lock.json
# (the MCP TypeScript SDK, piston-client, an OpenAPI schema validator).
if ! $images_only && [ -f tests/node/package-lock.json ]; then
  if [ ! -d tests/node/node_modules ] || [ tests/node/package-lock.json -nt tests/node/node_modules ]; then
    say "npm ci in tests/node"
    (cd tests/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
fi

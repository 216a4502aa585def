#!/usr/bin/env bash
# Build a warmbox sandbox image offline from the host's own interpreter.
#
#   profiles/build-image.sh LANGUAGE    (a folder of profiles/)
#   (WARMBOX_IMAGE_REPO=name: another repository; WARMBOX_DATA_STACK=0:
#   python without its data stack; WARMBOX_PYTHON_TESTSUITE=1: python with
#   CPython's own regression tests, for tests/benign/test_python_stdlib.py
#   only, never shipped)
#
# The root filesystem holds the interpreter or toolchain, exactly its
# runtime closure (shared libraries found with ldd, the standard library,
# the files of the Debian packages it is made of as dpkg lists them), the
# bootstrap, /warmbox/init, and nothing else: no shell (but in the bash
# image), no package manager, no setuid files.  It is packed
# as a reproducible tar (sorted, fixed times and owners) and imported with
# `docker import`, tagged warmbox/<language>:<version> and :latest and
# labelled with the tar's SHA-256, so a rebuild with nothing changed reuses
# the existing image.  Needs a docker CLI that reaches the engine
# (DOCKER_HOST is honoured).
set -euo pipefail
umask 022 # what is made here (folders, .pyc) is nobody else's to write

lang=${1:?usage: build-image.sh LANGUAGE}
here=$(cd "$(dirname "$0")" && pwd)
docker=${DOCKER:-docker}

case "$lang" in
python)
  interp=/usr/bin/python3
  real=$(readlink -f "$interp")
  version=$("$real" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
  stdlib=$("$real" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
  roots=("$interp" "$real" "$stdlib")
  bootstrap=bootstrap.py
  # The data stack models write for (numpy, pandas, scipy, matplotlib,
  # sympy, Pillow, openpyxl, PyYAML, BeautifulSoup with lxml, networkx),
  # from Debian's packages as installed here (scripts/setup.sh), with the
  # python3-* packages and data they pull in.
  data_pkgs=(python3-numpy python3-pandas python3-scipy python3-matplotlib python3-sympy python3-pil
    python3-openpyxl python3-yaml python3-bs4 python3-lxml python3-networkx
    python3-cloudpickle   # a session's global names, from one container to the next
    libopenblas0-pthread) # numpy's BLAS: without it Debian's is the reference one
  # The tools agents' Python runs through subprocess and os.system: a
  # shell (dash as sh, as on Debian; bash) and the bash image's tools.  No
  # package manager, no network tool (profiles/README.md, "Python's tools").
  lang_pkgs=(dash bash coreutils grep sed gawk findutils diffutils bc jq)
  shell_ok=1
  ;;
javascript)
  interp=$(command -v node || true)
  [ -n "$interp" ] || { echo "build-image: node is not installed" >&2; exit 1; }
  real=$(readlink -f "$interp")
  version=$("$real" --version | sed 's/^v//')
  roots=("$real")
  [ "$interp" = /usr/bin/node ] || roots+=("$interp")
  bootstrap=bootstrap.js
  ;;
bash)
  interp=/usr/bin/bash
  real=$interp
  version=$("$interp" -c 'echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}.${BASH_VERSINFO[2]}"')
  roots=("$interp")
  # A useful shell: the tools scripts reach for, no network tools, no
  # package manager.
  lang_pkgs=(bash coreutils grep sed gawk findutils diffutils bc jq)
  shell_ok=1
  ;;
ruby)
  interp=/usr/bin/ruby
  real=$(readlink -f "$interp")
  version=$("$real" -e 'print RUBY_VERSION')
  roots=("$interp" "$real")
  lang_pkgs=(ruby ruby3.1 libruby3.1 rubygems-integration ruby-rubygems rake ruby-net-telnet ruby-xmlrpc
    ruby-webrick ruby-sdbm)
  ;;
c | cpp | rust)
  # gcc 12 and binutils; rustc links with them.
  interp=/usr/bin/gcc-12
  real=$interp
  version=$("$interp" -dumpfullversion)
  # libm.so is a linker script naming libmvec, which no ELF file links.
  roots=(/usr/bin/gcc /usr/bin/gcc-12 /usr/lib/x86_64-linux-gnu/libmvec.so.1)
  lang_pkgs=(gcc-12 cpp-12 libgcc-12-dev binutils binutils-x86-64-linux-gnu libbinutils libctf0 libctf-nobfd0
    libgprofng0 libc6-dev linux-libc-dev libcrypt-dev)
  if [ "$lang" = cpp ]; then
    interp=/usr/bin/g++-12
    roots+=(/usr/bin/g++ /usr/bin/g++-12)
    lang_pkgs+=(g++-12 libstdc++-12-dev)
  fi
  if [ "$lang" = rust ]; then
    interp=/usr/bin/rustc
    real=$interp
    version=$("$interp" --version | awk '{print $2}')
    roots+=(/usr/bin/rustc)
    lang_pkgs+=(rustc "$(dpkg-query -W -f='${Package}\n' 'libstd-rust-1.*' | head -1)" libstd-rust-dev)
  fi
  ;;
go)
  interp=/usr/lib/go-1.19/bin/go
  real=$interp
  version=$("$interp" env GOVERSION | sed 's/^go//')
  roots=("$interp")
  lang_pkgs=(golang-1.19-go golang-1.19-src)
  # The toolchain's own sources and the test data: nothing a user's
  # program builds from.
  pkg_exclude='^/usr/share/go-1\.19/(src/cmd|test|misc|api)(/|$)|/testdata(/|$)|_test\.go$'
  ;;
java)
  jhome=/usr/lib/jvm/java-17-openjdk-amd64
  interp=$jhome/bin/java
  real=$interp
  version=$("$interp" -XshowSettings:properties -version 2>&1 | awk '/java.version = / {print $3}')
  roots=("$interp" "$jhome/bin/javac")
  # The class data sharing archive the package made at install (not in
  # its file list): without it every JVM start parses the base classes.
  [ -f "$jhome/lib/server/classes.jsa" ] && roots+=("$jhome/lib/server/classes.jsa")
  lang_pkgs=(openjdk-17-jre-headless openjdk-17-jdk-headless)
  # The JDK's sources, jmods (jlink's input) and demos; its /etc files are
  # its configuration (kept).
  pkg_exclude='/lib/src\.zip$|/jmods(/|$)|/demo(/|$)|/sample(/|$)'
  pkg_etc='^/etc/java-17-openjdk(/|$)'
  ;;
typescript)
  interp=$(command -v node || true)
  [ -n "$interp" ] || { echo "build-image: node is not installed" >&2; exit 1; }
  real=$(readlink -f "$interp")
  ts_dir=$here/typescript/node_modules/typescript
  [ -f "$ts_dir/package.json" ] || (cd "$here/typescript" && npm ci --silent --no-audit --no-fund >/dev/null) ||
    { echo "build-image: cannot install the TypeScript compiler (npm ci in profiles/typescript)" >&2; exit 1; }
  version=$("$real" -p "require('$ts_dir/package.json').version")
  roots=("$real")
  [ "$interp" = /usr/bin/node ] || roots+=("$interp")
  ;;
*)
  echo "build-image: unknown language $lang" >&2
  exit 2
  ;;
esac

stage=$(mktemp -d /tmp/warmbox-image.XXXXXX)
trap 'rm -rf "$stage"' EXIT
root=$stage/rootfs
mkdir -p "$root"/{usr/bin,usr/lib,usr/lib64,etc,tmp,proc,sys,dev,warmbox}
# Debian 12 is merged-/usr: keep the same shape so ELF interpreter and
# library paths that name /lib or /lib64 resolve.
ln -s usr/bin "$root/bin"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"
# E2B's SDK names a sandbox's files /home/user/NAME (api/e2b.h): that is the
# working directory, /tmp, whose tmpfs holds them.
mkdir -p "$root/home"
ln -s /tmp "$root/home/user"

# Copy one path (file, symlink or folder) into the root at the same place,
# following symlinks so both the link and its target exist.
copy_path() {
  local p=$1
  while [ -L "$p" ]; do
    local dest=$root$(dirname "$p")
    mkdir -p "$dest"
    [ -e "$root$p" ] || [ -L "$root$p" ] || cp -P "$p" "$dest/"
    local t
    t=$(readlink "$p")
    case "$t" in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
  done
  p=$(readlink -f "$p")
  case "$p" in /lib/* | /lib64/* | /bin/*) p=/usr$p ;; esac
  mkdir -p "$root$(dirname "$p")"
  if [ -d "$p" ]; then
    # The standard library minus what never runs in a sandbox: its test
    # suite, GUI toolkits, installers.
    (cd "$(dirname "$p")" && tar -cf - \
      --exclude='test' --exclude='tests' --exclude='idlelib' --exclude='tkinter' \
      --exclude='turtledemo' --exclude='ensurepip' --exclude='__phello__' \
      --exclude='site-packages' --exclude='dist-packages' \
      "$(basename "$p")") | tar -xf - -C "$root$(dirname "$p")"
  else
    [ -e "$root$p" ] || cp -p "$p" "$root$p"
  fi
}

for r in "${roots[@]}"; do copy_path "$r"; done

# Stop, naming them, unless every Debian package given is installed.
require_installed() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -Eq '(install|hold) ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "build-image: missing Debian packages: ${missing[*]} (scripts/setup.sh installs them)" >&2
    exit 1
  fi
}

# WARMBOX_DATA_STACK=0 leaves the data stack out (for measuring what it
# costs: tests/bench/bench_image.py).
[ "${WARMBOX_DATA_STACK:-1}" = 0 ] && unset data_pkgs
# Debian packages' files as dpkg lists them (their folders, files and
# symbolic links exactly, nothing else of the host), without test suites,
# documentation or the data of other languages.
if [ -n "${data_pkgs+x}" ]; then
  require_installed "${data_pkgs[@]}"
  # The packages they depend on, as installed: python3-*, their data
  # (matplotlib's) and fonts; not the interpreter's own packages, copied above.
  fail() {
    echo "build-image: $*" >&2
    exit 1
  }
  deps=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances --installed "${data_pkgs[@]}") || fail "apt-cache depends failed"
  pkgs=$(printf '%s\n' "$deps" | awk '/^[a-z0-9]/ {print $1}' |
    grep -E '^(python3-|python-matplotlib-data|fonts-|tzdata$)' |
    grep -Ev '^python3(-minimal|-distutils|-lib2to3|-pkg-resources|-setuptools|-pip|-all.*|-dev)?$' |
    grep -Ev '^python3-(tk|pil\.imagetk|pythran|gast|beniget)$' | sort -u) || fail "no packages to copy"
  # shellcheck disable=SC2086 # package names: no spaces, no globs
  listed=$(dpkg -L $pkgs) || fail "dpkg -L $pkgs failed"
  printf '%s\n' "$listed" | sort -u |
    grep -Ev '/tests?(/|$)|^/usr/share/(doc|man|lintian|bug)/|^/usr/include/|^/usr/bin/|^/etc/|^/\.$' |
    while IFS= read -r f; do
      if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\n' "${f#/}"; fi
    done >"$stage/data-files"
  tar -C / --no-recursion -cf - -T "$stage/data-files" | tar -C "$root" -xf - ||
    fail "copying the data stack's files failed"
  # Debian's matplotlib reads /etc/matplotlibrc, a file the host may have
  # edited: the image gets the package's own defaults instead.
  if [ -f "$root/usr/share/matplotlib/mpl-data/matplotlibrc" ]; then
    mkdir -p "$root/etc"
    cp "$root/usr/share/matplotlib/mpl-data/matplotlibrc" "$root/etc/matplotlibrc"
  fi
fi

# CPython's regression tests (Debian's libpython3.11-testsuite), for the
# image the stdlib corpus runs in (a test fixture: the shipped image has
# no test package).
if [ "$lang" = python ] && [ "${WARMBOX_PYTHON_TESTSUITE:-0}" = 1 ]; then
  suite=$(dpkg-query -W -f='${Package}\n' 'libpython3*-testsuite' 2>/dev/null | head -1)
  [ -n "$suite" ] || { echo "build-image: libpython3.11-testsuite is not installed" >&2; exit 1; }
  require_installed "$suite"
  # The whole test package: the suite, and what the standard library's own
  # package ships of it (test.support, test.libregrtest), which copy_path
  # left out.
  (cd "$stdlib" && tar -cf - --exclude='__pycache__' test) | tar -xf - -C "$root$stdlib" ||
    { echo "build-image: copying the test suite's files failed" >&2; exit 1; }
fi

# The Debian packages a toolchain is made of, as dpkg lists their files
# (their folders, files and symbolic links exactly, nothing else of the
# host), without documentation, manuals or translations, nor /etc but the
# profile's own (pkg_etc).
if [ -n "${lang_pkgs+x}" ]; then
  require_installed "${lang_pkgs[@]}"
  listed=$(dpkg -L "${lang_pkgs[@]}") || { echo "build-image: dpkg -L ${lang_pkgs[*]} failed" >&2; exit 1; }
  printf '%s\n' "$listed" | sort -u |
    grep -Ev '^/usr/share/(doc|doc-base|man|info|lintian|bug|locale|bash-completion|zsh|emacs|vim)/|^/\.$' |
    grep -Ev "${pkg_exclude:-^$}" |
    { if [ -n "${pkg_etc:-}" ]; then grep -Ev '^/etc/' | cat - <(printf '%s\n' "$listed" | grep -E "$pkg_etc"); else grep -Ev '^/etc/'; fi; } |
    while IFS= read -r f; do
      if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\n' "${f#/}"; fi
    done | sort -u >"$stage/pkg-files"
  tar -C / --no-recursion -cf - -T "$stage/pkg-files" | tar -C "$root" -xf - ||
    { echo "build-image: copying the packages' files failed" >&2; exit 1; }
fi

# The shared-library closure of every ELF file in the root.
libs=$(find "$root" -type f \( -perm -u+x -o -name '*.so*' \) -print0 |
  while IFS= read -r -d '' f; do
    head -c 4 "$f" 2>/dev/null | grep -q 'ELF' || continue
    orig=${f#"$root"}
    [ -e "$orig" ] || continue
    # (a static binary, as Go's tools are, makes ldd fail: nothing to add)
    { ldd "$orig" 2>/dev/null || true; } | awk '/=>/ && $3 ~ /^\// {print $3} /^\t\/.*\(0x/ {print $1}'
  done | sort -u)
for l in $libs; do copy_path "$l"; done
copy_path /lib64/ld-linux-x86-64.so.2
# The C.UTF-8 locale (LANG in every sandbox): without it setlocale fails,
# and a JVM or a C program falls back to ASCII.
[ -d /usr/lib/locale/C.utf8 ] && copy_path /usr/lib/locale/C.utf8

[ -n "${bootstrap:-}" ] && cp "$here/$lang/$bootstrap" "$root/warmbox/$bootstrap"
# A compiled language's scratch space: /build is where the exec tmpfs is
# mounted (profile.json "build_mb").
mkdir -p "$root/build"
if [ "$lang" = bash ]; then
  ln -s bash "$root/usr/bin/sh" # scripts that call sh get bash
fi
if [ "$lang" = python ]; then
  ln -sfn dash "$root/usr/bin/sh" # subprocess's shell=True and os.system: sh is dash, as on Debian
fi
if [ "$lang" = bash ] || [ "$lang" = python ]; then
  # awk is Debian's alternatives link (made by gawk's postinst, not listed
  # by dpkg): the image's awk is gawk.
  [ -e "$root/usr/bin/awk" ] || ln -s gawk "$root/usr/bin/awk"
fi
if [ "$lang" = typescript ]; then
  # The compiler (npm's typescript, as profiles/typescript/package-lock.json
  # pins it) and the translator the compile stage runs.
  mkdir -p "$root/warmbox/node_modules"
  cp -r "$ts_dir" "$root/warmbox/node_modules/typescript"
  cp "$here/typescript/translate.js" "$root/warmbox/translate.js"
  # V8's code cache for the compiler, made by this node (the image's).
  (cd "$root/warmbox" && "$real" translate.js --make-cache typescript.cache) ||
    { echo "build-image: cannot make the TypeScript compiler's code cache" >&2; exit 1; }
fi
# The language's own modules for the sandbox (python: the matplotlib backend).
if [ -d "$here/$lang/lib" ]; then
  mkdir -p "$root/warmbox/lib"
  cp "$here/$lang/lib/"*.py "$root/warmbox/lib/"
fi
# /warmbox/init (profiles/init.c, with the Java scanner it names Java
# sources by) runs the bootstrap and reports what the program used;
# static, so it needs nothing from the image.
${CC:-cc} -static -O2 -s -Wall -Wextra -Werror -o "$root/warmbox/init" "$here/init.c" "$here/java_scan.c"
# Who the program is: every sandbox runs under a uid:gid of its own from
# the daemon's rotation (SBX_UID_FIRST, SBX_UID_COUNT in
# include/warmbox/sandbox.h), each named "sandbox-<uid>" with /tmp as its
# home, so that getpwuid, getpass.getuser(), Java's user.name, `whoami` and
# `ls -l` find a name as on any host, and a name looks up its own uid (one
# name for all would give the first uid back: chown by name would fail).
# (~2.5 MB; a lookup reads at most the whole file, a few ms.)
uid_first=$(awk '$2 == "SBX_UID_FIRST" {print $3 + 0}' "$here/../include/warmbox/sandbox.h")
uid_count=$(awk '$2 == "SBX_UID_COUNT" {print $3 + 0}' "$here/../include/warmbox/sandbox.h")
[ -n "$uid_first" ] && [ -n "$uid_count" ] || { echo "build-image: no uid range in include/warmbox/sandbox.h" >&2; exit 1; }
{
  printf 'root:x:0:0:root:/root:/nonexistent\nnobody:x:65534:65534:nobody:/nonexistent:/nonexistent\n'
  awk -v a="$uid_first" -v n="$uid_count" 'BEGIN {for (u = a; u < a + n; u++) printf "sandbox-%d:x:%d:%d:sandbox:/tmp:/nonexistent\n", u, u, u}'
} >"$root/etc/passwd"
{
  printf 'root:x:0:\nnogroup:x:65534:\n'
  awk -v a="$uid_first" -v n="$uid_count" 'BEGIN {for (u = a; u < a + n; u++) printf "sandbox-%d:x:%d:\n", u, u}'
} >"$root/etc/group"
chmod 1777 "$root/tmp" "$root/build"

# Nothing that could lend privilege or a shell, nothing writable by others
# but /tmp (whose mode Docker copies onto the tmpfs mounted there).
find "$root" -perm /6000 -type f -exec chmod ug-s {} +
find "$root" \( -type f -o -type d \) -perm /022 ! -path "$root/tmp" ! -path "$root/build" -exec chmod go-w {} +
chmod 1777 "$root/tmp" "$root/build"
for bad in sh bash dash busybox apt apt-get dpkg pip pip3 npm curl wget; do
  [ "${shell_ok:-0}" = 1 ] && { [ "$bad" = sh ] || [ "$bad" = bash ] || [ "$bad" = dash ]; } && continue
  if [ -e "$root/usr/bin/$bad" ] || [ -L "$root/usr/bin/$bad" ]; then
    echo "build-image: $bad ended up in the image" >&2
    exit 1
  fi
done

# Go's standard library as the sandbox builds with it: Debian ships it
# compiled with cgo, the profile builds with CGO_ENABLED=0, so net, os/user
# and what imports them were stale and compiled again into every request's
# empty GOCACHE (net/http: 8.5 s on one CPU, past 15 s under load, measured).
# `go install std` in the image's own tree, at its own paths (chroot), makes
# them current: a fresh-cache net/http build then takes 0.2-0.6 s.
if [ "$lang" = go ]; then
  chroot_bin=$(PATH=$PATH:/usr/sbin:/sbin command -v chroot || true)
  if [ "$(id -u)" = 0 ] && [ -n "$chroot_bin" ]; then
    : >"$root/dev/null" # read by go; a plain empty file in the stage, removed below
    mkdir -p "$root/tmp/gocache"
    env -i PATH=/usr/bin:/bin HOME=/tmp GOCACHE=/tmp/gocache CGO_ENABLED=0 GO111MODULE=off \
      "$chroot_bin" "$root" /usr/lib/go-1.19/bin/go install std ||
      { echo "build-image: go install std (CGO_ENABLED=0) failed" >&2; exit 1; }
    rm -rf "$root/dev/null" "$root/tmp/gocache"
  else
    echo "build-image: not root: Go's standard library stays as Debian built it (with cgo); builds that import net recompile it" >&2
  fi
fi

# Python's compiled modules, made here for the image: the archive's times
# are all 0, so the host's timestamp-checked .pyc files would never match
# their sources, and every import would compile from source (-B writes
# nothing back).  Unchecked-hash .pyc files are used as they are, and
# depend only on the sources (the build stays reproducible); their paths
# are the image's.
if [ "$lang" = python ]; then
  find "$root" -name '__pycache__' -type d -prune -exec rm -rf {} +
  # Some Debian files are not Python 3 (compileall reports and skips them):
  # its status is not the test; that the modules got their .pyc is.
  "$real" -m compileall -q -f -j 0 -s "$root" -p / --invalidation-mode unchecked-hash \
    "$root$stdlib" "$root/usr/lib/python3/dist-packages" "$root/warmbox" >/dev/null 2>&1 || true
  for m in "$root$stdlib/__pycache__/os.cpython-"*.pyc "$root/usr/lib/python3/dist-packages/numpy/__pycache__/__init__.cpython-"*.pyc; do
    case "$m" in *'*'*) [ -z "${data_pkgs+x}" ] && [[ "$m" == *numpy* ]] && continue
      echo "build-image: compileall made no .pyc ($m)" >&2; exit 1 ;; esac
  done
fi

tarball=$stage/rootfs.tar
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
  --mode='u-s,g-s' --format=gnu -C "$root" -cf "$tarball" .
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
# (java: the archive added below is part of what the label stands for)
[ "$lang" = java ] && sum=$(printf '%s with javac.jsa\n' "$sum" | sha256sum | cut -d' ' -f1)

repo=${WARMBOX_IMAGE_REPO:-warmbox/$lang}
have=$("$docker" image inspect --format '{{ index .Config.Labels "warmbox.content" }}' "$repo:latest" 2>/dev/null || true)
if [ "$have" = "$sum" ]; then
  "$docker" tag "$repo:latest" "$repo:$version"
  echo "build-image: $repo:$version is up to date (content $sum)"
  exit 0
fi
# javac's class-data archive (AppCDS): the classes javac loads, mapped
# instead of parsed at every compile (hello world: 0.75 s -> 0.45 s, measured
# on the host).  Made by the host's JDK, whose files the image has at the
# same paths; not byte-reproducible (the JVM writes its own), so it is added
# after the content sum, which stays the sum of everything else.
if [ "$lang" = java ]; then
  jcds=$stage/jcds
  mkdir -p "$jcds/out"
  printf 'public class Main { public static void main(String[] a) { System.out.println(new java.util.ArrayList<String>()); } }\n' \
    >"$jcds/Main.java"
  "$jhome/bin/javac" -J-XX:ArchiveClassesAtExit="$root/warmbox/javac.jsa" -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC \
    -J-XX:-UsePerfData -encoding UTF-8 -d "$jcds/out" "$jcds/Main.java" >/dev/null 2>&1 ||
    { echo "build-image: cannot make javac's class-data archive" >&2; exit 1; }
  chmod 0644 "$root/warmbox/javac.jsa"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
    --mode='u-s,g-s' --format=gnu -C "$root" -cf "$tarball" .
fi
old=$("$docker" image inspect --format '{{.Id}}' "$repo:latest" 2>/dev/null || true)
"$docker" import \
  --change "LABEL warmbox.content=$sum" \
  --change "LABEL warmbox.language=$lang" \
  --change "LABEL warmbox.version=$version" \
  --change "USER 65534:65534" \
  --change "WORKDIR /tmp" \
  --change "CMD [\"$interp\"]" \
  "$tarball" "$repo:$version" >/dev/null
"$docker" tag "$repo:$version" "$repo:latest"
# The previous build, unless containers still use it (then the engine keeps it).
if [ -n "$old" ] && [ "$old" != "$("$docker" image inspect --format '{{.Id}}' "$repo:latest")" ]; then
  "$docker" rmi "$old" >/dev/null 2>&1 || true
fi
size=$(du -sh "$tarball" | cut -f1)
echo "build-image: built $repo:$version ($size, content $sum)"

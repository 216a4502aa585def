#!/usr/bin/env bash
# make fuzz: build every tests/fuzz/fuzz_*.c with clang's libFuzzer plus
# ASan and UBSan, and run each for SECONDS on a copy of its committed corpus.
# New crashes land in build-fuzz/artifacts/; copy one into
# tests/fuzz/corpus/<name>/ to make it a regression test of `make test`.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=build-fuzz
mkdir -p "$out/artifacts"
command -v clang >/dev/null || { echo "fuzz: clang is needed (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
pkgs="libevent libevent_openssl libcurl libcjson libseccomp sqlite3 libcrypto libssl"
# The library as the Makefile builds it (one list to keep), and the CLI's
# parsers, the sandbox's Java scanner and the OCI helper's translation and events the
# harnesses reach.
lib_src="$(make -s --no-print-directory print-lib-src) cli/mcp.c cli/client.c profiles/java_scan.c oci/spec.c oci/events.c oci/request.c"
status=0
# FUZZ_ONLY=name runs one harness.
for harness in tests/fuzz/fuzz_${FUZZ_ONLY:-*}.c; do
  name=$(basename "$harness" .c)
  name=${name#fuzz_}
  # shellcheck disable=SC2046,SC2086
  clang -Wall -Wextra -Werror -Wno-unused-parameter -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Iinclude -I. -iquote engine -iquote cli -iquote profiles $(pkg-config --cflags $pkgs) \
    -DWB_DEFAULT_PROFILES_DIR="\"$PWD/profiles\"" -DWB_VERSION="\"fuzz\"" \
    "$harness" $lib_src $(pkg-config --libs $pkgs) -lm -lpthread -o "$out/fuzz_$name"
  work=$out/corpus/$name
  mkdir -p "$work"
  cp -n tests/fuzz/corpus/"$name"/* "$work"/ 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s"
  if ! "$out/fuzz_$name" -max_total_time="$seconds" -max_len=65536 \
      -artifact_prefix="$out/artifacts/$name-" "$work" 2>"$out/$name.log"; then
    echo "fuzz: $name FOUND A CRASH (see $out/$name.log and $out/artifacts/)"
    status=1
  fi
  grep -E '^#[0-9]+.*DONE' "$out/$name.log" | tail -1 || true
done
exit $status

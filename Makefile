# warmbox — build, set-up, tests.
#
#   make              bin/warmboxd and bin/warmbox
#   make run          install what is missing, start a Docker engine if none
#                     answers, build the images, run warmboxd in the foreground
#   make test         the same set-up, then every test (unit + integration)
#   make check        unit tests under ASan/UBSan (= make unit SANITIZE=address,undefined)
#   make images       build the sandbox images offline
#   make fuzz         run each fuzzer for FUZZ_SECONDS (clang, libFuzzer)
#   make bench        warm vs cold vs engine floor (tests/bench/; prints a table)
#   make chaos        real faults under load (kill -9 of warmboxd and of an engine,
#                     history locked, read-only, on a full disk, clients leaving,
#                     SIGTERM); prints a table; a quick subset runs in make test
#   make install      PREFIX=/usr/local SYSCONFDIR=/etc STATEDIR=/var/lib/warmbox
#                     UNITDIR=/etc/systemd/system DESTDIR=
#
# SANITIZE=address,undefined builds everything into build-san/ instead.

VERSION      := 0.1.0
PREFIX       ?= /usr/local
SYSCONFDIR   ?= /etc
STATEDIR     ?= /var/lib/warmbox
UNITDIR      ?= /etc/systemd/system
CREATE_USER  ?= yes
CC           ?= cc
PKGS         := libevent libevent_openssl libcurl libcjson libseccomp sqlite3 libcrypto libssl
SANITIZE     ?=
BUILD        := build$(if $(SANITIZE),-san)
BIN          := $(if $(SANITIZE),$(BUILD)/bin,bin)
PROFILES_DIR ?= $(CURDIR)/profiles
FUZZ_SECONDS ?= 60

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN    := -Wall -Wextra -Werror -Wformat=2 -Wno-format-nonliteral -Wvla -Wmissing-prototypes \
           -Wstrict-prototypes -Wno-unused-parameter
HARDEN  := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
CFLAGS  ?= -O2 -g
ifneq ($(SANITIZE),)
  CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -DWB_CHECKED
  LDFLAGS += -fsanitize=$(SANITIZE)
endif
ALL_CFLAGS := -std=gnu11 $(WARN) $(HARDEN) $(CFLAGS) -Iinclude -I. $(PKG_CFLAGS) -MMD -MP \
              -DWB_VERSION='"$(VERSION)"' -DWB_DEFAULT_PROFILES_DIR='"$(PROFILES_DIR)"'
ALL_LDFLAGS := -pie -Wl,-z,relro,-z,now $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm -lpthread

# One library per module; the programs are thin.
COMMON_SRC  := common/wb.c
ENGINE_SRC  := engine/engine.c engine/attach.c engine/proto.c
PROFILE_SRC := profiles/profile.c
SANDBOX_SRC := sandbox/body.c sandbox/run.c sandbox/sandbox.c sandbox/uids.c
POOL_SRC    := pool/pool.c
STORE_SRC   := store/store.c store/query.c store/replay.c
NODES_SRC   := nodes/nodes.c nodes/startgate.c
EXEC_SRC    := exec/exec.c exec/result.c exec/admission.c exec/order.c exec/metrics.c exec/request.c \
               exec/session.c
API_SRC     := api/http.c api/call.c api/reply.c api/result.c api/request.c api/piston.c api/auth.c api/agent.c \
               api/e2b.c api/e2b_wire.c api/guard.c api/head.c
DAEMON_SRC  := daemon/config.c daemon/confine.c daemon/context.c daemon/reload.c daemon/shutdown.c \
               daemon/oci.c
LIB_SRC     := $(COMMON_SRC) $(ENGINE_SRC) $(PROFILE_SRC) $(SANDBOX_SRC) $(POOL_SRC) $(STORE_SRC) \
               $(NODES_SRC) $(EXEC_SRC) $(API_SRC) $(DAEMON_SRC)
LIB_OBJ     := $(LIB_SRC:%.c=$(BUILD)/%.o)

UNIT_SRC  := $(filter-out $(wildcard tests/unit/test_fake_engine.c),$(wildcard tests/unit/test_*.c)) \
             $(wildcard tests/unit/test_fake_engine.c)
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
# Each fuzz harness also builds as a replay test over its committed corpus.
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%) \
             $(FUZZ_SRC:tests/fuzz/fuzz_%.c=$(BUILD)/tests/replay_%)

.PHONY: all run test unit unit-bin integration check images fuzz bench chaos install clean setup format format-check layers print-lib-src
.DEFAULT_GOAL := all

all: $(BIN)/warmboxd $(BIN)/warmbox $(BIN)/warmbox-oci

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libwarmbox.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/warmboxd: $(BUILD)/daemon/main.o $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ $(LIBS) -o $@

# The OCI engine's helper (oci/oci.h): another program, beside warmboxd.
OCI_SRC := oci/request.c oci/runtime.c oci/spec.c oci/image.c oci/events.c oci/server.c oci/container.c \
           oci/stream.c oci/cgroup.c oci/keeper.c
$(BUILD)/liboci.a: $(OCI_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/warmbox-oci: $(BUILD)/oci/main.o $(BUILD)/liboci.a $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ $(LIBS) -o $@

$(BIN)/warmbox: $(BUILD)/cli/warmbox.o $(BUILD)/cli/history.o $(BUILD)/cli/client.o $(BUILD)/cli/mcp.o $(BUILD)/cli/repl.o \
              $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $^ $(LIBS) -o $@

# Unit tests can fail the Nth allocation (tests/unit/failmalloc.c): every
# malloc, calloc, realloc, strdup and strndup of our objects is wrapped.
WRAP      := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup
# ... and run on a virtual clock (tests/unit/vclock.h): the program's
# clock_gettime and epoll_wait stand in for libc's, for libevent too; the
# threads our objects start and their condition waits are followed.
VCLOCK    := tests/unit/vclock.c
VCLOCK_WRAP := -Wl,--wrap=pthread_create,--wrap=pthread_join,--wrap=pthread_cond_wait \
               -Wl,--wrap=pthread_cond_timedwait,--wrap=pthread_cond_signal,--wrap=pthread_cond_broadcast
TEST_INC  := -iquote engine -iquote sandbox -iquote tests/unit
# Tests against the fake engine (tests/unit/fake_engine.c) link it instead
# of engine/engine.c and engine/attach.c.
FAKE_TESTS := test_exec test_fake_engine test_http
CORE_OBJ  := $(filter-out $(BUILD)/engine/engine.o $(BUILD)/engine/attach.o,$(LIB_OBJ))

$(BUILD)/libwarmbox-core.a: $(CORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FAKE_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: tests/unit/%.c tests/unit/tap.h \
    tests/unit/failmalloc.c tests/unit/fake_engine.c tests/unit/fake_engine.h $(VCLOCK) tests/unit/vclock.h \
    $(BUILD)/libwarmbox-core.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $(ALL_LDFLAGS) $< tests/unit/failmalloc.c tests/unit/fake_engine.c \
	  $(VCLOCK) $(BUILD)/libwarmbox-core.a $(LIBS) $(WRAP) $(VCLOCK_WRAP) -o $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/tap.h tests/unit/failmalloc.c $(VCLOCK) tests/unit/vclock.h \
    $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $(ALL_LDFLAGS) $< tests/unit/failmalloc.c $(VCLOCK) $(BUILD)/libwarmbox.a \
	  $(LIBS) $(WRAP) $(VCLOCK_WRAP) -o $@

# The OCI helper's translation is in its own library (oci/).
$(BUILD)/tests/test_oci_spec: tests/unit/test_oci_spec.c tests/unit/tap.h $(BUILD)/liboci.a $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $(ALL_LDFLAGS) $< $(BUILD)/liboci.a $(BUILD)/libwarmbox.a $(LIBS) -o $@

$(BUILD)/tests/test_oci_runtime: tests/unit/test_oci_runtime.c tests/unit/tap.h $(BUILD)/liboci.a $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $(ALL_LDFLAGS) $< $(BUILD)/liboci.a $(BUILD)/libwarmbox.a $(LIBS) -o $@

$(BUILD)/tests/test_oci_events: tests/unit/test_oci_events.c tests/unit/tap.h $(BUILD)/liboci.a $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_INC) $(ALL_LDFLAGS) $< $(BUILD)/liboci.a $(BUILD)/libwarmbox.a $(LIBS) -o $@

$(BUILD)/tests/replay_oci_spec: tests/fuzz/fuzz_oci_spec.c tests/fuzz/replay.c $(BUILD)/liboci.a $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCORPUS_DIR='"$(CURDIR)/tests/fuzz/corpus/oci_spec"' \
	  $(ALL_LDFLAGS) $^ $(LIBS) -o $@

$(BUILD)/tests/replay_oci_request: tests/fuzz/fuzz_oci_request.c tests/fuzz/replay.c $(BUILD)/liboci.a $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCORPUS_DIR='"$(CURDIR)/tests/fuzz/corpus/oci_request"' \
	  $(ALL_LDFLAGS) $^ $(LIBS) -o $@

$(BUILD)/tests/replay_oci_events: tests/fuzz/fuzz_oci_events.c tests/fuzz/replay.c $(BUILD)/liboci.a $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCORPUS_DIR='"$(CURDIR)/tests/fuzz/corpus/oci_events"' \
	  $(ALL_LDFLAGS) $^ $(LIBS) -o $@

# The MCP harness drives cli/mcp.c (which is not in the library).
$(BUILD)/tests/replay_mcp: tests/fuzz/fuzz_mcp.c tests/fuzz/replay.c cli/mcp.c cli/client.c $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -iquote cli -DCORPUS_DIR='"$(CURDIR)/tests/fuzz/corpus/mcp"' \
	  $(ALL_LDFLAGS) $^ $(LIBS) -o $@

# The Java scanner runs in the sandbox (profiles/init.c), not in the daemon:
# its unit test and replay link it alone.
$(BUILD)/tests/test_java_scan: tests/unit/test_java_scan.c tests/unit/tap.h profiles/java_scan.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -iquote profiles -iquote tests/unit $(ALL_LDFLAGS) $< profiles/java_scan.c -o $@

$(BUILD)/tests/replay_java_scan: tests/fuzz/fuzz_java_scan.c tests/fuzz/replay.c profiles/java_scan.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -iquote profiles -DCORPUS_DIR='"$(CURDIR)/tests/fuzz/corpus/java_scan"' \
	  $(ALL_LDFLAGS) $^ -o $@

$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(BUILD)/libwarmbox.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -iquote engine -DCORPUS_DIR='"$(CURDIR)/tests/fuzz/corpus/$*"' \
	  $(ALL_LDFLAGS) $< tests/fuzz/replay.c $(BUILD)/libwarmbox.a $(LIBS) -o $@

# ---- set-up and running ------------------------------------------------

# Installs missing Debian packages (as root), starts dockerd when no engine
# answers and we may, builds the sandbox images.
setup:
	@scripts/setup.sh

images:
	@scripts/setup.sh --images-only

# After set-up a fresh make reads pkg-config again: on a new machine the
# libraries were only just installed.
run: setup
	$(MAKE) all
	@scripts/run.sh

# ---- tests ------------------------------------------------------------

unit: $(UNIT_BIN)
	prove -f $(UNIT_BIN)

check:
	$(MAKE) unit SANITIZE=address,undefined

# The layer check (docs/architecture.md): which folder includes which.
layers:
	scripts/layers.py

integration: all
	WARMBOX_BIN=$(CURDIR)/$(BIN) prove -f tests/integration/test_*.py tests/hostile/test_*.py tests/benign/test_*.py

# One prove run, so that the last line is the whole summary.
test: setup
	$(MAKE) all unit-bin
	$(MAKE) check
	scripts/layers.py
	$(MAKE) format-check
	WARMBOX_BIN=$(CURDIR)/$(BIN) prove -f tests/lint/test_*.py $(UNIT_BIN) tests/integration/test_*.py tests/hostile/test_*.py \
	  tests/benign/test_*.py tests/chaos/test_chaos_quick*.py tests/bench/test_bench_quick.py

unit-bin: $(UNIT_BIN)

fuzz:
	@scripts/fuzz.sh $(FUZZ_SECONDS)

# The library's sources, for scripts that build it their own way (fuzz.sh).
print-lib-src:
	@echo $(LIB_SRC)

chaos: setup
	$(MAKE) all
	WARMBOX_BIN=$(CURDIR)/$(BIN) python3 tests/chaos/chaos.py
	if [ "$$(id -u)" = 0 ] && command -v runc >/dev/null; then \
	  WARMBOX_ENGINE=oci WARMBOX_BIN=$(CURDIR)/$(BIN) python3 tests/chaos/chaos.py; fi
	WARMBOX_BIN=$(CURDIR)/$(BIN) tests/chaos/under_load.sh 5 tests/integration/test_store.py

BENCH_N        ?= 30
BENCH_DURATION ?= 60
bench: setup
	$(MAKE) all
	python3 tests/bench/bench_pool.py --n $(BENCH_N) --duration $(BENCH_DURATION)
	python3 tests/bench/bench_image.py --n $(BENCH_N)
	python3 tests/bench/bench_data.py --n $(BENCH_N)
	python3 tests/bench/bench_languages.py --n $(BENCH_N)
	python3 tests/bench/bench_engines.py --n $(BENCH_N) --duration $(BENCH_DURATION)
	python3 tests/bench/bench_oci.py --n $(BENCH_N) --duration $(BENCH_DURATION)
	python3 tests/bench/bench_runtime.py --n $(BENCH_N) --duration $(BENCH_DURATION)
	python3 tests/bench/bench_sessions.py --n $(BENCH_N)
	python3 tests/bench/bench_e2b.py --n $(BENCH_N)

# ---- install ------------------------------------------------------------

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/warmbox/profiles \
	  $(DESTDIR)$(PREFIX)/share/doc/warmbox $(DESTDIR)$(SYSCONFDIR)/warmbox $(DESTDIR)$(UNITDIR)
	install -d -m 0750 $(DESTDIR)$(STATEDIR)
	install -m 0755 $(BIN)/warmboxd $(BIN)/warmbox $(BIN)/warmbox-oci $(DESTDIR)$(PREFIX)/bin/
	for d in profiles/*/; do [ -f $$d/profile.json ] && cp -r $$d $(DESTDIR)$(PREFIX)/share/warmbox/profiles/; done
	install -m 0755 profiles/build-image.sh profiles/derive-seccomp.py $(DESTDIR)$(PREFIX)/share/warmbox/profiles/
	install -m 0644 profiles/README.md $(DESTDIR)$(PREFIX)/share/warmbox/profiles/
	install -m 0644 README.md docs/*.md docs/openapi.yaml dist/warmbox-alerts.yml $(DESTDIR)$(PREFIX)/share/doc/warmbox/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' dist/warmboxd.service.in \
	  > $(DESTDIR)$(UNITDIR)/warmboxd.service
	@# An operator's config is never overwritten.
	[ -e $(DESTDIR)$(SYSCONFDIR)/warmbox/config.json ] || \
	  sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|/var/lib/warmbox|$(STATEDIR)|g' dist/config.json.in \
	  > $(DESTDIR)$(SYSCONFDIR)/warmbox/config.json
	@# The service's user, when installing for real as root.
	if [ "$(CREATE_USER)" = yes ] && [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && ! getent passwd warmbox >/dev/null; then \
	  useradd --system --user-group --home-dir $(STATEDIR) --shell /usr/sbin/nologin warmbox; fi
	if [ "$(CREATE_USER)" = yes ] && [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && getent passwd warmbox >/dev/null; then \
	  chown warmbox:warmbox $(STATEDIR); fi

# Every C file of the tree, formatted by .clang-format; make test checks it.
FORMAT_SRC := $(sort $(wildcard common/*.[ch] engine/*.[ch] sandbox/*.[ch] pool/*.[ch] store/*.[ch] \
                profiles/*.[ch] nodes/*.[ch] exec/*.[ch] api/*.[ch] daemon/*.[ch] cli/*.[ch] oci/*.[ch] \
                include/warmbox/*.h tests/unit/*.[ch] tests/fuzz/*.[ch]))

format:
	clang-format -i $(FORMAT_SRC)

format-check:
	@clang-format --dry-run -Werror $(FORMAT_SRC) && echo "format-check: $(words $(FORMAT_SRC)) files as .clang-format says"

clean:
	rm -rf build build-san bin

-include $(LIB_OBJ:.o=.d) $(BUILD)/daemon/main.d $(BUILD)/cli/warmbox.d $(BUILD)/cli/history.d $(BUILD)/cli/client.d $(BUILD)/cli/mcp.d $(BUILD)/cli/repl.d

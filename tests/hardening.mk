# Hardening targets, included from the Makefile (`include tests/hardening.mk`):
#
#   make asan       the binary and the unit tests built with ASan+UBSan into build-asan/, then the
#                   unit, CLI and bad-input tests run against them; any sanitizer report fails it
#   make valgrind   `situ model` and a small `situ run` (its forked child too) under valgrind:
#                   zero errors, no definite leaks
#   make fuzz       every libFuzzer target for FUZZ_SECONDS each (default 300) into build-fuzz/
#   make fuzz-smoke every fuzz target for 10 s, a minute in all (part of `make test-slow`)
#   make bad        the bad-input corpus (tests/bad/) against ./situ
#
# It reads its own source lists, so it works wherever the include line sits, and it does not
# change the Makefile's default goal; from the Makefile it takes SITU_CFLAGS and the Lua files
# compiled into the binary (EMBED_H, made in EMBED_DIR before any object of any build).
# Third-party leaks are suppressed in tests/lsan.supp and tests/valgrind.supp; never add a frame
# of ours there.

HARDEN_SAVED_GOAL := $(.DEFAULT_GOAL)

HARDEN_PKGS     = $(or $(PKGS),simgrid lua5.4 libuv ncursesw jansson libxml-2.0 cairo)
HARDEN_LIB_SRC := $(wildcard engine/*/*.c tui/*/*.c plot/*.c)
HARDEN_CLI_SRC := $(wildcard cli/*.c)
HARDEN_UNIT_SRC := $(wildcard tests/unit/*.c)

# ---- AddressSanitizer + UndefinedBehaviorSanitizer ----

ASAN_DIR   = build-asan
ASAN_SAN   = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g
# The project's flags without its optimisation level, -Werror kept: zero warnings holds for this
# build too (GCC 12 at -O1 with sanitizers sees other paths; a real one hid here once).
ASAN_CFLAGS = $(SITU_CFLAGS) $(filter-out -O%,$(CFLAGS)) $(ASAN_SAN)
ASAN_LIB_OBJ  := $(patsubst %.c,$(ASAN_DIR)/%.o,$(HARDEN_LIB_SRC))
ASAN_CLI_OBJ  := $(patsubst %.c,$(ASAN_DIR)/%.o,$(HARDEN_CLI_SRC))
ASAN_UNIT_OBJ := $(patsubst %.c,$(ASAN_DIR)/%.o,$(HARDEN_UNIT_SRC))

# Reports go to files as well as failing the process, so that a report in a forked child whose
# stderr a test swallows still fails `make asan` (checked at the end).
ASAN_REPORTS = $(CURDIR)/$(ASAN_DIR)/reports
ASAN_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0:log_path=$(ASAN_REPORTS)/asan \
           UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(ASAN_REPORTS)/ubsan \
           LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

$(ASAN_DIR)/%.o: %.c | $(EMBED_H)
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_CFLAGS) -c -o $@ $<

# SimGrid's default (raw) contexts switch stacks behind ASan's back; the ASan binary asks SimGrid
# for thread contexts instead (tests/hardening/asan_simgrid.c wraps simgrid_init).
$(ASAN_DIR)/situ: $(ASAN_LIB_OBJ) $(ASAN_CLI_OBJ) $(ASAN_DIR)/tests/hardening/asan_simgrid.o
	$(CC) $(ASAN_SAN) -Wl,--wrap=simgrid_init -o $@ $^ $(LDFLAGS) $(shell pkg-config --libs $(HARDEN_PKGS)) -lm
	@for d in platforms presets scripts; do [ -e $(ASAN_DIR)/$$d ] || ln -s ../$$d $(ASAN_DIR)/$$d; done

# The helper beside it, as in the source tree: the ASan situ starts this one.
$(ASAN_DIR)/situ-sim: $(ASAN_DIR)/helper/situ_sim.o $(ASAN_LIB_OBJ) $(filter-out $(ASAN_DIR)/cli/main.o,$(ASAN_CLI_OBJ)) $(ASAN_DIR)/tests/hardening/asan_simgrid.o
	$(CC) $(ASAN_SAN) -Wl,--wrap=simgrid_init -o $@ $^ $(LDFLAGS) $(shell pkg-config --libs $(HARDEN_PKGS)) -lm

$(ASAN_DIR)/unit: $(ASAN_UNIT_OBJ) $(ASAN_LIB_OBJ) $(ASAN_DIR)/tests/hardening/asan_simgrid.o
	$(CC) $(ASAN_SAN) -Wl,--wrap=simgrid_init -o $@ $^ $(LDFLAGS) $(shell pkg-config --libs $(HARDEN_PKGS) criterion) -lm

asan-build: $(ASAN_DIR)/situ $(ASAN_DIR)/situ-sim $(ASAN_DIR)/unit

ASAN_REPORTS_CLEAR = rm -rf $(ASAN_REPORTS) && mkdir -p $(ASAN_REPORTS) && chmod 1777 $(ASAN_REPORTS)
ASAN_REPORTS_CHECK = if [ -n "$$(ls -A $(ASAN_REPORTS))" ]; then \
	    echo "asan: sanitizer reports:" >&2; cat $(ASAN_REPORTS)/* >&2; false; \
	else echo "asan: no sanitizer report"; fi

asan: asan-build
	@$(ASAN_REPORTS_CLEAR)
	$(ASAN_ENV) $(ASAN_DIR)/unit --jobs 2
	$(ASAN_ENV) sh tests/cli/run.sh $(ASAN_DIR)/situ
	$(ASAN_ENV) python3 tests/bad/run.py $(ASAN_DIR)/situ
	$(ASAN_ENV) sh tests/hardening/lua_smoke.sh $(ASAN_DIR)/situ
	@$(ASAN_REPORTS_CHECK)

# The bad inputs that take SimGrid up to DIGEST_SECONDS_MAX each (make test-slow).
asan-slow: asan-build
	@$(ASAN_REPORTS_CLEAR)
	$(ASAN_ENV) python3 tests/bad/run.py $(ASAN_DIR)/situ --slow -k '[slow]'
	@$(ASAN_REPORTS_CHECK)

# ---- valgrind ----

# Every process (the simulation helper too: --trace-children follows its exec, and valgrind
# follows fork) logs to build-asan/valgrind/PID.log; -q leaves a log empty unless something is wrong.
# A child's error also makes it exit 1, which the parent reports as a failed simulation (exit 3).
VALGRIND_DIR = $(ASAN_DIR)/valgrind
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full --show-leak-kinds=definite \
           --errors-for-leak-kinds=definite --trace-children=yes --child-silent-after-fork=no \
           --suppressions=$(CURDIR)/tests/valgrind.supp --log-file=$(VALGRIND_DIR)/%p.log \
           --soname-synonyms=somalloc=*jemalloc* # ./situ's allocator (Makefile: MALLOC_LIBS)

valgrind: situ situ-sim
	@rm -rf $(VALGRIND_DIR) && mkdir -p $(VALGRIND_DIR)
	$(VALGRIND) ./situ model >/dev/null
	# an empty cache: the platform's reader is spawned, and its output read, under valgrind too
	XDG_CACHE_HOME=$(VALGRIND_DIR)/cache $(VALGRIND) ./situ model --platform platforms/staging.xml >/dev/null
	$(VALGRIND) ./situ model --json --mapping hostfile --hostfile tests/fuzz/corpus/hostfile/two-hosts >/dev/null
	$(VALGRIND) ./situ run --iterations 400 >/dev/null
	$(VALGRIND) ./situ run --json --iterations 400 --nodes 2 --fidelity full >/dev/null
	@if [ -n "$$(find $(VALGRIND_DIR) -name '*.log' -size +0)" ]; then \
	    echo "valgrind: reports:" >&2; cat $(VALGRIND_DIR)/*.log >&2; false; \
	else echo "valgrind: no error, no definite leak (parent and simulation children)"; fi

# The Lua paths (tests/hardening/lua_smoke.sh) under valgrind: ASan cannot see a use of freed
# memory inside the system's liblua, valgrind can. Quick enough for make test.
valgrind-lua: situ situ-sim
	@rm -rf $(VALGRIND_DIR)-lua && mkdir -p $(VALGRIND_DIR)-lua
	SITU_WRAP="$(subst $(VALGRIND_DIR),$(CURDIR)/$(VALGRIND_DIR)-lua,$(VALGRIND))" sh tests/hardening/lua_smoke.sh ./situ
	@if [ -n "$$(find $(VALGRIND_DIR)-lua -name '*.log' -size +0)" ]; then \
	    echo "valgrind-lua: reports:" >&2; cat $(VALGRIND_DIR)-lua/*.log >&2; false; \
	else echo "valgrind-lua: no error, no definite leak on the Lua paths"; fi

# ---- libFuzzer ----

FUZZ_DIR     = build-fuzz
FUZZ_CC      = clang
FUZZ_SAN     = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
FUZZ_CFLAGS  = -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DSITU_FUZZ -MMD -MP \
               -DSITU_VERSION='"fuzz"' -DSITU_DATADIR='"/nonexistent"' -DSITU_SRCDIR='"$(CURDIR)"' -I$(EMBED_DIR) \
               $(shell pkg-config --cflags jansson libxml-2.0 lua5.4 2>/dev/null) $(FUZZ_SAN)
FUZZ_SECONDS ?= 300
FUZZ_TARGETS = params hostfile preset result sweep platform

# What each target links: only the objects it needs.
PLATFORM_OBJ      = engine/model/platform engine/model/platform_files engine/model/platform_xml engine/base/infile
FUZZ_OBJ_params   = engine/model/params engine/base/flag
FUZZ_OBJ_hostfile = engine/model/layout $(PLATFORM_OBJ) engine/model/params engine/base/flag
FUZZ_OBJ_platform = $(PLATFORM_OBJ)
FUZZ_OBJ_preset   = engine/model/preset engine/base/datadir engine/model/params engine/base/flag engine/base/outfile \
                    engine/base/infile
FUZZ_OBJ_result   = engine/model/result engine/model/params engine/base/flag
# The model's files (model.c and its model_*.c): the sweep and the threads' test link them all.
MODEL_OBJ         = $(basename $(wildcard engine/model/model*.c))
FUZZ_OBJ_sweep    = cli/study engine/model/advise_models engine/model/grid engine/base/flag engine/model/params $(MODEL_OBJ) engine/model/layout \
                    $(PLATFORM_OBJ) engine/base/datadir engine/run/cache engine/base/cache_dir engine/model/report engine/base/units engine/model/profile engine/lua/evaluate \
                    engine/base/outfile engine/model/preset cli/options tests/fuzz/stubs engine/model/simprofile \
                    engine/base/csv engine/base/escape \
                    $(basename $(wildcard engine/lua/analytics.c engine/lua/simulation.c engine/lua/script.c engine/lua/sandbox.c engine/lua/script_async.c \
                                          engine/lua/script_convert.c engine/base/watchdog.c))
FUZZ_LIBS = $(shell pkg-config --libs jansson libxml-2.0 lua5.4) -lm -lpthread

$(FUZZ_DIR)/%.o: %.c | $(EMBED_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

define FUZZ_template
$(FUZZ_DIR)/fuzz_$(1): $(FUZZ_DIR)/tests/fuzz/fuzz_$(1).o $(patsubst %,$(FUZZ_DIR)/%.o,$(FUZZ_OBJ_$(1)))
	$$(FUZZ_CC) $$(FUZZ_SAN) -o $$@ $$^ $$(FUZZ_LIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_template,$(t))))

fuzz-build: $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))

# FUZZ_RUN target seconds: new inputs go to build-fuzz/corpus/T (the committed seeds in
# tests/fuzz/corpus/T are read, never written); crashes to build-fuzz/crashes/.
FUZZ_RUN = sh tests/fuzz/run.sh $(FUZZ_DIR)

fuzz: fuzz-build
	$(FUZZ_RUN) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# 10 s for each of the 6 targets: a minute in all.
fuzz-smoke: fuzz-build
	$(FUZZ_RUN) 10 $(FUZZ_TARGETS)

# Replays the committed corpora (and the regression inputs) once: fast, for `make test`.
fuzz-replay: fuzz-build
	$(FUZZ_RUN) replay $(FUZZ_TARGETS)

test-slow: fuzz-smoke

# ---- ThreadSanitizer: the model and the explorer's curves from two threads ----

TSAN_DIR = build-tsan
TSAN_CFLAGS = $(SITU_CFLAGS) $(filter-out -O%,$(CFLAGS)) -fsanitize=thread -O1 -g
# What the explorer runs off its main thread, and only that: no Lua, no SimGrid, no curses.
TSAN_SRC = $(addsuffix .c,$(MODEL_OBJ)) engine/model/strategy.c engine/model/profile.c engine/model/simprofile.c engine/model/layout.c engine/model/params.c engine/model/platform.c \
           engine/base/infile.c \
           engine/base/datadir.c engine/model/crossover.c engine/base/flag.c tui/xover/xover.c tui/scaling/scaling.c \
           tests/hardening/tsan_model.c
TSAN_OBJ := $(patsubst %.c,$(TSAN_DIR)/%.o,$(TSAN_SRC))

$(TSAN_DIR)/%.o: %.c | $(EMBED_H)
	@mkdir -p $(dir $@)
	$(CC) $(TSAN_CFLAGS) -c -o $@ $<

$(TSAN_DIR)/tsan_model: $(TSAN_OBJ)
	$(CC) -fsanitize=thread -o $@ $^ $(LDFLAGS) $(shell pkg-config --libs jansson) -lm -lpthread

# Any report fails (exitcode 66), as does a run that computed nothing. The platforms' digests are
# made by SimGrid (./situ __digest), outside the instrumented program.
tsan: $(TSAN_DIR)/tsan_model situ situ-sim
	./situ __digest platforms/dahu.xml > $(TSAN_DIR)/dahu.json
	./situ __digest platforms/fattree64.xml > $(TSAN_DIR)/fattree64.json
	TSAN_OPTIONS=halt_on_error=1:exitcode=66 $(TSAN_DIR)/tsan_model $(TSAN_DIR)/dahu.json
	TSAN_OPTIONS=halt_on_error=1:exitcode=66 $(TSAN_DIR)/tsan_model $(TSAN_DIR)/fattree64.json

# ---- the bad-input corpus ----

bad: situ situ-sim
	python3 tests/bad/run.py ./situ

clean-hardening:
	rm -rf $(ASAN_DIR) $(FUZZ_DIR) $(TSAN_DIR)

clean: clean-hardening

.PHONY: tsan asan asan-build asan-slow valgrind valgrind-lua fuzz fuzz-build fuzz-smoke fuzz-replay test-slow bad clean-hardening

-include $(shell find $(ASAN_DIR) $(FUZZ_DIR) $(TSAN_DIR) -name '*.d' 2>/dev/null)

.DEFAULT_GOAL := $(HARDEN_SAVED_GOAL)

# Situ: plain make, pkg-config for every library. `make run` and `make test` install missing
# Debian packages first (tools/deps.sh), so a new machine needs nothing else.

PREFIX  ?= /usr/local
DATADIR  = $(PREFIX)/share/situ
VERSION  = 0.1.0

CC      ?= cc
# The front end (situ: the command line, the explorer, the model, Lua) links no SimGrid; the
# simulation helper (situ-sim: engine/sim/ and helper/) is the one program that does, and situ
# starts it for every simulation and platform digest (engine/base/datadir.h finds it).
FRONT_PKGS = lua5.4 libuv ncursesw jansson libxml-2.0 cairo
PKGS       = simgrid $(FRONT_PKGS)
# CFLAGS is the user's (`make CFLAGS=-O0` works); the project's own flags live apart and always
# apply, the user's last so that they win.
CFLAGS  ?= -O2 -g
# fidelity=smpi runs SimGrid's smpimain itself, where smpirun finds it (engine/sim/sim_smpi.c).
SMPIMAIN = $(shell pkg-config --variable=libdir simgrid 2>/dev/null)/simgrid/smpimain
SITU_CFLAGS = -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -MD -MP \
           -DSITU_VERSION='"$(VERSION)"' -DSITU_DATADIR='"$(DATADIR)"' \
           -DSITU_SMPIMAIN='"$(SMPIMAIN)"' \
           -DSITU_SIMGRID_VERSION='"$(shell pkg-config --modversion simgrid 2>/dev/null)"' \
           -I$(EMBED_DIR) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ALL_CFLAGS = $(SITU_CFLAGS) $(CFLAGS)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
# libxml2 and cairo are loaded when first needed (engine/model/platform_xml.h,
# plot/cairo_calls.h), not at start: with them the front end's start-up was half libraries.
FRONT_LDLIBS = $(shell pkg-config --libs $(filter-out libxml-2.0 cairo,$(FRONT_PKGS)) 2>/dev/null) -lm
# The situ binary allocates through jemalloc: SimGrid allocates and frees objects for every
# activity and every element of its max-min system, and under glibc's malloc full fidelity at 32
# nodes spent a third more CPU (docs/model.md, "Cost"). The sanitizer and fuzz builds keep their
# own allocator; valgrind is told of this one (tests/hardening.mk).
MALLOC_LIBS = $(shell pkg-config --libs jemalloc 2>/dev/null)

BUILD    = build
ENGINE   = $(wildcard engine/*/*.c)
SIM      = $(wildcard engine/sim/*.c)
TUI      = $(wildcard tui/*/*.c) # the explorer's rooms: docs/HACKING.md has the map
CLI      = $(wildcard cli/*.c)
PLOT     = $(wildcard plot/*.c)
FRONT_OBJ = $(patsubst %.c,$(BUILD)/%.o,$(filter-out $(SIM),$(ENGINE)) $(TUI) $(PLOT)) # tui/view/export.c draws through plot/
SIM_OBJ  = $(patsubst %.c,$(BUILD)/%.o,$(SIM))
LIB_OBJ  = $(FRONT_OBJ) $(SIM_OBJ)
CLI_OBJ  = $(patsubst %.c,$(BUILD)/%.o,$(CLI))
HELPER_OBJ = $(BUILD)/helper/situ_sim.o
UNIT_SRC = $(wildcard tests/unit/*.c)
UNIT_OBJ = $(patsubst %.c,$(BUILD)/%.o,$(UNIT_SRC))

.PHONY: all smpi deps run test unit cli-test docs figures bench install uninstall clean format mutants print-cc FORCE

# deps first, and alone: the compile flags ask pkg-config, which the packages deps installs
# provide, so under -j the build must not start beside it.
all: deps
	$(MAKE) --no-print-directory situ situ-sim smpi

deps:
	@sh tools/deps.sh

# --as-needed: a library none of whose symbols a program uses is not loaded at its start.
situ: $(FRONT_OBJ) $(CLI_OBJ) $(BUILD)/layers.ok $(BUILD)/circles.ok $(BUILD)/calls.ok
	$(CC) $(ALL_CFLAGS) -o $@ $(FRONT_OBJ) $(CLI_OBJ) $(LDFLAGS) -Wl,--as-needed $(FRONT_LDLIBS)
	@sh tools/check-layers.sh --front-end $@

# The helper: its main, SimGrid's part of the engine, and what they use of the rest (the
# archive gives the linker only the objects it needs: no explorer, no plots).
situ-sim: $(HELPER_OBJ) $(SIM_OBJ) $(BUILD)/libsitu.a
	$(CC) $(ALL_CFLAGS) -o $@ $(HELPER_OBJ) $(SIM_OBJ) $(BUILD)/libsitu.a $(LDFLAGS) \
	    -Wl,--as-needed $(LDLIBS) $(MALLOC_LIBS)

$(BUILD)/libsitu.a: $(FRONT_OBJ) $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))
	@rm -f $@
	$(AR) rcs $@ $^

# Lua that is part of the program (the sandbox, the checks of analytics and lesson files) is
# written as .lua files in scripts/lua/internal/ and compiled in, as wrk compiles its wrk.lua:
# each becomes $(EMBED_DIR)/embedded/NAME_lua.h (tools/embed-lua.sh), which the C file loads with
# its chunk name. Every build (this one, pic, asan, fuzz, tsan) makes them first (order-only) and
# includes them from here; the compiler's dependency files then rebuild whoever includes one when
# its .lua changes. Nothing is installed for them: the binary carries them.
EMBED_DIR = $(BUILD)/gen
EMBED_LUA = $(wildcard scripts/lua/internal/*.lua)
EMBED_H   = $(patsubst scripts/lua/internal/%.lua,$(EMBED_DIR)/embedded/%_lua.h,$(EMBED_LUA))

$(EMBED_DIR)/embedded/%_lua.h: scripts/lua/internal/%.lua tools/embed-lua.sh
	@mkdir -p $(dir $@)
	sh tools/embed-lua.sh $*_lua $< > $@.tmp && mv $@.tmp $@
.SECONDARY: $(EMBED_H) # made by a pattern rule, yet no intermediate to delete after the build

$(BUILD)/%.o: %.c $(BUILD)/flags.stamp | $(EMBED_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The compile command of one object, for what compiles a file alone (tests/mutants/run.py --check).
print-cc:
	@$(info $(CC) $(ALL_CFLAGS))

# A change of flags (`make CFLAGS=-O0`) rebuilds every object, as a change of source does.
$(BUILD)/flags.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(ALL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS)' > $@

# fidelity=smpi: libsitu_dtl (the engine, built position-independent with the DTL's SMPI comms,
# and the runtime every smpirun process shares), Situ's MPI proxy and the example application,
# built with smpicc (libsimgrid-dev).
SMPI_LIB_OBJ = $(patsubst %.c,$(BUILD)/pic/%.o,$(ENGINE) smpi/runtime.c smpi/situ_dtl.c) \
               $(BUILD)/pic/smpi/comm_shim.o
smpi: libsitu_dtl.so situ-smpi $(BUILD)/stencil

$(BUILD)/pic/%.o: %.c | $(EMBED_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -DSITU_SMPI -I/usr/include/smpi -c -o $@ $<

$(BUILD)/pic/smpi/comm_shim.o: smpi/comm_shim.cpp smpi/comm_shim.h
	@mkdir -p $(dir $@)
	$(CXX) -O2 -g -std=c++17 -Wall -Wextra -Werror -fPIC -c -o $@ $<

libsitu_dtl.so: $(SMPI_LIB_OBJ)
	$(CXX) -shared -o $@ $^ $(LDFLAGS) $(LDLIBS) -Wl,-z,defs

situ-smpi: smpi/proxy.c smpi/runtime.h libsitu_dtl.so
	smpicc $(ALL_CFLAGS) -o $@ smpi/proxy.c -L. -lsitu_dtl -Wl,-rpath,'$$ORIGIN'

$(BUILD)/stencil: scripts/smpi/stencil.c smpi/situ_dtl.h libsitu_dtl.so
	@mkdir -p $(BUILD)
	smpicc -O2 -g -Wall -Wextra -Werror -Ismpi -o $@ $< -L. -lsitu_dtl -lm -Wl,-rpath,'$$ORIGIN/..'

# The data directory is compiled in: a new PREFIX must rebuild what uses it.
$(BUILD)/engine/base/datadir.o: $(BUILD)/datadir.stamp
$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
FORCE:

# engine/ never sees curses, tui/ never sees SimGrid, not even through an included header: checked
# on every build from the compiler's own dependency output (-MD, system headers included), which lists every header each
# object read, directly or not.
$(BUILD)/layers.ok: $(LIB_OBJ)
	@sh tools/check-layers.sh $(BUILD)
	@touch $@

# No import circle among the modules of engine/, cli/, tui/ and plot/ (a includes b's header and b
# includes a's, or a longer loop): checked on every build, from the sources, one line per circle.
CIRCLE_SRC = $(wildcard engine/*/*.[ch] tui/*.h tui/*/*.[ch] cli/*.[ch] plot/*.[ch])
$(BUILD)/circles.ok: $(CIRCLE_SRC) tools/check-circles.py
	@mkdir -p $(BUILD)
	@python3 tools/check-circles.py . engine cli tui plot
	@touch $@

# Nor a call circle among their objects (a.o uses what b.o defines and b.o what a.o does): two
# files can call each other through a shared private header without including each other's.
$(BUILD)/calls.ok: $(LIB_OBJ) $(CLI_OBJ) tools/check-circles.py
	@python3 tools/check-circles.py --objects $(LIB_OBJ) $(CLI_OBJ)
	@touch $@

$(BUILD)/unit: $(UNIT_OBJ) $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS) $(shell pkg-config --libs criterion)

run: all
	./situ

unit: deps $(BUILD)/unit $(BUILD)/layers.ok $(BUILD)/circles.ok
	$(BUILD)/unit --jobs 2

cli-test: all
	sh tests/cli/run.sh ./situ

# `make test` builds once, then runs every suite as its own target (tools/test-suites.sh): all of
# them run even after a failure, and the summary names each red one with its time. One suite alone:
# `make test-NAME` (it expects the build `make test` or `make all` made).
TEST_SUITES = mutants-apply tsan fuzz-replay unit \
              tools cli tui tui-stress tui-signals tui-supervisor \
              tui-as-user tui-terminals tui-bite tui-advise tui-refine cli-table tui-workshop \
              engine engine-platforms lua lua-isolation study study-output \
              study-model advise calibrate
# ASan+UBSan over the unit, CLI and bad-input suites (`make test-asan`, about 5 minutes with its
# build), valgrind on the Lua paths (`make test-valgrind-lua`, 35-70 s) and the stress and signal
# suites as another user run in `make test-slow`: with them `make test` was past its 10 minutes.
test: deps
	$(MAKE) --no-print-directory situ situ-sim smpi $(BUILD)/unit $(BUILD)/layers.ok $(BUILD)/circles.ok
	@MAKE="$(MAKE)" sh tools/test-suites.sh $(TEST_SUITES)
.PHONY: $(addprefix test-,$(TEST_SUITES)) test-asan

test-mutants-apply:
	python3 tests/mutants/run.py --check
test-asan: asan
test-tsan: tsan
test-fuzz-replay: fuzz-replay
test-valgrind-lua: valgrind-lua
# CASE=PATTERN: one case or a few (tests/suite.py, tests/case.sh); for the unit tests a Criterion
# glob on suite/test, and one that matches no test fails.
test-unit:
	@$(BUILD)/unit --jobs 2 $${CASE:+--filter "$$CASE"} >$(BUILD)/unit.out 2>&1; rc=$$?; \
	cat $(BUILD)/unit.out; \
	if [ -n "$$CASE" ] && grep -q 'Tested: 0 ' $(BUILD)/unit.out; then \
	    echo "unit: no test matches CASE='$$CASE' (a glob on suite/test)" >&2; exit 1; fi; \
	exit $$rc
test-tools:
	python3 tests/tools/run.py
test-cli:
	sh tests/cli/run.sh ./situ
test-tui:
	sh tests/tui/run.sh ./situ
test-tui-stress:
	sh tests/tui/stress.sh ./situ
test-tui-signals:
	sh tests/tui/signals.sh ./situ
test-tui-supervisor:
	sh tests/tui/supervisor.sh ./situ
test-tui-as-user:
	sh tests/tui/as-user.sh ./situ run.sh
test-tui-as-user-slow:
	sh tests/tui/as-user.sh ./situ stress.sh signals.sh
test-tui-terminals:
	python3 tests/tui/terminals.py ./situ
test-tui-bite:
	python3 tests/tui/bite.py ./situ
test-tui-advise:
	python3 tests/tui/advise.py ./situ
test-tui-refine:
	sh tests/tui/refine.sh ./situ
test-cli-table:
	python3 tests/cli/table.py ./situ
test-tui-workshop:
	sh tests/tui/workshop.sh ./situ
test-engine:
	python3 tests/engine/run.py ./situ
test-engine-platforms:
	python3 tests/engine/platforms.py ./situ
test-lua:
	python3 tests/lua/run.py ./situ
test-lua-isolation:
	python3 tests/lua/isolation.py ./situ
test-study:
	python3 tests/study/run.py ./situ
test-study-output:
	python3 tests/study/output.py ./situ
test-study-model:
	python3 tests/study/model.py ./situ
test-advise:
	python3 tests/advise/run.py ./situ
test-calibrate:
	python3 tests/calibrate/run.py ./situ

# Mutation testing: each mutant of tests/mutants/list.py in a scratch copy of the tree, against
# the tests that should catch it; fails below a 90% kill ratio or on an unexplained survivor.
mutants: situ situ-sim $(BUILD)/unit
	python3 tests/mutants/run.py --min 0.9

test-slow: mutants smpi asan asan-slow test-valgrind-lua test-tui-as-user-slow
	python3 tests/engine/smpi_levels.py ./situ
	python3 tests/engine/sampling.py ./situ
	python3 tests/engine/reduction.py ./situ
	sh tests/calibrate/slow.sh ./situ
	sh tests/scaleout/slurm.sh ./situ

# Generated documentation: the README's parameter table and docs/situ.1's options and keys, from
# the parameter and key tables (tools/docs.sh).
docs: all
	sh tools/docs.sh ./situ

# The paper's figures and their summaries, regenerated from the code (never edited by hand).
figures: all
	./situ reproduce all --out docs/figures --no-cache

bench: all
	sh tests/bench/startup.sh ./situ $(BENCH_BASE)
	sh tests/bench/run.sh ./situ
	sh tests/bench/tui.sh ./situ $(BENCH_BASE)
	sh tests/bench/lua.sh ./situ
	sh tests/bench/advise.sh ./situ $(BENCH_BASE)
	sh tests/bench/sweep.sh ./situ $(BENCH_BASE)

install: situ situ-sim smpi
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 situ $(DESTDIR)$(PREFIX)/bin/situ
	install -m 755 situ-sim situ-smpi libsitu_dtl.so $(DESTDIR)$(DATADIR)/
	install -m 644 smpi/situ_dtl.h $(DESTDIR)$(DATADIR)/
	cp -R platforms presets scripts $(DESTDIR)$(DATADIR)/
	rm -rf $(DESTDIR)$(DATADIR)/scripts/lua/internal # compiled in (EMBED_H)
	install -m 644 docs/situ.1 $(DESTDIR)$(PREFIX)/share/man/man1/situ.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions
	./situ __completion bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/situ
	./situ __completion zsh >$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_situ

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/situ $(DESTDIR)$(DATADIR) $(DESTDIR)$(PREFIX)/share/man/man1/situ.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/situ \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_situ

# Every C file of ours; the fuzz corpora and build trees are not code.
format:
	git ls-files '*.c' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD) situ situ-sim situ-smpi libsitu_dtl.so

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Sanitizers, valgrind, fuzzing, the bad-input corpus: make asan, valgrind, fuzz, test-slow, bad.
include tests/hardening.mk

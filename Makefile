# Situ: plain make, pkg-config for every library. `make run` and `make test` install missing
# Debian packages first (tools/deps.sh), so a new machine needs nothing else.

PREFIX  ?= /usr/local
DATADIR  = $(PREFIX)/share/situ
VERSION  = 0.1.0

CC      ?= cc
PKGS     = simgrid lua5.4 libuv ncursesw jansson libxml-2.0 cairo
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -MMD -MP \
           -DSITU_VERSION='"$(VERSION)"' -DSITU_DATADIR='"$(DATADIR)"' \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm

BUILD    = build
ENGINE   = $(wildcard engine/*.c)
TUI      = $(wildcard tui/*.c)
CLI      = $(wildcard cli/*.c)
PLOT     = $(wildcard plot/*.c)
LIB_OBJ  = $(patsubst %.c,$(BUILD)/%.o,$(ENGINE) $(TUI) $(PLOT)) # tui/export.c draws through plot/
CLI_OBJ  = $(patsubst %.c,$(BUILD)/%.o,$(CLI))
UNIT_SRC = $(wildcard tests/unit/*.c)
UNIT_OBJ = $(patsubst %.c,$(BUILD)/%.o,$(UNIT_SRC))

.PHONY: all deps run test unit cli-test figures bench install uninstall clean format mutants FORCE

all: deps situ

deps:
	@sh tools/deps.sh

situ: $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The data directory is compiled in: a new PREFIX must rebuild what uses it.
$(BUILD)/engine/datadir.o: $(BUILD)/datadir.stamp
$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
FORCE:

# engine/ never sees curses, tui/ never sees SimGrid: checked on every build.
$(BUILD)/layers.ok: $(ENGINE) $(TUI) $(wildcard engine/*.h tui/*.h)
	@! grep -ln '#include.*curses' engine/*.[ch] || (echo "engine/ includes curses" >&2; false)
	@! grep -ln '#include.*simgrid' tui/*.[ch] 2>/dev/null || (echo "tui/ includes SimGrid" >&2; false)
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/unit: $(UNIT_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS) $(shell pkg-config --libs criterion)

run: all
	./situ

unit: deps $(BUILD)/unit $(BUILD)/layers.ok
	$(BUILD)/unit --jobs 2

cli-test: all
	sh tests/cli/run.sh ./situ

test: deps
	$(MAKE) --no-print-directory situ $(BUILD)/unit $(BUILD)/layers.ok
	$(MAKE) --no-print-directory asan
	$(MAKE) --no-print-directory tsan
	$(MAKE) --no-print-directory fuzz-replay
	$(MAKE) --no-print-directory valgrind-lua
	$(BUILD)/unit --jobs 2
	sh tests/cli/run.sh ./situ
	sh tests/tui/run.sh ./situ
	sh tests/tui/stress.sh ./situ
	sh tests/tui/signals.sh ./situ
	sh tests/tui/as-user.sh ./situ run.sh stress.sh signals.sh
	python3 tests/tui/terminals.py ./situ
	python3 tests/tui/bite.py ./situ
	python3 tests/cli/table.py ./situ
	sh tests/tui/workshop.sh ./situ
	python3 tests/engine/run.py ./situ
	python3 tests/lua/run.py ./situ
	python3 tests/lua/isolation.py ./situ
	python3 tests/study/run.py ./situ
	python3 tests/study/output.py ./situ

# Mutation testing: each mutant of tests/mutants/list.py in a scratch copy of the tree, against
# the tests that should catch it; fails below a 90% kill ratio or on an unexplained survivor.
mutants: situ $(BUILD)/unit
	python3 tests/mutants/run.py --min 0.9

test-slow: mutants

# The paper's figures and their summaries, regenerated from the code (never edited by hand).
figures: all
	./situ reproduce all --out docs/figures --no-cache

bench: all
	sh tests/bench/run.sh ./situ
	sh tests/bench/tui.sh ./situ
	sh tests/bench/lua.sh ./situ

install: situ
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 situ $(DESTDIR)$(PREFIX)/bin/situ
	cp -R platforms presets scripts $(DESTDIR)$(DATADIR)/
	install -m 644 docs/situ.1 $(DESTDIR)$(PREFIX)/share/man/man1/situ.1

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/situ $(DESTDIR)$(DATADIR) $(DESTDIR)$(PREFIX)/share/man/man1/situ.1

format:
	clang-format -i engine/*.[ch] cli/*.[ch] $(wildcard tui/*.[ch]) $(wildcard tests/unit/*.c)

clean:
	rm -rf $(BUILD) situ

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Sanitizers, valgrind, fuzzing, the bad-input corpus: make asan, valgrind, fuzz, test-slow, bad.
include tests/hardening.mk

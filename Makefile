# tracestream - plain Makefile.
#   make            build ./tracestream (release, -O2)
#   make test       install missing Debian packages, build with -Werror,
#                   run unit, golden, CLI and shared-trace tests, then the
#                   same under AddressSanitizer + UBSan (build/san)
#   make sample     run tracestream on the bundled sample trace: its first
#                   screen, the full report in build/sample-report.txt
#   make bench      benchmarks (bench/run.sh; figures in bench/RESULTS.md)
#   make test-slurm scripts/slurm-ranks.sh on a single-node Slurm here
#   make fuzz       libFuzzer (clang) on each tests/fuzz target for
#                   FUZZ_SECONDS (default 60); `make test` replays the corpus
#   make install    PREFIX=/usr/local DESTDIR=
#   make SAN=1      sanitizer build in build/san
#   make tsan       ThreadSanitizer build (build/tsan) running the tests of
#                   the threaded paths (also part of `make test`)
#   make zoo        the architecture zoo's full sweep: ZOO_SEEDS (default
#                   300) random decoders, real and random kernel names,
#                   every layer checked; prints the seeds that fail
#   make indep      the second-hand generator's sweep (tests/indep/gen):
#                   INDEP_SEEDS (default 200) seeds, both name modes, the
#                   rate per class
#   make V=1        print each compiler command in full (default: a line
#                   a file, "CC src/x.c")

CC      ?= cc
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/tracestream
MANDIR  ?= $(PREFIX)/share/man

ifeq ($(SAN),1)
VARIANT  := san
OPT      := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else ifeq ($(TSAN),1)
VARIANT  := tsan
OPT      := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
else
VARIANT  := release
OPT      := -O2 -g
endif

BUILD    := build/$(VARIANT)

# a short line a step ("CC src/x.c"); V=1 prints the commands themselves,
# BRIEF=1 nothing but warnings and errors (make test: a line a build)
ifeq ($(V),1)
Q        :=
say      :=
else ifeq ($(BRIEF),1)
Q        := @
say      :=
else
Q        := @
say       = printf '  %-4s %s\n' '$(1)' '$(2)';
endif
MAKEFLAGS += --no-print-directory
WARN     := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
ifeq ($(WERROR),1)
WARN     += -Werror
endif
# every folder of src/ with sources (a new one needs no line here; its
# place in the pipeline is tests/t_layout.sh's rank)
SRCDIRS  := $(patsubst %/,%,$(sort $(dir $(wildcard src/*.c src/*/*.c src/*/*/*.c src/*/*/*/*.c))))
INCDIRS  := src
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(INCDIRS:%=-I%) -MMD -MP \
	    -DTS_DATADIR='"$(DATADIR)"' -DTS_SOURCE_PATTERNS='"$(CURDIR)/patterns"'
CFLAGS   ?=
ALL_CFLAGS := -std=c11 $(OPT) $(WARN) $(CFLAGS)
LDLIBS   := -lyajl -lz -lcyaml -lyaml -lpcre2-8 -lxlsxwriter -lm -pthread
ALL_LDFLAGS := $(filter -fsanitize=%,$(OPT)) $(LDFLAGS)

SRCS     := $(wildcard $(SRCDIRS:%=%/*.c))
# docs/report.schema.json built in as a C string (tracestream schema)
GEN_OBJS := $(BUILD)/gen/report_schema.o
OBJS     := $(SRCS:src/%.c=$(BUILD)/%.o) $(GEN_OBJS)
LIB_OBJS := $(filter-out $(BUILD)/main.o,$(OBJS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%)
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
REPLAY_BINS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
FUZZ_SECONDS ?= 60

ifneq ($(VARIANT),release)
BIN := $(BUILD)/tracestream
else
BIN := tracestream
endif

.PHONY: all unit test test-long test-slurm sample bench install clean deps fuzz fuzz-build tsan zoo indep

all: $(BIN)

$(BIN): $(OBJS)
	$(Q)$(call say,LD,$@)$(CC) $(ALL_LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/%.o: src/%.c | $(BUILD)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/gen/report_schema.c: docs/report.schema.json
	@mkdir -p $(dir $@)
	$(Q)$(call say,GEN,$<){ echo '/* written by the Makefile from docs/report.schema.json */'; \
	  echo 'const char ts_report_schema[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(Q)$(call say,CC,$<)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/unit/%: tests/unit/%.c $(LIB_OBJS) | $(BUILD)/unit
	$(Q)$(call say,CC,$<)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

# fuzz targets as plain programs that replay a corpus (any compiler)
$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/common.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(CPPFLAGS) -Itests/fuzz $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.c,$^) $(LIB_OBJS) $(LDLIBS)

$(BUILD) $(BUILD)/unit:
	@mkdir -p $@

unit: $(UNIT_BINS) $(REPLAY_BINS)

# libFuzzer builds (clang): build/fuzz/fuzz_TARGET; `make fuzz` runs each
# for FUZZ_SECONDS (tests/fuzz/run.sh: executions, coverage, new inputs)
FUZZ_CC  ?= clang
FUZZ_DIR := build/fuzz
FUZZ_OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJS := $(LIB_OBJS:$(BUILD)/%.o=$(FUZZ_DIR)/obj/%.o)

$(FUZZ_DIR)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) -std=c11 $(FUZZ_OPT) -fsanitize=fuzzer-no-link $(WARN) -c -o $@ $<

$(FUZZ_DIR)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) -std=c11 $(FUZZ_OPT) -fsanitize=fuzzer-no-link $(WARN) -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/common.c tests/fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz -std=c11 $(FUZZ_OPT) -fsanitize=fuzzer $(WARN) -o $@ $(filter %.c,$^) $(FUZZ_OBJS) $(LDLIBS)

.SECONDARY: $(FUZZ_OBJS)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

fuzz: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

deps:
	@sh scripts/deps.sh

# the three builds on every core (TEST_JOBS tests at a time after them)
TS_LONG ?= 0
NPROC := $(shell nproc 2>/dev/null || echo 2)
test:
	@sh scripts/deps.sh --test
	@echo "build: release, -Werror (build/release; make V=1 shows the commands)"
	@$(MAKE) -s -j$(NPROC) BRIEF=1 WERROR=1 all unit
	@echo "build: AddressSanitizer + UBSan (build/san)"
	@$(MAKE) -s -j$(NPROC) BRIEF=1 WERROR=1 SAN=1 all unit
	@echo "build: ThreadSanitizer (build/tsan)"
	@$(MAKE) -s -j$(NPROC) BRIEF=1 WERROR=1 TSAN=1 all
	@TS_LONG=$(TS_LONG) bash tests/run.sh

# make test with the long sizes and sweeps (t_hostile's full sizes; every
# shared trace, thread count and page where make test takes a subset that
# covers the same code, the full grids and zoo under the sanitizers)
test-long:
	$(MAKE) TS_LONG=1 test

# the threaded paths (one trace parsed on several threads, ranks and
# compare sides at once) under ThreadSanitizer
tsan:
	$(MAKE) TSAN=1 all
	TS=build/tsan/tracestream bash tests/t_threads.sh

# scripts/slurm-ranks.sh against a single-node Slurm on this machine
# (installs slurm-wlm and munge as root; skips where it cannot)
test-slurm: all
	bash tests/slurm/run.sh

# the zoo's targets: layer count and membership exact on 99% of the seeds
# with real kernel names, 95% with random names (`make test` runs a sample)
ZOO_SEEDS ?= 300
INDEP_SEEDS ?= 200
zoo: all
	python3 tests/zoo/check.py ./tracestream 0 $(ZOO_SEEDS) --names-min 99 --random-min 95

# The second-hand generator's sweep (tests/indep/gen, written apart from
# the sources): every class's rate, on fresh seeds.
indep: all
	python3 tests/indep/sweep.py ./tracestream 0 $(INDEP_SEEDS) --classes

# the first screen last, where it stays in view; the full report and the
# page beside it in build/
SAMPLE := tests/data/sample_trace.json.gz
sample: deps
	@$(MAKE) -s all
	@mkdir -p build
	@./tracestream --no-progress -o build/sample-report.txt $(SAMPLE)
	@./tracestream --no-progress -f html -o build/sample-report.html $(SAMPLE)
	@echo
	@./tracestream --no-progress --brief $(SAMPLE)
	@echo
	@echo "The full report ($$(wc -l < build/sample-report.txt) lines: every table): build/sample-report.txt"
	@echo "As a page (charts, every table): build/sample-report.html"
	@echo "Your own trace: ./tracestream TRACE.json.gz (docs/usage.md; ./tracestream --help)"

bench: all
	bash bench/run.sh

install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 tracestream $(DESTDIR)$(BINDIR)/tracestream
	install -d $(DESTDIR)$(DATADIR)/patterns/models
	install -m 644 patterns/*.yaml patterns/README.md $(DESTDIR)$(DATADIR)/patterns/
	install -m 644 patterns/models/*.yaml $(DESTDIR)$(DATADIR)/patterns/models/
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 docs/tracestream.1 $(DESTDIR)$(MANDIR)/man1/tracestream.1

clean:
	rm -rf build tracestream

-include $(OBJS:.o=.d) $(UNIT_BINS:=.d) $(REPLAY_BINS:=.d) $(FUZZ_OBJS:.o=.d)

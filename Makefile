# uplift - build, test, run and benchmark.
#
#   make              build ./uplift (installs missing Debian packages first)
#   make test         build and run every test; last line "N passed, N failed"
#   make test EXCEPT="a b"  every test but those named
#   make test T=name  build and run one test: a tests/test_*.c program or a
#                     tests/e2e_*.sh script, by name (test_ir, e2e_raise);
#                     T="a b" runs several, in that order
#   make test-build   build ./uplift and every test program, run nothing
#   make test SAN=1   the same with AddressSanitizer + UndefinedBehaviorSanitizer
#                     (each test has a TEST_TIMEOUT limit, default 1800 s, and
#                     its time is printed; a test that ran no check fails)
#   make fuzz         run every libFuzzer harness (tests/fuzz/) for FUZZ_SECONDS
#                     (default 60) each; fails on any finding (docs/fuzz.md)
#   make run          raise the default example
#   make bench        the benchmark table (benchmarks/results.md)
#   make install      install uplift into PREFIX (default /usr/local; DESTDIR
#                     for staging): PREFIX/bin/uplift, and the dialects and
#                     polybench.h in PREFIX/share/uplift, which the binary
#                     finds relative to itself (make uninstall removes them)
#
# Sources are found by wildcard: every .c file in a module folder goes into
# libuplift.a, cli/main.c into the driver, each tests/test_*.c into a test
# program linked with the library, and each tests/e2e_*.sh is an end-to-end test.

MODULES  := ir frontend interp polyhedral grammar enumerator verify emit pipeline rewrites cli
PKGS     := isl gmp z3 libffi openblas libcjson

ifeq ($(FUZZ),1)
# the fuzz build: clang-16 with libFuzzer's coverage, ASan and UBSan
BUILD    := build-fuzz
CC       := clang-16
OPT      := -O1
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined \
            -fno-sanitize-recover=undefined -fno-omit-frame-pointer
UPLIFT   := $(BUILD)/uplift
else ifeq ($(SAN),1)
BUILD    := build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
            -fno-omit-frame-pointer
UPLIFT   := $(BUILD)/uplift
else
BUILD    := build
SANFLAGS :=
UPLIFT   := ./uplift
endif

CC       ?= cc
OPT      ?= -O2
# Recursive (=) on purpose: evaluated after the dependency stamp is made.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
CFLAGS   = -std=c11 -D_GNU_SOURCE -Wall -Wextra -g $(OPT) -MMD -MP \
           -I. $(SANFLAGS) $(PKG_CFLAGS)
LDFLAGS  = $(SANFLAGS)
LDLIBS   = $(PKG_LIBS) -ldl -lpthread -lm

LIB_SRC  := $(filter-out cli/main.c,$(foreach m,$(MODULES),$(wildcard $(m)/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_SH  := $(wildcard tests/e2e_*.sh)
DEPS     := $(BUILD)/.deps-ok
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/fuzz/%)
FUZZ_SECONDS ?= 60
FUZZ_SMOKE   ?= 0

.PHONY: all test test-build run bench deps clean compdb fuzz fuzz-build install uninstall
.DEFAULT_GOAL := all

all: $(UPLIFT)

deps: $(DEPS)
$(DEPS): mk/deps.sh
	@sh mk/deps.sh $(if $(filter 1,$(FUZZ)),fuzz)
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/%.o: %.c $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libuplift.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(UPLIFT): $(BUILD)/cli/main.o $(BUILD)/libuplift.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libuplift.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# T=name selects one test; the tools the tests need (the MLIR tools among
# them) are checked and installed by mk/deps.sh on every run.
# T="a b" runs those tests, in that order.
ifneq ($(T),)
T_NAME   := $(basename $(notdir $(T)))
TEST_RUN := $(foreach t,$(T_NAME),$(filter $(BUILD)/tests/$(t),$(TEST_BIN)) \
              $(filter tests/$(t).sh,$(TEST_SH)))
ifneq ($(words $(TEST_RUN)),$(words $(T_NAME)))
$(error no test named in '$(T)': tests are tests/test_*.c and tests/e2e_*.sh)
endif
else
TEST_RUN := $(TEST_BIN) $(TEST_SH)
endif
# EXCEPT="name ..." leaves those tests out of the run (CI's sanitizer run,
# .ci/run); a name that is not a test is an error, as with T.
ifneq ($(EXCEPT),)
EXCEPT_RUN := $(foreach t,$(EXCEPT),$(filter $(BUILD)/tests/$(t) tests/$(t).sh,$(TEST_RUN)))
ifneq ($(words $(EXCEPT_RUN)),$(words $(EXCEPT)))
$(error EXCEPT names a test that does not exist: $(EXCEPT))
endif
TEST_RUN := $(filter-out $(EXCEPT_RUN),$(TEST_RUN))
endif

# test-build: build the driver and every test program, run nothing (CI
# builds once before it runs tests side by side).
test-build: $(UPLIFT) $(TEST_BIN)

test: $(UPLIFT) $(filter $(BUILD)/tests/%,$(TEST_RUN))
	@sh mk/deps.sh
	@UPLIFT=$(UPLIFT) BUILD=$(BUILD) sh mk/run-tests.sh $(TEST_RUN)

# The harnesses link the library built with FUZZ=1 (build-fuzz/).
fuzz:
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SMOKE=$(FUZZ_SMOKE) sh mk/fuzz.sh $(FUZZ_BIN)

fuzz-build: $(FUZZ_BIN)

build-fuzz/fuzz/%: tests/fuzz/%.c $(BUILD)/libuplift.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/libuplift.a $(LDLIBS)

run: $(UPLIFT)
	$(UPLIFT) raise benchmarks/kernels/gemm.c

bench: $(UPLIFT)
	@sh mk/deps.sh bench
	@UPLIFT=$(UPLIFT) sh benchmarks/bench.sh

PREFIX   ?= /usr/local
SHAREDIR := $(DESTDIR)$(PREFIX)/share/uplift
install: $(UPLIFT)
	install -d $(DESTDIR)$(PREFIX)/bin $(SHAREDIR)/dialects $(SHAREDIR)/frontend/include
	install -m 755 $(UPLIFT) $(DESTDIR)$(PREFIX)/bin/uplift
	install -m 644 $(wildcard dialects/*) $(SHAREDIR)/dialects
	install -m 644 $(wildcard frontend/include/*.h) $(SHAREDIR)/frontend/include

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/uplift
	rm -rf $(SHAREDIR)

compdb:
	$(MAKE) clean && bear -- $(MAKE)

clean:
	rm -rf build build-san build-fuzz uplift

-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d $(TEST_BIN:=.d) $(FUZZ_BIN:=.d)
.SECONDARY:

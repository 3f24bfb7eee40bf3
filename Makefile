# uplift - build, test, run and benchmark.
#
#   make              build ./uplift (installs missing Debian packages first)
#   make test         build and run every test; last line "N passed, N failed"
#   make test SAN=1   the same with AddressSanitizer + UndefinedBehaviorSanitizer
#   make run          raise the default example
#   make bench        the benchmark table (benchmarks/results.md)
#
# Sources are found by wildcard: every .c file in a module folder goes into
# libuplift.a, cli/main.c into the driver, each tests/test_*.c into a test
# program linked with the library, and each tests/e2e_*.sh is an end-to-end test.

MODULES  := ir frontend interp polyhedral grammar enumerator verify emit cli
PKGS     := isl gmp z3 libffi openblas libcjson

ifeq ($(SAN),1)
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

.PHONY: all test run bench deps clean compdb
.DEFAULT_GOAL := all

all: $(UPLIFT)

deps: $(DEPS)
$(DEPS): mk/deps.sh
	@sh mk/deps.sh
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

test: $(UPLIFT) $(TEST_BIN)
	@UPLIFT=$(UPLIFT) BUILD=$(BUILD) sh mk/run-tests.sh $(TEST_BIN) $(TEST_SH)

run: $(UPLIFT)
	$(UPLIFT) raise benchmarks/kernels/gemm.c

bench: $(UPLIFT)
	@UPLIFT=$(UPLIFT) sh benchmarks/bench.sh

compdb:
	$(MAKE) clean && bear -- $(MAKE)

clean:
	rm -rf build build-san uplift

-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d $(TEST_BIN:=.d)
.SECONDARY:

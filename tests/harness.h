/*
 * harness.h - the tiny test harness: CHECK(description, condition) counts a
 * pass or prints the failure with file and line; TEST_REPORT() prints
 * "N passed, N failed" and returns the exit status (non-zero on failure).
 * There is no skip: a missing prerequisite (a tool mk/deps.sh installs) is
 * a failed CHECK, and mk/run-tests.sh fails a test that reports 0 passed
 * (docs/testing.md).
 */
#ifndef UPLIFT_HARNESS_H
#define UPLIFT_HARNESS_H

#include <stdio.h>

static int harness_passed, harness_failed;

#define CHECK(desc, cond)                                                   \
  do {                                                                      \
    if (cond) {                                                             \
      harness_passed++;                                                     \
    } else {                                                                \
      harness_failed++;                                                     \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, (desc));      \
    }                                                                       \
  } while (0)

/* CHECKF: like CHECK, with a printf-style description. */
#define CHECKF(cond, ...)                                                   \
  do {                                                                      \
    if (cond) {                                                             \
      harness_passed++;                                                     \
    } else {                                                                \
      harness_failed++;                                                     \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                  \
      fprintf(stderr, __VA_ARGS__);                                         \
      fputc('\n', stderr);                                                  \
    }                                                                       \
  } while (0)

#define TEST_REPORT()                                                       \
  (printf("%d passed, %d failed\n", harness_passed, harness_failed),        \
   harness_failed ? 1 : 0)

#endif

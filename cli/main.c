/*
 * main.c - the uplift command: dispatches to one function per command.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* The version `uplift --version` prints. */
#define CLI_VERSION "0.6.0"

static const cli_command commands[] = {
    {"raise", cli_cmd_raise, "raise a C kernel to a tensor program"},
    {"analyze", cli_cmd_analyze, "polyhedral analysis: dependences, tasks, regions"},
    {"run", cli_cmd_run, "run a kernel in the interpreter (and natively)"},
    {"dump", cli_cmd_dump, "print the parsed loop program"},
    {"verify", cli_cmd_verify, "re-check a saved raise report"},
    {"explore", cli_cmd_explore, "enumerate what a dialect can express"},
    {"rewrites", cli_cmd_rewrites, "generate verified rewrite rules"},
    {"dialects", cli_cmd_dialects, "list dialects, their ops and signatures"},
    {"batch", cli_cmd_batch, "raise every kernel of files and folders (JSON lines)"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
  fprintf(out, "usage: uplift COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(out,
          "\n'uplift COMMAND --help' describes a command; 'uplift --version' prints\n"
          "the version.\n"
          "exit status: 0 done, 1 not raised within the budget, 2 bad input "
          "or usage,\n3 a verification or cross-check failure, 4 the dialect has not "
          "the kernel's\nelement type (--element-type)\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return IR_EXIT_BAD_INPUT;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
      !strcmp(argv[1], "help")) {
    usage(stdout);
    return IR_EXIT_OK;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
    printf("uplift %s\n", CLI_VERSION);
    return IR_EXIT_OK;
  }
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (!strcmp(argv[1], commands[i].name))
      return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "uplift: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return IR_EXIT_BAD_INPUT;
}

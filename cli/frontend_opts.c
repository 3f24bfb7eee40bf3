/*
 * frontend_opts.c - the options every command that reads a C kernel takes
 * (-I DIR, -D NAME[=VALUE], --function NAME), collected into fe_options
 * from inside each command's getopt_long loop.
 */
#include <string.h>

#include "cli/cli.h"

const char cli_frontend_help[] =
    "  -I DIR, --include DIR     add DIR to the preprocessor's include path\n"
    "                            (searched before uplift's own polybench.h)\n"
    "  -D NAME[=VALUE], --define NAME[=VALUE]\n"
    "                            define a preprocessor macro\n"
    "  --function NAME           the kernel function (default: the only\n"
    "                            function named kernel_*)\n";

static int is_ident_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int cli_frontend_option(const char *cmd, int c, const char *arg, fe_options *opt) {
  switch (c) {
  case 'I':
    if (!arg || !*arg) {
      cli_usage_error(cmd, "-I expects a directory");
      return -1;
    }
    pipe_fe_add_include(opt, arg);
    return 1;
  case 'D':
    if (!arg || !is_ident_start(arg[0])) {
      cli_usage_error(cmd, "-D expects NAME or NAME=VALUE, not '%s'", arg ? arg : "");
      return -1;
    }
    pipe_fe_add_define(opt, arg);
    return 1;
  case CLI_FE_OPT_FUNCTION:
    if (!arg || !*arg) {
      cli_usage_error(cmd, "--function expects a function name");
      return -1;
    }
    opt->function = arg;
    return 1;
  default:
    return 0;
  }
}

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

static const char **push(const char **v, int *n, const char *s) {
  v = ir_realloc(v, sizeof *v * (size_t)(*n + 1));
  v[(*n)++] = s;
  return v;
}

int cli_frontend_option(const char *cmd, int c, const char *arg, fe_options *opt) {
  switch (c) {
  case 'I':
    if (!arg || !*arg) {
      cli_usage_error(cmd, "-I expects a directory");
      return -1;
    }
    opt->include_dirs = push(opt->include_dirs, &opt->ninclude, arg);
    return 1;
  case 'D':
    if (!arg || !is_ident_start(arg[0])) {
      cli_usage_error(cmd, "-D expects NAME or NAME=VALUE, not '%s'", arg ? arg : "");
      return -1;
    }
    opt->defines = push(opt->defines, &opt->ndefine, arg);
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

void cli_frontend_options_free(fe_options *opt) {
  ir_free(opt->include_dirs);
  ir_free(opt->defines);
  memset(opt, 0, sizeof *opt);
}

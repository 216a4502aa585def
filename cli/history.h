/* cli/history.h: the history and plan commands of `warmbox`.  Each returns
 * the process exit code (0, 1 on a read error, 2 on usage). */
#ifndef WARMBOX_CLI_HISTORY_H
#define WARMBOX_CLI_HISTORY_H

int cli_history (int argc, char **argv);
int cli_plan (int argc, char **argv);

#endif

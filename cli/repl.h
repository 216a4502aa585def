/* cli/repl.h: `warmbox repl LANGUAGE`, an interactive REPL over a session
 * (docs/api.md, "Sessions"): each entry runs in a fresh container, with
 * the files and (Python) the names the entries before it left.  The
 * session is made at start and deleted at the end (Ctrl-D); one that ends
 * meanwhile (idle, a daemon restart) is replaced, and the REPL says that
 * earlier state is gone.  Prompts (">>> ", "... ") are shown on a
 * terminal, or with WARMBOX_REPL_PROMPT set.  Returns the exit code: 0,
 * 2 on a usage error, 125 when no session could be made. */
#ifndef WARMBOX_CLI_REPL_H
#define WARMBOX_CLI_REPL_H

int cli_repl (const char *url, int argc, char **argv);

#endif

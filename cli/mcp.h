/* cli/mcp.h: `warmbox mcp`, a Model Context Protocol server on stdio.
 *
 * JSON-RPC 2.0, one message per line (the MCP stdio transport): initialize,
 * ping, tools/list, tools/call, notifications/cancelled.  One tool,
 * execute_code {language, code, stdin?, timeout_ms?}, forwarded to a
 * running warmboxd at URL so every agent shares its pools.  Each tools/call
 * runs on a thread of its own, so pings and cancellations are answered
 * while code runs.  Only JSON-RPC goes to stdout; diagnostics go to stderr.
 *
 * Returns the process exit code: 0 when the client closed stdin, 2 on a
 * usage error. */
#ifndef WARMBOX_CLI_MCP_H
#define WARMBOX_CLI_MCP_H

#include <stdio.h>

int cli_mcp (const char *url, int argc, char **argv);

/* The pieces cli_mcp is made of, for the fuzzer: set the daemon, the cap
 * and where replies go; handle one message (a line without its newline);
 * cancel the calls in flight and wait for their threads. */
void cli_mcp_init (const char *url, size_t max_output, FILE *out);
void cli_mcp_dispatch (const char *line, size_t len);
void cli_mcp_finish (void);

#endif

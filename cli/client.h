/* cli/client.h: one HTTP request from the command line tools to warmboxd.
 *
 * The daemon is a URL: unix:/path.sock or http(s)://host:port.  The token
 * of WARMBOX_TOKEN, when set, goes out as a bearer token.  Over HTTPS,
 * WARMBOX_CACERT names the CA to verify the daemon with (else the
 * system's), WARMBOX_CERT and WARMBOX_KEY a client certificate and key.  Thread-safe once
 * curl_global_init has run (each call has its own handle). */
#ifndef WARMBOX_CLI_CLIENT_H
#define WARMBOX_CLI_CLIENT_H

#include "warmbox/wb.h"

#include <stdatomic.h>
#include <stdio.h>

/* Where the daemon is by default: WARMBOX_URL, else the socket warmboxd
 * listens on by default for this user.  buf holds the answer if needed. */
const char *cli_default_url (char *buf, size_t len);

/* method path with body (may be NULL) -> the HTTP status and the reply
 * bytes, or -1 with a one-line reason in why (the daemon could not be
 * reached, or *cancel became nonzero: the transfer is then abandoned, and
 * warmboxd removes the container of a client that left). */
long cli_call_daemon (const char *url, const char *method, const char *path, const wb_buf_t *body,
                      wb_buf_t *reply, const atomic_int *cancel, char *why, size_t why_len);

/* The same with Accept: application/x-ndjson: each whole line of a
 * streamed reply goes to cb (without its newline) as it arrives; reply
 * keeps what is not a line (an error's JSON).  Same return. */
typedef void (*cli_line_cb) (void *arg, const char *line, size_t len);
long cli_call_daemon_lines (const char *url, const char *method, const char *path,
                            const wb_buf_t *body, cli_line_cb cb, void *arg, wb_buf_t *reply,
                            const atomic_int *cancel, char *why, size_t why_len);

/* A stream's text from the daemon's JSON ("utf-8", or "base64" for bytes
 * that are not UTF-8) written to `to` byte-exact, then flushed.  data
 * NULL: nothing. */
void cli_write_data (const char *data, const char *encoding, FILE *to);

#endif

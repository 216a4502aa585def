/* api/e2b_wire.h: the E2B SDK's wire formats (e2b_wire.c), apart from the
 * routes that use them (e2b.c): envd's paths, Connect's envelopes, the
 * multipart uploads of files.write, the /execute NDJSON lines and the
 * process stream's events.  Pure: no I/O, no daemon state; fuzzed
 * (tests/fuzz/fuzz_e2b.c).  docs/agents.md says what the SDK sees;
 * ../shared/reference/e2b-wire-protocol.md is the protocol as read from
 * the SDK.  Everything here is the client's or the sandbox's words:
 * untrusted, bounded, never logged. */
#ifndef WARMBOX_API_E2B_WIRE_H
#define WARMBOX_API_E2B_WIRE_H

#include "exec/exec.h"
#include "exec/session.h"
#include "warmbox/wb.h"

#define E2B_HOME "/home/user"    /* the SDK's working directory: a session's files */
#define E2B_ENVD_VERSION "0.4.0" /* multipart uploads only (octet-stream needs 0.5.7) */
#define E2B_MULTIPART_MAX 32     /* parts of one upload */

/* A path of files.* as a session file's name: "NAME", "./NAME",
 * "/home/user/NAME" (into name, 256 bytes), or the home itself ("",
 * "/home/user", "/home/user/", ".": name ""; is_home true).  -1 with err
 * (400) for anything else: a folder under the home, "..", another place
 * (a session holds only its working directory's own files). */
WB_MUST_CHECK int e2b_path_name (const char *path, char name[256], bool *is_home, wb_err_t *err);

/* A Connect request body: exactly one envelope (flags 0, 4-byte big-endian
 * length, the message), its message at *msg.  -1 with err (400): short,
 * a length past the body, trailing bytes, compressed (flag 1) or another
 * flag. */
WB_MUST_CHECK int e2b_envelope_parse (const char *body, size_t len, const char **msg,
                                      size_t *msg_len, wb_err_t *err);
/* One envelope of json onto out. */
WB_MUST_CHECK int e2b_envelope_append (wb_buf_t *out, unsigned flags, const char *json, size_t len);

/* One part of a multipart/form-data body: its field's name, its file's
 * name (NULL without one) and content, all pointing into the body. */
typedef struct e2b_part
{
  const char *field, *filename, *data;
  size_t field_len, filename_len, len;
} e2b_part_t;
/* The parts of body whose Content-Type is content_type
 * ("multipart/form-data; boundary=..."), at most max.  -1 with err (400):
 * no boundary, a part without its headers or its end, more than max. */
WB_MUST_CHECK int e2b_multipart_parse (const char *content_type, const char *body, size_t len,
                                       e2b_part_t *parts, size_t max, size_t *n, wb_err_t *err);

/* s as a JSON string of ASCII only (\uXXXX for the rest, surrogate pairs
 * past the BMP; each byte of invalid UTF-8 becomes U+FFFD): the SDK
 * decodes each network chunk on its own, so a character split across
 * two of them would be garbled. */
WB_MUST_CHECK int e2b_json_ascii (wb_buf_t *out, const char *s, size_t len);
/* How much of s ends on a whole UTF-8 character (what is left is the
 * start of one, at most 3 bytes, that the next chunk completes). */
size_t e2b_utf8_whole (const char *s, size_t len);

/* The two streams the E2B routes answer with, as they go: /execute's
 * NDJSON lines, process.Process/Start's Connect envelopes. */
typedef enum e2b_kind
{
  E2B_EXECUTE = 1,
  E2B_PROCESS,
} e2b_kind_t;

typedef struct e2b_stream
{
  e2b_kind_t kind;
  char tail[2][4]; /* /execute: a character cut at a chunk's end, per stream */
  size_t tail_len[2];
  bool notebook;      /* /execute in Python: display records come with the result */
  uint64_t pid;       /* the process's number for the SDK (the session's call) */
  bool gone_is_error; /* /execute: an unknown sandbox was 502 before the stream */
} e2b_stream_t;

/* The stream's first bytes (Connect's start event; nothing for /execute). */
WB_MUST_CHECK int e2b_stream_start (e2b_stream_t *st, wb_buf_t *out);
/* One run of the program's bytes (stream: ENG_STREAM_STDOUT or _STDERR). */
WB_MUST_CHECK int e2b_stream_chunk (e2b_stream_t *st, int stream, const char *data, size_t len,
                                    wb_buf_t *out);
/* A note for the client on stderr (chunks left out for a slow reader,
 * what a session did not keep). */
WB_MUST_CHECK int e2b_stream_note (e2b_stream_t *st, const char *text, wb_buf_t *out);
/* The stream's end: from res (with so, the session's outcome) or err. */
WB_MUST_CHECK int e2b_stream_finish (e2b_stream_t *st, const sched_result_t *res,
                                     const session_outcome_t *so, const wb_err_t *err,
                                     wb_buf_t *out);

/* A name a shell variable may have: [A-Za-z_][A-Za-z0-9_]*. */
bool e2b_env_name_ok (const char *s);

/* The records of a notebook cell's display (sched_result_t.session_display,
 * the sandbox's JSON lines) as /execute lines onto out: lines of printable
 * ASCII that are objects of type "result" or "error", as they are; the
 * rest dropped.  *errors counts the error records.  -1: no memory. */
WB_MUST_CHECK int e2b_display_lines (const char *data, size_t len, wb_buf_t *out, int *errors);

/* process.Process/Start's {"process": {"cmd", "args", "envs", "cwd"}}
 * (parsed JSON) as a bash script: the envs exported, the cwd entered (the
 * home when absent), then the command (bash -c's string as it is; any
 * other command with its arguments quoted).  env_json: the sandbox's own
 * envVars (an object, or NULL), exported first.  -1 with err (400: no
 * cmd, a name not fit for a variable, a cwd outside the home; 501 a pty). */
struct cJSON;
WB_MUST_CHECK int e2b_process_script (const struct cJSON *start, const struct cJSON *env_json,
                                      wb_buf_t *script, uint32_t *timeout_hint_ms, wb_err_t *err);

#endif

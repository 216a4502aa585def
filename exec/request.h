/* exec/request.h: an execution's input (the validated request, which owns
 * everything it points to) and the stdin frame the sandbox reads it from
 * (exec/request.c).  Pure: no I/O; fuzzed.  api/request.h parses bodies
 * into it. */
#ifndef WARMBOX_EXEC_REQUEST_H
#define WARMBOX_EXEC_REQUEST_H

#include "warmbox/profile.h"
#include "warmbox/wb.h"

#define SCHED_MAX_ARGS 256
#define SCHED_MAX_ARG_BYTES 4096
#define SCHED_MAX_ARGS_TOTAL (64 * 1024)
#define SCHED_MAX_FILES 64
#define SCHED_MAX_FILE_NAME 255                  /* bytes, as a file system's */
#define SCHED_MAX_FILES_BYTES (16 * 1024 * 1024) /* contents, all files together */
/* A notebook call's display records back from the sandbox (.warmbox-display:
 * figures, the last expression's value, the error), at most. */
#define SCHED_DISPLAY_MAX (8 * 1024 * 1024 + 4096)

/* A file the program finds in its working directory.  Owns both. */
typedef struct sched_file
{
  char *name; /* validated: see sched_file_name_valid */
  char *data;
  size_t len;
  char sha256[65]; /* of data, hex: computed once, at parse */
} sched_file_t;

/* A validated execution request.  Owns every pointer. */
typedef struct sched_request
{
  const prof_t *profile; /* borrowed from the daemon's profile set */
  char client[65];       /* the token's name, "" without tokens */
  char *code;
  size_t code_len;
  char *stdin_data;
  size_t stdin_len;
  char **args;
  size_t n_args;
  sched_file_t *files;
  size_t n_files;
  size_t files_bytes;   /* their contents together */
  char *filename;       /* the program's own file name ("filename"), or NULL: the
                           language's default; checked by sched_program_name_check */
  prof_limits_t limits; /* profile defaults with the request's overrides */
  bool combined_output; /* the result gets "output": stdout and stderr as they came */
  /* A session's execution (exec/session.c sets these; "" and 0 for the
   * others).  session_state_max > 0 asks the init for the trailer's
   * session section, the state whole up to that many bytes; the files
   * come back within files_out_bytes (0: limits.output_bytes). */
  /* The client streams the output (Accept: application/x-ndjson): each
   * run of bytes the program writes, within the caps, as it comes (never
   * the init's marks or report).  Borrowed: the execution forgets it when
   * cancelled (exec.h).  NULL: the output comes with the result only. */
  void (*stream_cb) (void *arg, int stream, const char *data, size_t len);
  void *stream_arg;
  /* A notebook call (E2B's runCode; a session's, of a profile with
   * session_state): the bootstrap's .warmbox-notebook file, JSON
   * {"env":{...}} (owned), that has it run the code as a notebook cell
   * and leave display records (sched_result_t.session_display).  NULL:
   * a plain program. */
  char *notebook;
  size_t notebook_len;
  char session_id[80]; /* SESSION_ID_LEN + 1 at most */
  uint64_t session_seq;
  uint64_t session_state_max;
  uint64_t files_out_bytes;
} sched_request_t;

/* Free what the request owns, wiping code, args, files and stdin first.
 * A cleared request may be cleared again. */
void sched_request_clear (sched_request_t *req);
/* A file name a program may be given: 1 to SCHED_MAX_FILE_NAME bytes of
 * UTF-8, no '/', no control characters (NUL, newline ...), not "." or
 * "..".  So it names a file in the working directory and nothing else. */
bool sched_file_name_valid (const char *name, size_t len);

/* May name be the program's own file (request field `field`, for the
 * message) in profile p?  A plain file name (sched_file_name_valid) not
 * starting with '.' (the sandbox's own dot-files: caches, TypeScript's
 * output) or '-' (an option to the command it goes into), with one of the
 * profile's suffixes and none of its refused patterns; never for a
 * profile whose code's class names the file (Java).  -1 with a 400 in err
 * otherwise. */
WB_MUST_CHECK int sched_program_name_check (const prof_t *p, const char *name, const char *field,
                                            wb_err_t *err);

/* One hash for the history over files' names and contents: the SHA-256 of,
 * file by file in order, the hex SHA-256 of its name followed by the hex
 * SHA-256 of its content (its sha256, set at parse).  Can't fail. */
void sched_files_sha256 (const sched_file_t *files, size_t n_files, char out[65]);
/* The same hash from each file's name and the hex SHA-256 of its content. */
void sched_files_sha256_of (const char *const *names, const char *const *content_hex, size_t n,
                            char out[65]);

/* The stdin frame of DESIGN.md step 4, with the program's own file name,
 * arguments and files:
 *   "[n<program name length> ]<code length>[ <arg length>...][ f<name length>:<size>...]\n"
 *   "[<program name>]<code><arg>...<name><content>...<stdin>"
 * (without a name, args and files it is exactly "<len>\n<code><stdin>").
 * The name, arguments and files travel in the frame, not in the
 * container's command or a copy into the container, so such a request can
 * take a pooled container; the bootstrap (or the init) writes the files
 * into the working directory before the program runs.  Lengths are decimal
 * byte counts; the header is at most SCHED_FRAME_HEADER_MAX bytes.
 * code_name NULL: no name (the language's default). */
#define SCHED_FRAME_HEADER_MAX 4096
WB_MUST_CHECK int sched_frame_build (const char *code_name, const char *code, size_t code_len,
                                     char *const *args, size_t n_args, const sched_file_t *files,
                                     size_t n_files, const char *in, size_t in_len, wb_buf_t *out);

typedef struct sched_frame
{
  size_t code_name_off, code_name_len; /* the program's file name; length 0: none */
  size_t code_off, code_len;
  size_t n_args;
  size_t arg_off[SCHED_MAX_ARGS]; /* each argument's bytes */
  size_t arg_len[SCHED_MAX_ARGS];
  size_t n_files;
  size_t name_off[SCHED_MAX_FILES], name_len[SCHED_MAX_FILES];
  size_t file_off[SCHED_MAX_FILES], file_len[SCHED_MAX_FILES];
  size_t stdin_off; /* where the program's own stdin begins */
} sched_frame_t;

/* Inverse, for tests and fuzzing: 1 with f filled, 0 if incomplete, -1 if
 * malformed (not digits, more than SCHED_MAX_ARGS arguments or
 * SCHED_MAX_FILES files, an argument after a file, a name of length 0 or
 * past SCHED_MAX_FILE_NAME, a header too long). */
WB_MUST_CHECK int sched_frame_parse (const char *buf, size_t len, sched_frame_t *f);

#endif

/* warmbox shared helpers: errors, logging, byte buffers, cleanup attributes.
 *
 * Every module uses these and nothing else for the three concerns.  The
 * conventions (borrowed from crun):
 *   - a fallible function returns int, < 0 on error, and takes a trailing
 *     wb_err_t *err that it fills with a code and a message built where the
 *     failure happened;
 *   - callers add context with wb_err_wrap() on the way up;
 *   - foreign error codes (CURLcode, sqlite rc, -errno of libseccomp, a NULL
 *     from cJSON) are converted once, in the module that calls that library.
 */
#ifndef WARMBOX_WB_H
#define WARMBOX_WB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WB_LIKELY(x) __builtin_expect (!!(x), 1)
#define WB_UNLIKELY(x) __builtin_expect (!!(x), 0)
#define WB_ARRAY_SIZE(a) (sizeof (a) / sizeof ((a)[0]))
/* On a function that can fail: a caller that drops its result does not
 * build (warnings are errors).  GCC ignores a cast to void here; a result
 * dropped on purpose is tested and the reason written beside it. */
#define WB_MUST_CHECK __attribute__ ((warn_unused_result))

/* ---- errors ---------------------------------------------------------- */

/* What went wrong, in the terms an API client may see.  The scheduler maps
 * each code to one HTTP status; the message of an engine error is for the
 * daemon's log only (it may carry image names or engine versions). */
typedef enum wb_code
{
  WB_OK = 0,
  WB_E_INVALID,         /* malformed or out-of-range input (400) */
  WB_E_NOT_FOUND,       /* unknown language, id, path (404) */
  WB_E_TOO_LARGE,       /* body or code over its cap (413) */
  WB_E_BUSY,            /* capacity exhausted, retry later (503) */
  WB_E_ENGINE_DOWN,     /* the container engine cannot be reached (503) */
  WB_E_ENGINE,          /* the engine answered with an error (502) */
  WB_E_NOMEM,           /* allocation failed (500) */
  WB_E_IO,              /* local I/O failed (500) */
  WB_E_INTERNAL,        /* a bug or an unexpected state (500) */
  WB_E_CANCELLED,       /* the operation was abandoned (client gone, shutdown) */
  WB_E_UNAUTHORIZED,    /* no valid API token (401) */
  WB_E_RATE_LIMITED,    /* the token's rate or concurrency limit (429) */
  WB_E_SESSION_EXPIRED, /* a session this daemon gave out has ended (410) */
  WB_E_UNSUPPORTED,     /* a feature warmbox does not have (501) */
  WB_E_FORBIDDEN,       /* credentials or an origin not allowed there (403) */
  WB_E_MISDIRECTED,     /* a Host this listener does not answer for (421) */
  WB_E_MEDIA_TYPE,      /* a body of a media type the route does not read (415) */
} wb_code_t;

typedef struct wb_err
{
  wb_code_t code;
  int engine_status; /* HTTP status the engine returned, 0 if none */
  char msg[512];
} wb_err_t;

/* Fill *err (if not NULL) and return -1.  Never fails. */
int wb_error (wb_err_t *err, wb_code_t code, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));
/* Same, appending ": strerror(errnum)". */
int wb_error_errno (wb_err_t *err, wb_code_t code, int errnum, const char *fmt, ...)
    __attribute__ ((format (printf, 4, 5)));
/* Prefix the message with context ("creating container: ...").  Returns -1. */
int wb_err_wrap (wb_err_t *err, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
/* Short stable name of a code, e.g. "invalid_request".  Never NULL. */
const char *wb_code_name (wb_code_t code);
/* The HTTP status that code maps to.  Never fails. */
int wb_code_http_status (wb_code_t code);

/* ---- logging --------------------------------------------------------- */

/* One line per call on stderr: time, level, function, message.  Never pass
 * user code, stdin, output or tokens to these. */
typedef enum wb_log_level
{
  WB_LOG_DEBUG = 0,
  WB_LOG_INFO,
  WB_LOG_WARN,
  WB_LOG_ERROR,
} wb_log_level_t;

void wb_log_set_level (wb_log_level_t level);
wb_log_level_t wb_log_get_level (void);
void wb_log_at (wb_log_level_t level, const char *func, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

#define wb_debug(...)                                                                              \
  do                                                                                               \
    {                                                                                              \
      if (wb_log_get_level () <= WB_LOG_DEBUG)                                                     \
        wb_log_at (WB_LOG_DEBUG, __func__, __VA_ARGS__);                                           \
    }                                                                                              \
  while (0)
#define wb_info(...) wb_log_at (WB_LOG_INFO, __func__, __VA_ARGS__)
#define wb_warn(...) wb_log_at (WB_LOG_WARN, __func__, __VA_ARGS__)
#define wb_log_error(...) wb_log_at (WB_LOG_ERROR, __func__, __VA_ARGS__)

/* ---- byte buffers ---------------------------------------------------- */

/* A growable byte string, always NUL-terminated past len (so it can be
 * handed to C string APIs when it holds text).  Owns data. */
typedef struct wb_buf
{
  char *data;
  size_t len;
  size_t cap;
} wb_buf_t;

#define WB_BUF_INIT                                                                                \
  {                                                                                                \
    NULL, 0, 0                                                                                     \
  }

/* Append; on allocation failure returns -1 and leaves the buffer unaltered. */
WB_MUST_CHECK int wb_buf_append (wb_buf_t *b, const void *data, size_t len);
WB_MUST_CHECK int wb_buf_append_str (wb_buf_t *b, const char *s);
WB_MUST_CHECK int wb_buf_printf (wb_buf_t *b, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));
/* Make room for n more bytes; -1 on allocation failure. */
WB_MUST_CHECK int wb_buf_reserve (wb_buf_t *b, size_t n);
/* Drop the first n bytes (n <= len).  Can't fail. */
void wb_buf_consume (wb_buf_t *b, size_t n);
void wb_buf_reset (wb_buf_t *b);
void wb_buf_free (wb_buf_t *b);
/* Hand over ownership of the data (NUL-terminated, never NULL unless
 * allocation failed); the buffer is left empty. */
char *wb_buf_steal (wb_buf_t *b);

/* ---- intrusive lists ---------------------------------------------------- */

/* A doubly linked list threaded through `prev` and `next` fields of the
 * nodes, with a head pointer.  The list owns nothing.  Can't fail. */
#define WB_LIST_PUSH(head, node)                                                                   \
  do                                                                                               \
    {                                                                                              \
      (node)->prev = NULL;                                                                         \
      (node)->next = (head);                                                                       \
      if (head)                                                                                    \
        (head)->prev = (node);                                                                     \
      (head) = (node);                                                                             \
    }                                                                                              \
  while (0)
#define WB_LIST_UNLINK(head, node)                                                                 \
  do                                                                                               \
    {                                                                                              \
      if ((node)->prev)                                                                            \
        (node)->prev->next = (node)->next;                                                         \
      else                                                                                         \
        (head) = (node)->next;                                                                     \
      if ((node)->next)                                                                            \
        (node)->next->prev = (node)->prev;                                                         \
      (node)->prev = (node)->next = NULL;                                                          \
    }                                                                                              \
  while (0)

/* ---- JSON and text helpers ------------------------------------------- */

/* Append s[0..len) as a JSON string literal (quotes included), escaping
 * control characters, quotes, backslashes and NUL as \u0000.  The input must
 * be valid UTF-8 (check with wb_utf8_valid); -1 on allocation failure. */
WB_MUST_CHECK int wb_json_append_string (wb_buf_t *b, const char *s, size_t len);
/* True when s[0..len) is well-formed UTF-8 (no overlongs, no surrogates). */
bool wb_utf8_valid (const char *s, size_t len);
/* Append at most max bytes of s[0..len) as valid UTF-8: a byte that starts
 * no well-formed character becomes U+FFFD, and the cut falls between
 * characters.  With nul_visible, NUL becomes the two characters \0 (for
 * text that goes through C strings).  Returns how many bytes of s were
 * consumed, or (size_t) -1 on allocation failure. */
WB_MUST_CHECK size_t wb_utf8_sanitize (wb_buf_t *out, const char *s, size_t len, size_t max,
                                       bool nul_visible);
/* Standard base64 with padding.  -1 on allocation failure / bad input. */
WB_MUST_CHECK int wb_base64_encode (wb_buf_t *out, const void *data, size_t len);
WB_MUST_CHECK int wb_base64_decode (wb_buf_t *out, const char *s, size_t len);
/* The value of one hex digit (either case), or -1. */
int wb_hex_digit (char c);
/* Append the bytes of hex digits s[0..len) (either case); -1 when len is
 * odd, a character is not a hex digit, or memory runs out. */
WB_MUST_CHECK int wb_hex_decode (wb_buf_t *out, const char *s, size_t len);
/* Keep this process's memory off the disk: no core file (RLIMIT_CORE 0,
 * soft and hard) and not dumpable (PR_SET_DUMPABLE 0: no core, no ptrace
 * or /proc/PID/mem from other users).  For warmboxd and warmbox-oci,
 * which hold sessions' state and users' code.  -1 with err when the
 * kernel refuses either. */
WB_MUST_CHECK int wb_no_core_dumps (wb_err_t *err);
/* Lower-case hex SHA-256 of data into out[65].  Can't fail. */
void wb_sha256_hex (const void *data, size_t len, char out[65]);
/* Random lower-case hex of 2*nbytes chars into out (NUL-terminated);
 * -1 if the kernel's random source fails. */
WB_MUST_CHECK int wb_random_hex (char *out, size_t nbytes);
/* 0 when path is a directory only root or this process's user can change:
 * it and every folder above it owned by root or the effective user, none
 * writable by group or others (not even a sticky one such as /tmp: anyone
 * may create there a name that was removed).  Symbolic links are resolved
 * first; the resolved path is written to resolved (size bytes): use it,
 * not path, from then on.  -1 with err naming the folder and why. */
WB_MUST_CHECK int wb_dir_trusted (const char *path, char *resolved, size_t size, wb_err_t *err);
/* mkdir -p: the missing folders above path (mode 0755) and path itself
 * (mode, when it is made; an existing one is left as it is).  -1 with
 * errno set. */
WB_MUST_CHECK int wb_mkdir_p (const char *path, unsigned mode);
/* Monotonic clock in milliseconds / microseconds. */
uint64_t wb_now_ms (void);
uint64_t wb_now_us (void);

/* ---- cleanup attributes ---------------------------------------------- */

static inline void
wb_cleanup_freep (void *p)
{
  free (*(void **) p);
}
static inline void
wb_cleanup_closep (int *fd)
{
  if (*fd >= 0)
    close (*fd);
}
static inline void
wb_cleanup_bufp (wb_buf_t *b)
{
  wb_buf_free (b);
}
static inline void
wb_cleanup_filep (FILE **f)
{
  if (*f)
    fclose (*f);
}

#define cleanup_free __attribute__ ((cleanup (wb_cleanup_freep)))
#define cleanup_close __attribute__ ((cleanup (wb_cleanup_closep)))
#define cleanup_buf __attribute__ ((cleanup (wb_cleanup_bufp)))
#define cleanup_file __attribute__ ((cleanup (wb_cleanup_filep)))

#endif

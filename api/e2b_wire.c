/* api/e2b_wire.c: the E2B SDK's wire formats.  See e2b_wire.h. */
#define _GNU_SOURCE
#include "api/e2b_wire.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- paths ----------------------------------------------------------- */

int
e2b_path_name (const char *path, char name[256], bool *is_home, wb_err_t *err)
{
  const char *p = path ? path : "";
  size_t home = strlen (E2B_HOME);

  *is_home = false;
  name[0] = '\0';
  if (strncmp (p, E2B_HOME, home) == 0 && (p[home] == '\0' || p[home] == '/'))
    p += home;
  else if (p[0] == '/')
    return wb_error (err, WB_E_INVALID,
                     "%s is outside %s: a sandbox's files are its working directory's, %s", path,
                     E2B_HOME, E2B_HOME);
  while (p[0] == '/' || (p[0] == '.' && p[1] == '/'))
    p += p[0] == '/' ? 1 : 2;
  size_t len = strlen (p);
  while (len && p[len - 1] == '/')
    len--;
  if (len == 0 || (len == 1 && p[0] == '.'))
    {
      *is_home = true;
      return 0;
    }
  if (len > 255 || memchr (p, '/', len) || !sched_file_name_valid (p, len)
      || strncmp (p, ".warmbox-", 9) == 0)
    return wb_error (err, WB_E_INVALID,
                     "%.*s is not a file a sandbox holds: warmbox keeps the files directly in "
                     "%s (no folders under it, no \"..\", no .warmbox-* names)",
                     (int) (len > 300 ? 300 : len), p, E2B_HOME);
  memcpy (name, p, len);
  name[len] = '\0';
  return 0;
}

/* ---- Connect envelopes ----------------------------------------------- */

int
e2b_envelope_parse (const char *body, size_t len, const char **msg, size_t *msg_len, wb_err_t *err)
{
  const unsigned char *b = (const unsigned char *) body;

  if (len < 5)
    return wb_error (err, WB_E_INVALID,
                     "a Connect request is one envelope: 5 bytes, then the "
                     "message");
  if (b[0] & 1)
    return wb_error (err, WB_E_INVALID, "compressed Connect messages are not accepted");
  if (b[0] != 0)
    return wb_error (err, WB_E_INVALID, "an envelope with flags 0x%02x is not a request's", b[0]);
  uint64_t n = ((uint64_t) b[1] << 24) | ((uint64_t) b[2] << 16) | ((uint64_t) b[3] << 8) | b[4];
  if (n != len - 5)
    return wb_error (err, WB_E_INVALID,
                     "the envelope says %llu bytes and %zu follow it: one whole envelope, please",
                     (unsigned long long) n, len - 5);
  *msg = body + 5;
  *msg_len = (size_t) n;
  return 0;
}

int
e2b_envelope_append (wb_buf_t *out, unsigned flags, const char *json, size_t len)
{
  unsigned char head[5]
      = {(unsigned char) flags, (unsigned char) (len >> 24), (unsigned char) (len >> 16),
         (unsigned char) (len >> 8), (unsigned char) len};
  if (wb_buf_append (out, head, 5) < 0 || wb_buf_append (out, json, len) < 0)
    return -1;
  return 0;
}

/* ---- multipart/form-data ----------------------------------------------- */

static const char *
find_bytes (const char *hay, size_t n, const char *needle, size_t m)
{
  return m == 0 || n < m ? NULL : memmem (hay, n, needle, m);
}

/* The value of param (e.g. name=, filename=) in a header line, quoted or
 * not; never a look-alike inside another parameter's quoted value
 * (name="a filename=b"). */
static bool
header_param (const char *h, size_t n, const char *param, const char **v, size_t *vlen)
{
  size_t plen = strlen (param);
  bool quoted = false;
  for (size_t i = 0; i + plen < n; i++)
    {
      if (h[i] == '"')
        quoted = !quoted;
      if (quoted || strncasecmp (h + i, param, plen) != 0
          || (i && h[i - 1] != ' ' && h[i - 1] != ';'))
        continue;
      const char *s = h + i + plen;
      const char *end = h + n;
      if (s < end && *s == '"')
        {
          const char *q = memchr (s + 1, '"', (size_t) (end - s - 1));
          if (q == NULL)
            return false;
          *v = s + 1;
          *vlen = (size_t) (q - s - 1);
          return true;
        }
      const char *e = s;
      while (e < end && *e != ';' && *e != ' ')
        e++;
      *v = s;
      *vlen = (size_t) (e - s);
      return true;
    }
  return false;
}

int
e2b_multipart_parse (const char *content_type, const char *body, size_t len, e2b_part_t *parts,
                     size_t max, size_t *n, wb_err_t *err)
{
  const char *bnd;
  size_t blen;
  char delim[80];

  *n = 0;
  if (content_type == NULL || strncasecmp (content_type, "multipart/form-data", 19) != 0
      || !header_param (content_type, strlen (content_type), "boundary=", &bnd, &blen) || blen == 0
      || blen > 70)
    return wb_error (err, WB_E_INVALID,
                     "an upload is multipart/form-data with a boundary (files.write's)");
  int dl = snprintf (delim, sizeof delim, "--%.*s", (int) blen, bnd);
  const char *p = find_bytes (body, len, delim, (size_t) dl);
  const char *end = body + len;
  if (p == NULL)
    return wb_error (err, WB_E_INVALID, "the upload has no part");
  p += dl;
  for (;;)
    {
      if (end - p >= 2 && p[0] == '-' && p[1] == '-')
        return 0; /* the closing delimiter */
      if (end - p < 2 || p[0] != '\r' || p[1] != '\n')
        return wb_error (err, WB_E_INVALID, "a part's delimiter is not followed by a line end");
      p += 2;
      const char *hend = find_bytes (p, (size_t) (end - p), "\r\n\r\n", 4);
      if (hend == NULL)
        return wb_error (err, WB_E_INVALID, "a part's headers do not end");
      if (*n == max)
        return wb_error (err, WB_E_INVALID, "an upload has at most %zu parts", max);
      e2b_part_t *part = &parts[*n];
      memset (part, 0, sizeof *part);
      for (const char *line = p; line < hend;)
        {
          const char *le = find_bytes (line, (size_t) (hend - line), "\r\n", 2);
          if (le == NULL)
            le = hend;
          if ((size_t) (le - line) > 20 && strncasecmp (line, "Content-Disposition:", 20) == 0)
            {
              (void) header_param (line, (size_t) (le - line), "name=", &part->field,
                                   &part->field_len);
              if (!header_param (line, (size_t) (le - line), "filename=", &part->filename,
                                 &part->filename_len))
                part->filename = NULL;
            }
          line = le + 2;
        }
      p = hend + 4;
      char next[84];
      int nl = snprintf (next, sizeof next, "\r\n%s", delim);
      const char *q = find_bytes (p, (size_t) (end - p), next, (size_t) nl);
      if (q == NULL)
        return wb_error (err, WB_E_INVALID, "a part of the upload does not end");
      if (part->field == NULL)
        return wb_error (err, WB_E_INVALID, "a part of the upload has no form-data name");
      part->data = p;
      part->len = (size_t) (q - p);
      (*n)++;
      p = q + nl;
    }
}

/* ---- JSON of ASCII only ------------------------------------------------ */

/* The code point at s (of n bytes, at least 1), its length in *used; -1
 * (and *used 1) for a byte that does not start a valid character. */
static long
utf8_decode (const unsigned char *s, size_t n, size_t *used)
{
  size_t need;
  long cp;

  *used = 1;
  if (s[0] < 0x80)
    return s[0];
  if (s[0] >= 0xc2 && s[0] <= 0xdf)
    need = 1, cp = s[0] & 0x1f;
  else if (s[0] >= 0xe0 && s[0] <= 0xef)
    need = 2, cp = s[0] & 0x0f;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4)
    need = 3, cp = s[0] & 0x07;
  else
    return -1;
  if (n <= need)
    return -1;
  for (size_t k = 1; k <= need; k++)
    {
      if ((s[k] & 0xc0) != 0x80)
        return -1;
      cp = (cp << 6) | (s[k] & 0x3f);
    }
  if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff))
      || (cp >= 0xd800 && cp <= 0xdfff))
    return -1;
  *used = need + 1;
  return cp;
}

int
e2b_json_ascii (wb_buf_t *out, const char *s, size_t len)
{
  const unsigned char *u = (const unsigned char *) s;
  int bad = wb_buf_append (out, "\"", 1);

  for (size_t i = 0; i < len && bad == 0;)
    {
      size_t used;
      long cp = utf8_decode (u + i, len - i, &used);
      i += used;
      if (cp < 0)
        cp = 0xfffd;
      if (cp == '"' || cp == '\\')
        bad |= wb_buf_printf (out, "\\%c", (int) cp);
      else if (cp == '\n')
        bad |= wb_buf_append (out, "\\n", 2);
      else if (cp == '\t')
        bad |= wb_buf_append (out, "\\t", 2);
      else if (cp == '\r')
        bad |= wb_buf_append (out, "\\r", 2);
      else if (cp >= 0x20 && cp < 0x7f)
        {
          char c = (char) cp;
          bad |= wb_buf_append (out, &c, 1);
        }
      else if (cp < 0x10000)
        bad |= wb_buf_printf (out, "\\u%04lx", cp);
      else
        bad |= wb_buf_printf (out, "\\u%04lx\\u%04lx", 0xd800 + ((cp - 0x10000) >> 10),
                              0xdc00 + ((cp - 0x10000) & 0x3ff));
    }
  bad |= wb_buf_append (out, "\"", 1);
  return bad < 0 ? -1 : 0;
}

size_t
e2b_utf8_whole (const char *s, size_t len)
{
  const unsigned char *u = (const unsigned char *) s;
  /* Back over at most 3 continuation bytes to a lead byte; keep it and
   * what follows when they are fewer than it needs. */
  for (size_t back = 1; back <= 4 && back <= len; back++)
    {
      unsigned char c = u[len - back];
      if ((c & 0xc0) == 0x80)
        continue;
      /* (0xc0, 0xc1 and 0xf5 to 0xff lead nothing: kept as they are.) */
      size_t need = c >= 0xf0 && c <= 0xf4   ? 4
                    : c >= 0xe0 && c <= 0xef ? 3
                    : c >= 0xc2 && c <= 0xdf ? 2
                                             : 1;
      return back < need ? len - back : len;
    }
  return len;
}

/* ---- the streams ------------------------------------------------------ */

static int
timestamp_json (wb_buf_t *out)
{
  struct timespec ts;
  struct tm tm;
  char buf[40];

  clock_gettime (CLOCK_REALTIME, &ts);
  gmtime_r (&ts.tv_sec, &tm);
  strftime (buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return wb_buf_printf (out, ",\"timestamp\":\"%s.%06ldZ\"", buf, ts.tv_nsec / 1000);
}

static int
execute_line (wb_buf_t *out, int stream, const char *text, size_t len)
{
  int bad = wb_buf_printf (
      out, "{\"type\":\"%s\",\"text\":", stream == ENG_STREAM_STDOUT ? "stdout" : "stderr");
  bad |= e2b_json_ascii (out, text, len);
  bad |= timestamp_json (out);
  bad |= wb_buf_append_str (out, "}\n");
  return bad < 0 ? -1 : 0;
}

static int
process_data (wb_buf_t *out, int stream, const char *data, size_t len)
{
  cleanup_buf wb_buf_t msg = WB_BUF_INIT;
  int bad = wb_buf_printf (&msg, "{\"event\":{\"data\":{\"%s\":\"",
                           stream == ENG_STREAM_STDOUT ? "stdout" : "stderr");
  bad |= wb_base64_encode (&msg, data, len);
  bad |= wb_buf_append_str (&msg, "\"}}}");
  if (bad < 0)
    return -1;
  return e2b_envelope_append (out, 0, msg.data, msg.len);
}

int
e2b_stream_start (e2b_stream_t *st, wb_buf_t *out)
{
  char msg[80];
  if (st->kind != E2B_PROCESS)
    return 0;
  int n = snprintf (msg, sizeof msg, "{\"event\":{\"start\":{\"pid\":%llu}}}",
                    (unsigned long long) st->pid);
  return e2b_envelope_append (out, 0, msg, (size_t) n);
}

int
e2b_stream_chunk (e2b_stream_t *st, int stream, const char *data, size_t len, wb_buf_t *out)
{
  int i = stream == ENG_STREAM_STDOUT ? 0 : 1;
  cleanup_buf wb_buf_t joined = WB_BUF_INIT;

  if (st->kind == E2B_PROCESS)
    return len ? process_data (out, stream, data, len) : 0;
  /* A character cut at the chunk's end waits for the next one. */
  if (wb_buf_append (&joined, st->tail[i], st->tail_len[i]) < 0
      || wb_buf_append (&joined, data, len) < 0)
    return -1;
  size_t whole = e2b_utf8_whole (joined.data, joined.len);
  st->tail_len[i] = joined.len - whole;
  memcpy (st->tail[i], joined.data + whole, st->tail_len[i]);
  return whole ? execute_line (out, stream, joined.data, whole) : 0;
}

int
e2b_stream_note (e2b_stream_t *st, const char *text, wb_buf_t *out)
{
  cleanup_buf wb_buf_t line = WB_BUF_INIT;
  if (wb_buf_printf (&line, "warmbox: %s\n", text) < 0)
    return -1;
  return st->kind == E2B_PROCESS ? process_data (out, ENG_STREAM_STDERR, line.data, line.len)
                                 : execute_line (out, ENG_STREAM_STDERR, line.data, line.len);
}

static bool
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static bool
is_hex (char c)
{
  return is_digit (c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Each number and \u escape of s (a line cJSON parsed) as JSON's grammar
 * has them: cJSON takes some that JSON.parse refuses ("01", "1.", "-.5";
 * "\u0`1e" as U+0000). */
static bool
json_tokens_strict (const char *s, size_t len)
{
  size_t i = 0;
  while (i < len)
    {
      if (s[i] == '"')
        {
          for (i++; i < len && s[i] != '"'; i++)
            if (s[i] == '\\' && ++i < len && s[i] == 'u')
              {
                if (len - i <= 4 || !is_hex (s[i + 1]) || !is_hex (s[i + 2]) || !is_hex (s[i + 3])
                    || !is_hex (s[i + 4]))
                  return false;
                i += 4;
              }
          i++;
          continue;
        }
      if (s[i] != '-' && !is_digit (s[i]))
        {
          i++; /* punctuation, spaces, true, false, null */
          continue;
        }
      if (s[i] == '-')
        i++;
      if (i < len && s[i] == '0')
        i++;
      else if (i < len && is_digit (s[i]))
        while (i < len && is_digit (s[i]))
          i++;
      else
        return false;
      if (i < len && s[i] == '.')
        {
          if (++i == len || !is_digit (s[i]))
            return false;
          while (i < len && is_digit (s[i]))
            i++;
        }
      if (i < len && (s[i] == 'e' || s[i] == 'E'))
        {
          if (++i < len && (s[i] == '+' || s[i] == '-'))
            i++;
          if (i == len || !is_digit (s[i]))
            return false;
          while (i < len && is_digit (s[i]))
            i++;
        }
      if (i < len && (is_digit (s[i]) || s[i] == '.'))
        return false; /* "01", "0.5.1" */
    }
  return true;
}

int
e2b_display_lines (const char *data, size_t len, wb_buf_t *out, int *errors)
{
  const char *p = data, *end = data + len;

  *errors = 0;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      const char *le = nl ? nl : end;
      bool ascii = le > p;
      for (const char *c = p; c < le; c++)
        if ((unsigned char) *c < 0x20 || (unsigned char) *c >= 0x7f)
          ascii = false;
      /* Sent as the bootstrap wrote it (json.dumps: ASCII, escapes for the
       * rest) once it is one line of printable ASCII that is an object of
       * a type the SDK reads; anything else is dropped (a line cJSON
       * cannot parse, for want of memory too). */
      const char *rec_end = NULL;
      cJSON *rec = ascii ? cJSON_ParseWithLengthOpts (p, (size_t) (le - p), &rec_end, false) : NULL;
      /* One value and nothing after it but spaces, its numbers and
       * escapes JSON's (JSON.parse refuses the rest: "{...} x", "{...}}",
       * 01, "\u0`1e"). */
      while (rec && rec_end < le && *rec_end == ' ')
        rec_end++;
      if (rec && (rec_end != le || !json_tokens_strict (p, (size_t) (le - p))))
        {
          cJSON_Delete (rec);
          rec = NULL;
        }
      const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (rec, "type"));
      if (cJSON_IsObject (rec) && type
          && (strcmp (type, "result") == 0 || strcmp (type, "error") == 0))
        {
          if (wb_buf_append (out, p, (size_t) (le - p)) < 0 || wb_buf_append (out, "\n", 1) < 0)
            {
              cJSON_Delete (rec);
              return -1;
            }
          *errors += strcmp (type, "error") == 0;
        }
      cJSON_Delete (rec);
      p = nl ? nl + 1 : end;
    }
  return 0;
}

static int
execute_error (wb_buf_t *out, const char *name, const char *value, const char *traceback,
               size_t traceback_len)
{
  int bad = wb_buf_append_str (out, "{\"type\":\"error\",\"name\":");
  bad |= e2b_json_ascii (out, name, strlen (name));
  bad |= wb_buf_append_str (out, ",\"value\":");
  bad |= e2b_json_ascii (out, value, strlen (value));
  bad |= wb_buf_append_str (out, ",\"traceback\":");
  bad |= e2b_json_ascii (out, traceback, traceback_len);
  bad |= wb_buf_append_str (out, "}\n");
  return bad < 0 ? -1 : 0;
}

/* The last non-empty line of s (a traceback's, an error message's). */
static void
last_line (const char *s, size_t len, const char **line, size_t *line_len)
{
  while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
    len--;
  const char *start = s + len;
  while (start > s && start[-1] != '\n')
    start--;
  *line = start;
  *line_len = (size_t) (s + len - start);
}

static const char *
status_words (const sched_result_t *res)
{
  switch (res->status)
    {
    case SCHED_ST_TIMEOUT:
      return "the run passed its time limit and was stopped";
    case SCHED_ST_OOM:
      return "the run passed its memory limit and was killed";
    case SCHED_ST_OUTPUT_LIMIT:
      return "the run passed its output limit and was stopped";
    case SCHED_ST_COMPILE_ERROR:
      return "the program did not compile";
    default:
      return "the sandbox failed while the program ran";
    }
}

static const char *
status_error_name (const sched_result_t *res)
{
  switch (res->status)
    {
    case SCHED_ST_TIMEOUT:
      return "TimeoutError";
    case SCHED_ST_OOM:
      return "MemoryError";
    case SCHED_ST_OUTPUT_LIMIT:
      return "OutputLimitError";
    case SCHED_ST_COMPILE_ERROR:
      return "CompileError";
    default:
      return "SandboxError";
    }
}

/* Connect's code for an error that ended a call before its process did. */
static const char *
connect_code (wb_code_t code)
{
  switch (code)
    {
    case WB_E_INVALID:
      return "invalid_argument";
    case WB_E_NOT_FOUND:
    case WB_E_SESSION_EXPIRED:
      return "not_found";
    case WB_E_TOO_LARGE:
      return "resource_exhausted";
    case WB_E_BUSY:
    case WB_E_ENGINE_DOWN:
    case WB_E_RATE_LIMITED:
      return "unavailable";
    case WB_E_UNAUTHORIZED:
      return "unauthenticated";
    case WB_E_CANCELLED:
      return "canceled";
    default:
      return "internal";
    }
}

static int
end_stream_error (wb_buf_t *out, const char *code, const char *message)
{
  cleanup_buf wb_buf_t msg = WB_BUF_INIT;
  int bad = wb_buf_printf (&msg, "{\"error\":{\"code\":\"%s\",\"message\":", code);
  bad |= e2b_json_ascii (&msg, message, strlen (message));
  bad |= wb_buf_append_str (&msg, "}}");
  if (bad < 0)
    return -1;
  return e2b_envelope_append (out, 2, msg.data, msg.len);
}

static int
finish_process (e2b_stream_t *st, const sched_result_t *res, const wb_err_t *err, wb_buf_t *out)
{
  char msg[256];
  int n;

  (void) st;
  if (res == NULL)
    return end_stream_error (out, connect_code (err->code), err->msg);
  if (res->status == SCHED_ST_TIMEOUT)
    return end_stream_error (out, "deadline_exceeded",
                             "the command passed its time limit and was stopped");
  if (res->status == SCHED_ST_OK)
    {
      if (res->exit_code == 0)
        n = snprintf (msg, sizeof msg,
                      "{\"event\":{\"end\":{\"exitCode\":0,\"exited\":true,\"status\":\"exit "
                      "status 0\"}}}");
      else
        n = snprintf (msg, sizeof msg,
                      "{\"event\":{\"end\":{\"exitCode\":%d,\"exited\":true,\"status\":\"exit "
                      "status %d\",\"error\":\"exit status %d\"}}}",
                      res->exit_code, res->exit_code, res->exit_code);
    }
  else
    n = snprintf (msg, sizeof msg,
                  "{\"event\":{\"end\":{\"exitCode\":-1,\"exited\":false,\"status\":\"signal: "
                  "killed\",\"error\":\"%s\"}}}",
                  status_words (res));
  if (e2b_envelope_append (out, 0, msg, (size_t) n) < 0)
    return -1;
  return e2b_envelope_append (out, 2, "{}", 2);
}

static int
finish_execute (e2b_stream_t *st, const sched_result_t *res, const wb_err_t *err, wb_buf_t *out)
{
  int errors = 0;

  if (res == NULL)
    {
      /* Refused or lost after the stream began: the cell's error. */
      if (execute_error (out, err->code == WB_E_SESSION_EXPIRED ? "SandboxGone" : "SandboxError",
                         err->msg, "", 0)
          < 0)
        return -1;
      return wb_buf_append_str (out, "{\"type\":\"end_of_execution\"}\n") < 0 ? -1 : 0;
    }
  if (st->notebook && res->session_display.len
      && e2b_display_lines (res->session_display.data, res->session_display.len, out, &errors) < 0)
    return -1;
  if (errors == 0 && res->status != SCHED_ST_OK)
    {
      if (execute_error (out, status_error_name (res), status_words (res), "", 0) < 0)
        return -1;
    }
  else if (errors == 0 && res->exit_code != 0)
    {
      /* A language without display records (JavaScript, TypeScript), or a
       * Python cell that ended the interpreter itself: stderr's last line
       * says what, the whole of it is the traceback. */
      const char *line;
      size_t line_len;
      last_line (res->err.data ? res->err.data : "", res->err.len, &line, &line_len);
      char name[64] = "Error", value[512];
      const char *colon = memchr (line, ':', line_len);
      size_t name_len = colon ? (size_t) (colon - line) : 0;
      bool named = name_len > 0 && name_len < sizeof name && memchr (line, ' ', name_len) == NULL;
      if (named)
        {
          memcpy (name, line, name_len);
          name[name_len] = '\0';
        }
      const char *v = named ? colon + 1 : line;
      size_t vlen = named ? line_len - name_len - 1 : line_len;
      while (vlen && *v == ' ')
        v++, vlen--;
      snprintf (value, sizeof value, "%.*s", (int) (vlen > 500 ? 500 : vlen), v);
      if (vlen == 0)
        snprintf (value, sizeof value, "the program exited with status %d", res->exit_code);
      if (execute_error (out, name, value, res->err.data ? res->err.data : "", res->err.len) < 0)
        return -1;
    }
  return wb_buf_append_str (out, "{\"type\":\"end_of_execution\"}\n") < 0 ? -1 : 0;
}

int
e2b_stream_finish (e2b_stream_t *st, const sched_result_t *res, const session_outcome_t *so,
                   const wb_err_t *err, wb_buf_t *out)
{
  /* Characters still cut: as they are (invalid: U+FFFD). */
  for (int i = 0; i < 2 && st->kind == E2B_EXECUTE; i++)
    if (st->tail_len[i])
      {
        if (execute_line (out, i ? ENG_STREAM_STDERR : ENG_STREAM_STDOUT, st->tail[i],
                          st->tail_len[i])
            < 0)
          return -1;
        st->tail_len[i] = 0;
      }
  for (size_t i = 0; so && i < so->n_warnings; i++)
    if (e2b_stream_note (st, so->warnings[i], out) < 0)
      return -1;
  return st->kind == E2B_PROCESS ? finish_process (st, res, err, out)
                                 : finish_execute (st, res, err, out);
}

/* ---- commands -------------------------------------------------------- */

bool
e2b_env_name_ok (const char *s)
{
  if (s == NULL || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
    return false;
  for (; *s; s++)
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')
          || *s == '_'))
      return false;
  return true;
}

/* s in single quotes, for bash. */
static int
shell_quote (wb_buf_t *out, const char *s)
{
  int bad = wb_buf_append (out, "'", 1);
  for (; *s && bad == 0; s++)
    bad |= *s == '\'' ? wb_buf_append_str (out, "'\\''") : wb_buf_append (out, s, 1);
  bad |= wb_buf_append (out, "'", 1);
  return bad < 0 ? -1 : 0;
}

static int
export_envs (const cJSON *envs, wb_buf_t *script, wb_err_t *err)
{
  const cJSON *e;
  if (envs == NULL || cJSON_IsNull (envs))
    return 0;
  if (!cJSON_IsObject (envs))
    return wb_error (err, WB_E_INVALID, "envs must be an object of strings");
  cJSON_ArrayForEach (e, envs)
  {
    if (!cJSON_IsString (e) || !e2b_env_name_ok (e->string))
      return wb_error (err, WB_E_INVALID,
                       "envs: each name is a shell variable's ([A-Za-z_][A-Za-z0-9_]*) and each "
                       "value a string");
    if (wb_buf_printf (script, "export %s=", e->string) < 0
        || shell_quote (script, e->valuestring) < 0 || wb_buf_append_str (script, "\n") < 0)
      return wb_error (err, WB_E_NOMEM, "out of memory");
  }
  return 0;
}

int
e2b_process_script (const cJSON *start, const cJSON *env_json, wb_buf_t *script,
                    uint32_t *timeout_hint_ms, wb_err_t *err)
{
  const cJSON *proc = cJSON_GetObjectItemCaseSensitive (start, "process");
  const char *cmd = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (proc, "cmd"));
  const cJSON *args = cJSON_GetObjectItemCaseSensitive (proc, "args");
  const cJSON *cwd = cJSON_GetObjectItemCaseSensitive (proc, "cwd");
  const cJSON *a;

  *timeout_hint_ms = 0;
  if (cJSON_GetObjectItemCaseSensitive (start, "pty") != NULL
      && !cJSON_IsNull (cJSON_GetObjectItemCaseSensitive (start, "pty")))
    return wb_error (err, WB_E_UNSUPPORTED, "warmbox runs commands without a terminal (no pty)");
  if (!cJSON_IsObject (proc) || cmd == NULL || *cmd == '\0')
    return wb_error (err, WB_E_INVALID, "process.cmd is required");
  if (args && !cJSON_IsNull (args) && !cJSON_IsArray (args))
    return wb_error (err, WB_E_INVALID, "process.args must be an array of strings");
  cJSON_ArrayForEach (a, args)
  {
    if (!cJSON_IsString (a))
      return wb_error (err, WB_E_INVALID, "process.args must be an array of strings");
  }
  if (export_envs (env_json, script, err) < 0
      || export_envs (cJSON_GetObjectItemCaseSensitive (proc, "envs"), script, err) < 0)
    return -1;
  /* The home is where the session's files are. */
  const char *dir = cJSON_GetStringValue (cwd);
  if (dir && *dir)
    {
      char name[256];
      bool home;
      if (e2b_path_name (dir, name, &home, err) < 0 || !home)
        {
          if (strcmp (dir, "/tmp") != 0)
            return wb_error (err, WB_E_INVALID,
                             "cwd %s: a command runs in %s (or /tmp), where the sandbox's files "
                             "are",
                             dir, E2B_HOME);
        }
    }
  if (wb_buf_append_str (script, "cd " E2B_HOME " 2>/dev/null || cd /tmp\n") < 0)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  /* bash -l -c STRING (the SDK's form): the string is the script.  Only
   * when that is all the words say: short options without an argument of
   * their own (not -o, -O), the one with c, then STRING last (no $0, $1
   * after it).  Anything else (--norc, a script's file and its -c, -o
   * pipefail) runs as it is, by the exec below. */
  const char *base = strrchr (cmd, '/') ? strrchr (cmd, '/') + 1 : cmd;
  int n = cJSON_GetArraySize (args);
  if ((strcmp (base, "bash") == 0 || strcmp (base, "sh") == 0) && n >= 2)
    {
      const char *c = NULL;
      for (int i = 0; i + 1 < n; i++)
        {
          const char *w = cJSON_GetArrayItem (args, i)->valuestring;
          if (w[0] != '-' || w[1] == '\0' || w[1] == '-' || strpbrk (w, "oO"))
            break;
          if (strchr (w, 'c'))
            {
              if (i + 2 == n)
                c = cJSON_GetArrayItem (args, i + 1)->valuestring;
              break;
            }
        }
      if (c)
        return wb_buf_append_str (script, c) < 0 || wb_buf_append_str (script, "\n") < 0
                   ? wb_error (err, WB_E_NOMEM, "out of memory")
                   : 0;
    }
  int bad = wb_buf_append_str (script, "exec ");
  bad |= shell_quote (script, cmd);
  cJSON_ArrayForEach (a, args)
  {
    bad |= wb_buf_append_str (script, " ");
    bad |= shell_quote (script, a->valuestring);
  }
  bad |= wb_buf_append_str (script, "\n");
  return bad < 0 ? wb_error (err, WB_E_NOMEM, "out of memory") : 0;
}

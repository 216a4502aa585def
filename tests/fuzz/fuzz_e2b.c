/* Fuzz the E2B SDK's wire formats (api/e2b_wire.h): the first byte picks
 * the function ('0'..'7', or any byte modulo 8), the rest is its input.
 *   0 e2b_path_name      a name a session may hold, or the home, or 400
 *   1 e2b_envelope_parse the message is the body's bytes after 5, exactly
 *   2 e2b_multipart_parse "CONTENT-TYPE\nBODY": parts point into the body
 *   3 e2b_json_ascii     printable ASCII, a JSON string, the input again
 *   4 e2b_utf8_whole     the longest prefix of whole characters
 *   5 e2b_display_lines  JSON objects of type result or error, one a line
 *   6 e2b_process_script a Start message's JSON as a script
 *   7 the two streams    /execute's NDJSON, process.Process/Start's
 *                        envelopes, from chunks and a fake result
 * Any property broken aborts. */
#include "api/e2b_wire.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define check(cond)                                                                                \
  do                                                                                               \
    {                                                                                              \
      if (!(cond))                                                                                 \
        abort ();                                                                                  \
    }                                                                                              \
  while (0)

/* s[0, len) NUL-terminated, in a copy of its own. */
static char *
dup_bytes (const char *s, size_t len)
{
  char *c = malloc (len + 1);
  check (c != NULL);
  if (len)
    memcpy (c, s, len);
  c[len] = '\0';
  return c;
}

static bool
printable (const char *s, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if ((unsigned char) s[i] < 0x20 || (unsigned char) s[i] > 0x7e)
      return false;
  return true;
}

static bool strict_json (const char *s, size_t n);

/* s[0, len) as one whole JSON value, nothing after it; NULL if not. */
static cJSON *
parse_whole (const char *s, size_t len)
{
  char *c = dup_bytes (s, len);
  cJSON *v = cJSON_ParseWithOpts (c, NULL, 1);
  free (c);
  /* What the SDK's JSON.parse takes, too. */
  check (v == NULL || strict_json (s, len));
  return v;
}

/* JSON as RFC 8259 (and JSON.parse) has it, stricter than cJSON (which
 * takes 01, 1. and -.5): s[*i...] one value; false past depth 1100 (cJSON's
 * own limit is 1000). */
static bool sj_value (const char *s, size_t n, size_t *i, int depth);

static void
sj_ws (const char *s, size_t n, size_t *i)
{
  while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
    (*i)++;
}

static bool
sj_digits (const char *s, size_t n, size_t *i)
{
  size_t start = *i;
  while (*i < n && s[*i] >= '0' && s[*i] <= '9')
    (*i)++;
  return *i > start;
}

static bool
sj_string (const char *s, size_t n, size_t *i)
{
  if (*i >= n || s[*i] != '"')
    return false;
  for ((*i)++; *i < n; (*i)++)
    {
      unsigned char c = (unsigned char) s[*i];
      if (c == '"')
        {
          (*i)++;
          return true;
        }
      if (c < 0x20)
        return false;
      if (c != '\\')
        continue;
      if (++(*i) >= n)
        return false;
      c = (unsigned char) s[*i];
      if (c == 'u')
        {
          for (int k = 0; k < 4; k++)
            {
              if (++(*i) >= n || !strchr ("0123456789abcdefABCDEF", s[*i]) || s[*i] == '\0')
                return false;
            }
        }
      else if (!strchr ("\"\\/bfnrt", c) || c == '\0')
        return false;
    }
  return false;
}

static bool
sj_value (const char *s, size_t n, size_t *i, int depth)
{
  if (depth > 1100)
    return false;
  sj_ws (s, n, i);
  if (*i >= n)
    return false;
  char c = s[*i];
  if (c == '"')
    return sj_string (s, n, i);
  if (c == '{' || c == '[')
    {
      char close = c == '{' ? '}' : ']';
      (*i)++;
      sj_ws (s, n, i);
      if (*i < n && s[*i] == close)
        {
          (*i)++;
          return true;
        }
      for (;;)
        {
          if (c == '{')
            {
              sj_ws (s, n, i);
              if (!sj_string (s, n, i))
                return false;
              sj_ws (s, n, i);
              if (*i >= n || s[*i] != ':')
                return false;
              (*i)++;
            }
          if (!sj_value (s, n, i, depth + 1))
            return false;
          sj_ws (s, n, i);
          if (*i < n && s[*i] == ',')
            {
              (*i)++;
              continue;
            }
          if (*i < n && s[*i] == close)
            {
              (*i)++;
              return true;
            }
          return false;
        }
    }
  static const char *const lits[] = {"true", "false", "null"};
  for (int k = 0; k < 3; k++)
    if (n - *i >= strlen (lits[k]) && memcmp (s + *i, lits[k], strlen (lits[k])) == 0)
      {
        *i += strlen (lits[k]);
        return true;
      }
  if (c == '-')
    (*i)++;
  if (*i < n && s[*i] == '0')
    (*i)++;
  else if (*i >= n || s[*i] < '1' || s[*i] > '9' || !sj_digits (s, n, i))
    return false;
  if (*i < n && s[*i] == '.')
    {
      (*i)++;
      if (!sj_digits (s, n, i))
        return false;
    }
  if (*i < n && (s[*i] == 'e' || s[*i] == 'E'))
    {
      (*i)++;
      if (*i < n && (s[*i] == '+' || s[*i] == '-'))
        (*i)++;
      if (!sj_digits (s, n, i))
        return false;
    }
  return true;
}

static bool
strict_json (const char *s, size_t n)
{
  size_t i = 0;
  if (!sj_value (s, n, &i, 0))
    return false;
  sj_ws (s, n, &i);
  return i == n;
}

/* ---- 0: paths ---------------------------------------------------------- */

static void
fuzz_path (const char *d, size_t n)
{
  char *path = dup_bytes (d, n);
  char name[256];
  bool home = true;
  wb_err_t err = {0};

  memset (name, 'x', sizeof name);
  if (e2b_path_name (path, name, &home, &err) == 0)
    {
      size_t len = strnlen (name, sizeof name);
      check (len < sizeof name);
      if (home)
        check (len == 0);
      else
        {
          check (len > 0 && sched_file_name_valid (name, len) && strchr (name, '/') == NULL
                 && strncmp (name, ".warmbox-", 9) != 0 && strcmp (name, ".") != 0
                 && strcmp (name, "..") != 0);
          /* Taken from the path itself, as it is. */
          check (strstr (path, name) != NULL);
          /* The path is within the home: no other place's. */
          check (path[0] != '/' || strncmp (path, E2B_HOME "/", strlen (E2B_HOME) + 1) == 0);
        }
    }
  else
    check (err.code == WB_E_INVALID && err.msg[0]);
  free (path);
}

/* ---- 1: envelopes ------------------------------------------------------ */

static void
fuzz_envelope (const char *d, size_t n)
{
  const char *msg = NULL;
  size_t msg_len = 0;
  wb_err_t err = {0};

  if (e2b_envelope_parse (d, n, &msg, &msg_len, &err) < 0)
    {
      check (err.code == WB_E_INVALID);
      return;
    }
  check (n >= 5 && d[0] == 0 && msg == d + 5 && msg_len == n - 5);
  /* Built again, the same bytes. */
  wb_buf_t again = WB_BUF_INIT;
  check (e2b_envelope_append (&again, 0, msg, msg_len) == 0);
  check (again.len == n && memcmp (again.data, d, n) == 0);
  wb_buf_free (&again);
}

/* ---- 2: multipart ------------------------------------------------------ */

static bool
within (const char *p, size_t len, const char *body, size_t body_len)
{
  return p >= body && p <= body + body_len && len <= (size_t) (body + body_len - p);
}

static void
fuzz_multipart (const char *d, size_t n)
{
  const char *nl = memchr (d, '\n', n);
  if (nl == NULL)
    return;
  char *ctype = dup_bytes (d, (size_t) (nl - d));
  size_t body_len = n - (size_t) (nl - d) - 1;
  /* The body in an allocation of its own, so that a read past it shows. */
  char *body = malloc (body_len ? body_len : 1);
  check (body != NULL);
  if (body_len)
    memcpy (body, nl + 1, body_len);
  e2b_part_t parts[E2B_MULTIPART_MAX];
  size_t max = (unsigned char) d[0] % 2 ? E2B_MULTIPART_MAX : 2, count = 99;
  wb_err_t err = {0};

  if (e2b_multipart_parse (ctype, body, body_len, parts, max, &count, &err) == 0)
    {
      check (count <= max);
      for (size_t i = 0; i < count; i++)
        {
          check (parts[i].field != NULL && parts[i].data != NULL);
          check (within (parts[i].field, parts[i].field_len, body, body_len));
          check (within (parts[i].data, parts[i].len, body, body_len));
          check (parts[i].filename == NULL
                 || within (parts[i].filename, parts[i].filename_len, body, body_len));
          check (i == 0 || parts[i].data > parts[i - 1].data);
        }
    }
  else
    check (err.code == WB_E_INVALID);
  free (ctype);
  free (body);
}

/* ---- 3: JSON of ASCII -------------------------------------------------- */

static void
fuzz_json_ascii (const char *d, size_t n)
{
  wb_buf_t out = WB_BUF_INIT;

  check (e2b_json_ascii (&out, d, n) == 0);
  check (out.len >= 2 && printable (out.data, out.len));
  cJSON *v = parse_whole (out.data, out.len);
  check (cJSON_IsString (v));
  if (wb_utf8_valid (d, n) && memchr (d, '\0', n) == NULL)
    check (strlen (v->valuestring) == n && memcmp (v->valuestring, d, n) == 0);
  else if (memchr (d, '\0', n) == NULL)
    check (wb_utf8_valid (v->valuestring, strlen (v->valuestring)));
  cJSON_Delete (v);
  wb_buf_free (&out);
}

/* ---- 4: whole characters ----------------------------------------------- */

/* How many bytes a character led by c takes (1 for a byte that leads none). */
static size_t
lead_need (unsigned char c)
{
  return c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 1;
}

static void
check_whole (const char *s, size_t len)
{
  const unsigned char *u = (const unsigned char *) s;
  size_t r = e2b_utf8_whole (s, len);

  check (r <= len && len - r <= 3);
  if (r < len)
    {
      /* What is held back is one character's start, short of its end. */
      check (lead_need (u[r]) > len - r);
      for (size_t k = r + 1; k < len; k++)
        check ((u[k] & 0xc0) == 0x80);
    }
}

static void
fuzz_utf8_whole (const char *d, size_t n)
{
  check_whole (d, n);
  if (!wb_utf8_valid (d, n))
    return;
  /* Valid text cut anywhere: back to the last boundary at or before the
   * cut, and the whole of it when uncut. */
  check (e2b_utf8_whole (d, n) == n);
  size_t boundary = 0;
  for (size_t k = 0; k <= n && k <= 4096; k++)
    {
      if (k < n && ((unsigned char) d[k] & 0xc0) != 0x80)
        {
          check (e2b_utf8_whole (d, k) == k);
          boundary = k;
        }
      else if (k < n)
        check (e2b_utf8_whole (d, k) == boundary);
      check_whole (d, k);
    }
}

/* ---- 5: display records ------------------------------------------------ */

/* Lines of out, each a JSON object of type result or error (or, from a
 * stream, stdout/stderr/end_of_execution); *n_errors the error lines. */
static void
check_lines (const char *out, size_t len, bool stream, int *n_errors)
{
  const char *p = out, *end = out + len;

  *n_errors = 0;
  check (len == 0 || out[len - 1] == '\n');
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      check (nl != NULL && nl > p); /* no blank line */
      check (printable (p, (size_t) (nl - p)));
      cJSON *v = parse_whole (p, (size_t) (nl - p));
      check (cJSON_IsObject (v));
      const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (v, "type"));
      check (type != NULL);
      bool known = strcmp (type, "result") == 0 || strcmp (type, "error") == 0;
      if (stream)
        known = known || strcmp (type, "stdout") == 0 || strcmp (type, "stderr") == 0
                || strcmp (type, "end_of_execution") == 0;
      check (known);
      *n_errors += strcmp (type, "error") == 0;
      cJSON_Delete (v);
      p = nl + 1;
    }
}

static void
fuzz_display (const char *d, size_t n)
{
  wb_buf_t out = WB_BUF_INIT;
  int errors = -1, lines = 0;

  check (e2b_display_lines (d, n, &out, &errors) == 0);
  check_lines (out.data ? out.data : "", out.len, false, &lines);
  check (errors == lines);
  wb_buf_free (&out);
}

/* ---- 6: process scripts ------------------------------------------------ */

static void
fuzz_process_script (const char *d, size_t n)
{
  cJSON *start = cJSON_ParseWithLength (d, n);
  if (start == NULL)
    return;
  /* The sandbox's own envVars, when the input gives some. */
  const cJSON *env = cJSON_GetObjectItemCaseSensitive (start, "sandboxEnv");
  wb_buf_t script = WB_BUF_INIT;
  uint32_t hint = 1;
  wb_err_t err = {0};

  if (e2b_process_script (start, env, &script, &hint, &err) == 0)
    {
      check (script.len > 0 && script.data[script.len - 1] == '\n');
      check (strstr (script.data, "cd " E2B_HOME) != NULL);
    }
  else
    check ((err.code == WB_E_INVALID || err.code == WB_E_UNSUPPORTED) && err.msg[0]);
  wb_buf_free (&script);
  cJSON_Delete (start);
}

/* ---- 7: the streams ---------------------------------------------------- */

/* A small PRNG the input seeds: where the chunks are cut. */
static uint32_t
next_rand (uint32_t *s)
{
  *s = *s * 1103515245u + 12345u;
  return *s >> 16;
}

static void
check_execute (const char *out, size_t len, const char *sent[2], size_t sent_len[2],
               const bool exact[2], bool failed, bool clean)
{
  int errors, ends = 0;
  check_lines (out, len, true, &errors);
  /* The texts of each stream joined: the bytes sent, when they were valid
   * UTF-8 without NUL (a character cut between chunks carried whole). */
  wb_buf_t got[2] = {WB_BUF_INIT, WB_BUF_INIT};
  const char *p = out, *end = out + len;
  bool last_is_end = false;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      cJSON *v = parse_whole (p, (size_t) (nl - p));
      const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (v, "type"));
      int i = strcmp (type, "stdout") == 0 ? 0 : strcmp (type, "stderr") == 0 ? 1 : -1;
      if (i >= 0)
        {
          const char *text = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (v, "text"));
          check (text != NULL);
          check (cJSON_IsString (cJSON_GetObjectItemCaseSensitive (v, "timestamp")));
          check (wb_buf_append_str (&got[i], text) == 0);
        }
      last_is_end = strcmp (type, "end_of_execution") == 0;
      ends += last_is_end;
      cJSON_Delete (v);
      p = nl + 1;
    }
  check (last_is_end && ends == 1); /* the stream ends with end_of_execution, once */
  for (int i = 0; i < 2; i++)
    if (exact[i])
      check (got[i].len == sent_len[i]
             && (sent_len[i] == 0 || memcmp (got[i].data, sent[i], sent_len[i]) == 0));
  check (!failed || errors > 0);
  check (!clean || errors == 0);
  wb_buf_free (&got[0]);
  wb_buf_free (&got[1]);
}

/* want_exit: the end event's exitCode (INT_MIN: no end event, an error
 * ends the stream). */
static void
check_process (const char *out, size_t len, const char *sent[2], size_t sent_len[2], uint64_t pid,
               int want_exit)
{
  bool saw_end = false;
  const unsigned char *u = (const unsigned char *) out;
  size_t off = 0;
  int count = 0;
  bool ended = false;
  wb_buf_t got[2] = {WB_BUF_INIT, WB_BUF_INIT};

  while (off < len)
    {
      check (!ended); /* nothing after the end-stream envelope */
      check (len - off >= 5);
      unsigned flags = u[off];
      size_t mlen = ((size_t) u[off + 1] << 24) | ((size_t) u[off + 2] << 16)
                    | ((size_t) u[off + 3] << 8) | u[off + 4];
      check (flags == 0 || flags == 2);
      check (mlen <= len - off - 5);
      const char *m = out + off + 5;
      check (printable (m, mlen));
      cJSON *v = parse_whole (m, mlen);
      check (cJSON_IsObject (v));
      const cJSON *ev = cJSON_GetObjectItemCaseSensitive (v, "event");
      if (count == 0)
        {
          const cJSON *st = cJSON_GetObjectItemCaseSensitive (ev, "start");
          check (cJSON_IsNumber (cJSON_GetObjectItemCaseSensitive (st, "pid")));
          check ((uint64_t) cJSON_GetObjectItemCaseSensitive (st, "pid")->valuedouble == pid);
        }
      const cJSON *data = cJSON_GetObjectItemCaseSensitive (ev, "data");
      for (int i = 0; i < 2 && data; i++)
        {
          const char *b64 = cJSON_GetStringValue (
              cJSON_GetObjectItemCaseSensitive (data, i ? "stderr" : "stdout"));
          if (b64)
            check (wb_base64_decode (&got[i], b64, strlen (b64)) == 0);
        }
      const cJSON *end_ev = cJSON_GetObjectItemCaseSensitive (ev, "end");
      if (end_ev)
        {
          const cJSON *code = cJSON_GetObjectItemCaseSensitive (end_ev, "exitCode");
          check (!saw_end && want_exit != INT_MIN && cJSON_IsNumber (code)
                 && code->valueint == want_exit);
          check (want_exit == 0
                 || cJSON_IsString (cJSON_GetObjectItemCaseSensitive (end_ev, "error")));
          saw_end = true;
        }
      if (flags == 2)
        {
          ended = true;
          check (ev == NULL);
          const cJSON *e = cJSON_GetObjectItemCaseSensitive (v, "error");
          if (want_exit == INT_MIN)
            check (cJSON_IsString (cJSON_GetObjectItemCaseSensitive (e, "code"))
                   && cJSON_IsString (cJSON_GetObjectItemCaseSensitive (e, "message")));
          else
            check (e == NULL && v->child == NULL); /* {} */
        }
      cJSON_Delete (v);
      off += 5 + mlen;
      count++;
    }
  check (ended && count >= 2 && saw_end == (want_exit != INT_MIN));
  /* Every byte, as it was sent (base64 carries any). */
  check (got[0].len == sent_len[0]
         && (sent_len[0] == 0 || memcmp (got[0].data, sent[0], sent_len[0]) == 0));
  check (got[1].len >= sent_len[1]); /* stderr also holds the notes */
  wb_buf_free (&got[0]);
  wb_buf_free (&got[1]);
}

/* Input: status, exit code, flags, seed, then the chunks' bytes, then (after
 * a 0x1e byte) the session's display records. */
static void
fuzz_stream (const char *d, size_t n)
{
  if (n < 4)
    return;
  const unsigned char *h = (const unsigned char *) d;
  unsigned flags = h[2];
  uint32_t seed = h[3];
  const char *payload = d + 4, *end = d + n;
  const char *rs = memchr (payload, 0x1e, (size_t) (end - payload));
  const char *chunks_end = rs ? rs : end;
  sched_result_t res;
  session_outcome_t so;
  char *warnings[1] = {(char *) "a name was not carried"};
  wb_err_t err = {0};

  memset (&res, 0, sizeof res);
  memset (&so, 0, sizeof so);
  res.status = (sched_status_t) (h[0] % (SCHED_ST_SANDBOX_ERROR + 1));
  res.exit_code = (int) (signed char) h[1];
  if (rs)
    check (wb_buf_append (&res.session_display, rs + 1, (size_t) (end - rs - 1)) == 0);
  so.warnings = warnings;
  so.n_warnings = flags & 4 ? 1 : 0;
  wb_error (&err, flags & 16 ? WB_E_SESSION_EXPIRED : WB_E_BUSY, "gone \"quoted\" \xc3");

  for (int kind = E2B_EXECUTE; kind <= E2B_PROCESS; kind++)
    {
      e2b_stream_t st = {.kind = (e2b_kind_t) kind, .notebook = flags & 1, .pid = seed * 7};
      wb_buf_t out = WB_BUF_INIT, sent[2] = {WB_BUF_INIT, WB_BUF_INIT};
      uint32_t r = seed;
      bool use_res = !(flags & 8);

      check (e2b_stream_start (&st, &out) == 0);
      check (kind == E2B_PROCESS || out.len == 0);
      for (const char *p = payload; p < chunks_end;)
        {
          uint32_t x = next_rand (&r);
          size_t len = 1 + x % 7;
          int stream = x & 0x100 ? ENG_STREAM_STDERR : ENG_STREAM_STDOUT;
          if (len > (size_t) (chunks_end - p))
            len = (size_t) (chunks_end - p);
          if ((x & 0x600) == 0x600)
            len = 0; /* an empty chunk now and then */
          check (e2b_stream_chunk (&st, stream, p, len, &out) == 0);
          check (wb_buf_append (&sent[stream == ENG_STREAM_STDOUT ? 0 : 1], p, len) == 0);
          p += len;
        }
      if (flags & 2)
        check (e2b_stream_note (&st, "some output was left out", &out) == 0);
      check (wb_buf_append (&res.out, sent[0].data, sent[0].len) == 0);
      check (wb_buf_append (&res.err, sent[1].data, sent[1].len) == 0);
      check (e2b_stream_finish (&st, use_res ? &res : NULL, &so, use_res ? NULL : &err, &out) == 0);
      check (st.tail_len[0] == 0 && st.tail_len[1] == 0);

      const char *s[2] = {sent[0].data, sent[1].data};
      size_t sl[2] = {sent[0].len, sent[1].len};
      if (kind == E2B_EXECUTE)
        {
          bool exact[2];
          for (int i = 0; i < 2; i++)
            exact[i] = wb_utf8_valid (s[i] ? s[i] : "", sl[i])
                       && !memchr (s[i] ? s[i] : "", 0, sl[i])
                       && (i == 0 || (!(flags & 2) && so.n_warnings == 0));
          /* A run that failed (or a call refused) says so in an error
           * line (the display's own records, or ours); one that ran well
           * without a display has none. */
          bool failed = !use_res || res.status != SCHED_ST_OK || res.exit_code != 0;
          check_execute (out.data, out.len, s, sl, exact, failed, !failed && !st.notebook);
        }
      else
        check_process (out.data, out.len, s, sl, st.pid,
                       !use_res || res.status == SCHED_ST_TIMEOUT ? INT_MIN
                       : res.status == SCHED_ST_OK                ? res.exit_code
                                                                  : -1);
      wb_buf_free (&out);
      wb_buf_free (&sent[0]);
      wb_buf_free (&sent[1]);
      wb_buf_free (&res.out);
      wb_buf_free (&res.err);
    }
  wb_buf_free (&res.session_display);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  /* The rest in an allocation of its own, so that a read past it shows. */
  size_t n = size - 1;
  char *d = malloc (n ? n : 1);
  check (d != NULL);
  if (n)
    memcpy (d, data + 1, n);
  switch (data[0] % 8)
    {
    case 0:
      fuzz_path (d, n);
      break;
    case 1:
      fuzz_envelope (d, n);
      break;
    case 2:
      fuzz_multipart (d, n);
      break;
    case 3:
      fuzz_json_ascii (d, n);
      break;
    case 4:
      fuzz_utf8_whole (d, n);
      break;
    case 5:
      fuzz_display (d, n);
      break;
    case 6:
      fuzz_process_script (d, n);
      break;
    default:
      fuzz_stream (d, n);
      break;
    }
  free (d);
  return 0;
}

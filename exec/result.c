/* exec/result.c: an execution's result: the init's trailer parsed into
 * it (pure, fuzzed: tests/fuzz/fuzz_trailer.c), and what it owns.  Its
 * JSON is the API's (api/result.c). */
#define _GNU_SOURCE
#include "exec/exec.h"

#include <stdlib.h>
#include <string.h>

/* A decimal number of at most 18 digits at *p, then `end`; advances *p. */
static bool
trailer_number (const char **p, const char *limit, char end, uint64_t *out)
{
  uint64_t v = 0;
  const char *s = *p;

  while (*p < limit && **p >= '0' && **p <= '9' && *p - s < 18)
    v = v * 10 + (uint64_t) (*(*p)++ - '0');
  if (*p == s || *p >= limit || **p != end)
    return false;
  (*p)++;
  *out = v;
  return true;
}

static bool
trailer_word (const char **p, const char *limit, const char *word)
{
  size_t n = strlen (word);

  if ((size_t) (limit - *p) < n || memcmp (*p, word, n) != 0)
    return false;
  *p += n;
  return true;
}

/* One "file <name length> <size> <content length> <sha256>\n<name><content>"
 * record into f (owned, filled only on success). */
static bool
trailer_file (const char **p, const char *end, sched_file_out_t *f, uint64_t *omitted)
{
  uint64_t name_len, size, content_len;
  const char *q = *p;

  if (!trailer_word (&q, end, "file ") || !trailer_number (&q, end, ' ', &name_len)
      || !trailer_number (&q, end, ' ', &size) || !trailer_number (&q, end, ' ', &content_len)
      || end - q < 65 || q[64] != '\n' || name_len == 0 || name_len > 1024
      || (content_len != 0 && content_len != size)
      || (uint64_t) (end - q - 65) < name_len + content_len)
    return false;
  for (int i = 0; i < 64; i++)
    if (!((q[i] >= '0' && q[i] <= '9') || (q[i] >= 'a' && q[i] <= 'f')))
      return false;
  memset (f, 0, sizeof *f);
  memcpy (f->sha256, q, 64);
  q += 65;
  f->size = size;
  /* The init checked the name; a name that is not plain UTF-8 after all is
   * left out and counted, like the init's own. */
  if (!wb_utf8_valid (q, name_len) || memchr (q, '\0', name_len))
    {
      (*omitted)++;
      *p = q + name_len + content_len;
      f->name = NULL;
      return true;
    }
  f->name = strndup (q, name_len);
  q += name_len;
  if (content_len || size == 0)
    {
      f->content = malloc (content_len ? content_len : 1);
      if (f->content)
        {
          memcpy (f->content, q, content_len);
          f->content_len = content_len;
        }
    }
  /* Without memory for its content the file is not kept half: listed
   * without content it would read as past the output limit. */
  if (f->name == NULL || ((content_len || size == 0) && f->content == NULL))
    {
      free (f->name);
      free (f->content);
      return false;
    }
  *p = q + content_len;
  return true;
}

static void
session_free (sched_result_t *r)
{
  for (uint32_t i = 0; i < r->n_session_gone; i++)
    free (r->session_gone[i]);
  free (r->session_gone);
  r->session_gone = NULL;
  r->n_session_gone = 0;
  if (r->session_state.data)
    explicit_bzero (r->session_state.data, r->session_state.cap);
  wb_buf_free (&r->session_state);
  wb_buf_free (&r->session_notes);
  wb_buf_free (&r->session_display);
  r->has_session = false;
}

/* The session section, past its word: "<gone> <has state> <state size>
 * <state length> <notes length>[ <display length>]\n", a "gone <name
 * length>\n<name>" record per input removed, the state's bytes, the
 * notes', the display records' (into r, owned). */
static bool
trailer_session (const char **p, const char *end, sched_result_t *r)
{
  uint64_t gone, has, size, state_len, notes_len, display_len = 0;
  const char *q = *p;

  if (!trailer_number (&q, end, ' ', &gone) || !trailer_number (&q, end, ' ', &has)
      || !trailer_number (&q, end, ' ', &size) || !trailer_number (&q, end, ' ', &state_len))
    return false;
  /* The display length is the init's since notebooks (an older init's
   * section ends at the notes). */
  const char *at_notes = q;
  if (!trailer_number (&q, end, '\n', &notes_len)
      && (q = at_notes, !trailer_number (&q, end, ' ', &notes_len)
                            || !trailer_number (&q, end, '\n', &display_len)))
    return false;
  if (gone > SCHED_MAX_FILES + 2 || has > 2 || (state_len != 0 && (has != 1 || state_len != size))
      || (has != 1 && size != 0) || notes_len > 4096 || display_len > SCHED_DISPLAY_MAX)
    return false;
  r->has_session = true; /* from here on session_free has work to do */
  if (gone && (r->session_gone = calloc (gone, sizeof *r->session_gone)) == NULL)
    return false;
  for (uint64_t i = 0; i < gone; i++)
    {
      uint64_t name_len;
      if (!trailer_word (&q, end, "gone ") || !trailer_number (&q, end, '\n', &name_len)
          || name_len == 0 || name_len > SCHED_MAX_FILE_NAME || (uint64_t) (end - q) < name_len
          || !sched_file_name_valid (q, (size_t) name_len)
          || (r->session_gone[r->n_session_gone] = strndup (q, (size_t) name_len)) == NULL)
        return false;
      r->n_session_gone++;
      q += name_len;
    }
  if ((uint64_t) (end - q) < state_len || (uint64_t) (end - q) - state_len < notes_len
      || (uint64_t) (end - q) - state_len - notes_len < display_len
      || wb_buf_append (&r->session_state, q, (size_t) state_len) < 0
      || wb_buf_append (&r->session_notes, q + state_len, (size_t) notes_len) < 0
      || wb_buf_append (&r->session_display, q + state_len + notes_len, (size_t) display_len) < 0)
    return false;
  r->session_state_has = (int) has;
  r->session_state_size = size;
  *p = q + state_len + notes_len + display_len;
  return true;
}

int
sched_trailer_parse (const char *data, size_t len, const char nonce[33], sched_result_t *res)
{
  const char *p = data, *end = data ? data + len : NULL;
  uint64_t listed, omitted, peak, user, sys;
  sched_file_out_t *files = NULL;
  uint32_t n = 0;
  bool good = false, has_compile = false, run_timed_out = false;
  sched_result_t compile = {0}; /* the compile fields, moved into res on success */
  sched_result_t session = {0}; /* the session section's, likewise */

  if (p == NULL)
    goto out;
  /* "compile <exit> <signal> <timed out> <truncated> <duration us> <out length> <err length>[
   * <order length>]\n<out><err>[<order>]" (an init older than the order leaves it out) */
  if (trailer_word (&p, end, "compile "))
    {
      uint64_t ce, cs, ct, ctr, cd, col, cel, cord = 0;
      const char *q;
      if (!trailer_number (&p, end, ' ', &ce) || !trailer_number (&p, end, ' ', &cs)
          || !trailer_number (&p, end, ' ', &ct) || !trailer_number (&p, end, ' ', &ctr)
          || !trailer_number (&p, end, ' ', &cd) || !trailer_number (&p, end, ' ', &col))
        goto out;
      q = p;
      bool has_order = trailer_number (&q, end, ' ', &cel);
      if (!has_order)
        q = p; /* trailer_number moved on over the digits */
      if (has_order ? !trailer_number (&q, end, '\n', &cord)
                    : !trailer_number (&q, end, '\n', &cel))
        goto out;
      p = q;
      if (ce > 255 || cs > 64 || ct > 1 || ctr > 1 || (uint64_t) (end - p) < col
          || (uint64_t) (end - p) - col < cel || (uint64_t) (end - p) - col - cel < cord)
        goto out;
      has_compile = true;
      compile.compile_exit = (int) ce;
      compile.compile_signal = (int) cs;
      compile.compile_timed_out = ct == 1;
      compile.compile_truncated = ctr == 1;
      compile.compile_us = cd;
      if (wb_buf_append (&compile.compile_out, p, (size_t) col) < 0
          || wb_buf_append (&compile.compile_err, p + col, (size_t) cel) < 0
          || (has_order
              && sched_order_parse (p + col + cel, (size_t) cord, (size_t) col, (size_t) cel,
                                    &compile.compile_order)
                     < 0))
        goto out;
      p += col + cel + cord;
    }
  if (!trailer_word (&p, end, "files ") || !trailer_number (&p, end, ' ', &listed)
      || !trailer_number (&p, end, '\n', &omitted) || listed > SCHED_MAX_FILES)
    goto out;
  if (listed && (files = calloc (listed, sizeof *files)) == NULL)
    goto out;
  for (uint64_t i = 0; i < listed; i++)
    {
      if (!trailer_file (&p, end, &files[n], &omitted))
        goto out;
      if (files[n].name)
        n++;
    }
  if (trailer_word (&p, end, "session ") && !trailer_session (&p, end, &session))
    goto out;
  run_timed_out = trailer_word (&p, end, "timeout\n");
  if (!trailer_word (&p, end, "usage ") || !trailer_number (&p, end, ' ', &peak)
      || !trailer_number (&p, end, ' ', &user) || !trailer_number (&p, end, '\n', &sys)
      || !trailer_word (&p, end, "end ") || end - p != 33 || memcmp (p, nonce, 32) != 0
      || p[32] != '\n')
    goto out;
  good = true;
out:
  if (!good)
    {
      for (uint32_t i = 0; i < n; i++)
        {
          free (files[i].name);
          free (files[i].content);
        }
      free (files);
      wb_buf_free (&compile.compile_out);
      wb_buf_free (&compile.compile_err);
      sched_order_free (&compile.compile_order);
      session_free (&session);
      return -1;
    }
  if (session.has_session)
    {
      session_free (res);
      res->has_session = true;
      res->session_gone = session.session_gone;
      res->n_session_gone = session.n_session_gone;
      res->session_display = session.session_display;
      res->session_state_has = session.session_state_has;
      res->session_state_size = session.session_state_size;
      res->session_state = session.session_state;
      res->session_notes = session.session_notes;
    }
  if (has_compile)
    {
      res->has_compile = true;
      res->compile_exit = compile.compile_exit;
      res->compile_signal = compile.compile_signal;
      res->compile_timed_out = compile.compile_timed_out;
      res->compile_truncated = compile.compile_truncated;
      res->compile_us = compile.compile_us;
      wb_buf_free (&res->compile_out);
      wb_buf_free (&res->compile_err);
      res->compile_out = compile.compile_out;
      res->compile_err = compile.compile_err;
      sched_order_free (&res->compile_order);
      res->compile_order = compile.compile_order;
    }
  res->run_timed_out = run_timed_out;
  res->has_usage = true;
  res->has_files = true;
  res->peak_memory_kib = peak;
  res->cpu_user_us = user;
  res->cpu_system_us = sys;
  res->files_out = files;
  res->n_files_out = n;
  res->files_omitted = omitted > UINT32_MAX ? UINT32_MAX : (uint32_t) omitted;
  if (n)
    {
      const char *names[SCHED_MAX_FILES], *hex[SCHED_MAX_FILES];
      for (uint32_t i = 0; i < n; i++)
        {
          names[i] = files[i].name;
          hex[i] = files[i].sha256;
          res->files_out_bytes += files[i].size;
        }
      sched_files_sha256_of (names, hex, n, res->files_out_sha256);
    }
  return 0;
}

void
sched_result_files_free (sched_result_t *res)
{
  for (uint32_t i = 0; i < res->n_files_out; i++)
    {
      free (res->files_out[i].name);
      free (res->files_out[i].content);
    }
  free (res->files_out);
  res->files_out = NULL;
  res->n_files_out = 0;
  wb_buf_free (&res->compile_out);
  wb_buf_free (&res->compile_err);
  sched_order_free (&res->compile_order);
  session_free (res);
}

const char *
sched_compile_status (const sched_result_t *res)
{
  if (res->compile_timed_out)
    return "timeout";
  if (res->compile_signal)
    return "killed";
  return res->compile_exit == 0 ? "ok" : "error";
}

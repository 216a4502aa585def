/* exec/request.c: an execution's input: the validated request (clear,
 * file names, the history's hashes over files) and the stdin frame.  Pure
 * functions: the fuzzers call them directly.  Parsing a body into a
 * request is api/request.c's. */
#define _GNU_SOURCE
#include "exec/request.h"

#include <fnmatch.h>
#include <string.h>

void
sched_request_clear (sched_request_t *req)
{
  if (req->code)
    explicit_bzero (req->code, req->code_len);
  free (req->code);
  if (req->stdin_data)
    explicit_bzero (req->stdin_data, req->stdin_len);
  free (req->stdin_data);
  for (size_t i = 0; i < req->n_args; i++)
    {
      if (req->args[i])
        explicit_bzero (req->args[i], strlen (req->args[i]));
      free (req->args[i]);
    }
  free (req->args);
  for (size_t i = 0; i < req->n_files; i++)
    {
      if (req->files[i].data)
        explicit_bzero (req->files[i].data, req->files[i].len);
      free (req->files[i].data);
      free (req->files[i].name);
    }
  free (req->files);
  free (req->filename);
  free (req->notebook);
  memset (req, 0, sizeof *req);
}

bool
sched_file_name_valid (const char *name, size_t len)
{
  if (len == 0 || len > SCHED_MAX_FILE_NAME || !wb_utf8_valid (name, len))
    return false;
  if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
    return false;
  for (size_t i = 0; i < len; i++)
    if (name[i] == '/' || (unsigned char) name[i] < 0x20 || name[i] == 0x7f)
      return false;
  return true;
}

int
sched_program_name_check (const prof_t *p, const char *name, const char *field, wb_err_t *err)
{
  bool suffix_ok = p->n_name_suffixes == 0;
  size_t len = strlen (name);

  if (p->java_source)
    return wb_error (err, WB_E_INVALID,
                     "%s does not apply to %s: javac's rule names the file after the code's "
                     "public class (or the class with the main method)",
                     field, p->language);
  if (!sched_file_name_valid (name, len))
    return wb_error (err, WB_E_INVALID,
                     "%s must be a plain file name: 1 to %d bytes of UTF-8 without '/' or "
                     "control characters, not \".\" or \"..\"",
                     field, SCHED_MAX_FILE_NAME);
  if (name[0] == '.')
    return wb_error (err, WB_E_INVALID,
                     "%s must not start with '.': dot-files in the working directory are the "
                     "sandbox's own (caches, compiler output) and are never returned",
                     field);
  if (name[0] == '-' || name[0] == '@')
    return wb_error (err, WB_E_INVALID,
                     "%s must not start with '%c': the %s command would read it as %s", field,
                     name[0], p->language, name[0] == '-' ? "an option" : "a file of options");
  for (size_t i = 0; i < p->n_name_suffixes && !suffix_ok; i++)
    {
      size_t k = strlen (p->name_suffixes[i]);
      suffix_ok = len > k && strcmp (name + len - k, p->name_suffixes[i]) == 0;
    }
  if (!suffix_ok)
    {
      char list[PROF_MAX_NAME_RULES * 20] = "";
      for (size_t i = 0; i < p->n_name_suffixes; i++)
        snprintf (list + strlen (list), sizeof list - strlen (list), "%s%s", i ? ", " : "",
                  p->name_suffixes[i]);
      return wb_error (err, WB_E_INVALID,
                       "%s must end in %s%s for %s, after at least one character (the compiler "
                       "picks the language by it)",
                       field, p->n_name_suffixes > 1 ? "one of " : "", list, p->language);
    }
  for (size_t i = 0; i < p->n_name_refused; i++)
    if (fnmatch (p->name_refused[i].pattern, name, 0) == 0)
      return wb_error (err, WB_E_INVALID, "%s \"%.64s\" is refused for %s (%s): %s", field, name,
                       p->language, p->name_refused[i].pattern, p->name_refused[i].reason);
  return 0;
}

void
sched_files_sha256_of (const char *const *names, const char *const *content_hex, size_t n,
                       char out[65])
{
  char hexes[SCHED_MAX_FILES * 128];

  if (n > SCHED_MAX_FILES)
    n = SCHED_MAX_FILES;
  for (size_t i = 0; i < n; i++)
    {
      char h[65];
      wb_sha256_hex (names[i], strlen (names[i]), h);
      memcpy (hexes + i * 128, h, 64);
      memcpy (hexes + i * 128 + 64, content_hex[i], 64);
    }
  wb_sha256_hex (hexes, n * 128, out);
}

void
sched_files_sha256 (const sched_file_t *files, size_t n_files, char out[65])
{
  const char *names[SCHED_MAX_FILES], *hex[SCHED_MAX_FILES];
  size_t n = n_files < SCHED_MAX_FILES ? n_files : SCHED_MAX_FILES;

  for (size_t i = 0; i < n; i++)
    {
      names[i] = files[i].name;
      hex[i] = files[i].sha256;
    }
  sched_files_sha256_of (names, hex, n, out);
}

int
sched_frame_build (const char *code_name, const char *code, size_t code_len, char *const *args,
                   size_t n_args, const sched_file_t *files, size_t n_files, const char *in,
                   size_t in_len, wb_buf_t *out)
{
  size_t name_len = code_name ? strlen (code_name) : 0;

  if (n_args > SCHED_MAX_ARGS || n_files > SCHED_MAX_FILES
      || (code_name && (name_len == 0 || name_len > SCHED_MAX_FILE_NAME))
      || (code_name && wb_buf_printf (out, "n%zu ", name_len) < 0)
      || wb_buf_printf (out, "%zu", code_len) < 0)
    return -1;
  for (size_t i = 0; i < n_args; i++)
    if (wb_buf_printf (out, " %zu", strlen (args[i])) < 0)
      return -1;
  for (size_t i = 0; i < n_files; i++)
    if (wb_buf_printf (out, " f%zu:%zu", strlen (files[i].name), files[i].len) < 0)
      return -1;
  if (wb_buf_append (out, "\n", 1) < 0
      || (code_name && wb_buf_append (out, code_name, name_len) < 0)
      || wb_buf_append (out, code, code_len) < 0)
    return -1;
  for (size_t i = 0; i < n_args; i++)
    if (wb_buf_append_str (out, args[i]) < 0)
      return -1;
  for (size_t i = 0; i < n_files; i++)
    if (wb_buf_append_str (out, files[i].name) < 0
        || wb_buf_append (out, files[i].data, files[i].len) < 0)
      return -1;
  return wb_buf_append (out, in, in_len);
}

/* One decimal length at buf[*i] (advanced past it); -1 when not digits or
 * absurd. */
static int
frame_number (const char *buf, size_t end, size_t *i, size_t *out)
{
  size_t n = 0, start = *i;

  while (*i < end && buf[*i] >= '0' && buf[*i] <= '9')
    {
      if (n > (SIZE_MAX - 9) / 10 || *i - start >= 20)
        return -1;
      n = n * 10 + (size_t) (buf[*i] - '0');
      (*i)++;
    }
  if (*i == start)
    return -1;
  *out = n;
  return 0;
}

/* The next `n` bytes of the body: they begin at off + *need; -1 when the
 * frame's end would not fit in a size_t. */
static int
take (size_t *need, size_t off, size_t n, size_t *at)
{
  if (*need > SIZE_MAX - off || n > SIZE_MAX - off - *need)
    return -1;
  *at = off + *need;
  *need += n;
  return 0;
}

int
sched_frame_parse (const char *buf, size_t len, sched_frame_t *f)
{
  const char *nl
      = len ? memchr (buf, '\n', len < SCHED_FRAME_HEADER_MAX ? len : SCHED_FRAME_HEADER_MAX)
            : NULL;
  size_t i = 0, end, need, off;

  if (nl == NULL)
    return len < SCHED_FRAME_HEADER_MAX ? 0 : -1;
  end = (size_t) (nl - buf);
  memset (f, 0, sizeof *f);
  /* The program's own file name, first when there is one. */
  if (i < end && buf[i] == 'n')
    {
      i++;
      if (frame_number (buf, end, &i, &f->code_name_len) < 0 || f->code_name_len == 0
          || f->code_name_len > SCHED_MAX_FILE_NAME || i >= end || buf[i++] != ' ')
        return -1;
    }
  if (frame_number (buf, end, &i, &f->code_len) < 0)
    return -1;
  while (i < end)
    {
      if (buf[i] != ' ')
        return -1;
      i++;
      if (i < end && buf[i] == 'f')
        {
          /* A file: f<name length>:<size>; files come after the args. */
          i++;
          if (f->n_files == SCHED_MAX_FILES
              || frame_number (buf, end, &i, &f->name_len[f->n_files]) < 0 || i >= end
              || buf[i++] != ':' || frame_number (buf, end, &i, &f->file_len[f->n_files]) < 0)
            return -1;
          f->n_files++;
          continue;
        }
      if (f->n_files > 0 || f->n_args == SCHED_MAX_ARGS
          || frame_number (buf, end, &i, &f->arg_len[f->n_args]) < 0)
        return -1;
      f->n_args++;
    }
  off = end + 1;
  need = 0;
  if (take (&need, off, f->code_name_len, &f->code_name_off) < 0
      || take (&need, off, f->code_len, &f->code_off) < 0)
    return -1;
  for (size_t k = 0; k < f->n_args; k++)
    if (take (&need, off, f->arg_len[k], &f->arg_off[k]) < 0)
      return -1;
  for (size_t k = 0; k < f->n_files; k++)
    if (take (&need, off, f->name_len[k], &f->name_off[k]) < 0
        || take (&need, off, f->file_len[k], &f->file_off[k]) < 0)
      return -1;
  if (len - off < need)
    return 0;
  f->stdin_off = off + need;
  return 1;
}

/* cli/repl.c: see cli/repl.h.
 *
 * An entry is one line, or several: a line ending in ':' or '\', or one
 * that leaves a bracket open, goes on until a blank line (Python's
 * blocks; a continued line in any language).  Each entry is one call of
 * the session (POST /v1/sessions/{id}/executions): a fresh container that
 * gets the session's files and, in Python, its names.  Ctrl-C while an
 * entry runs abandons it (warmboxd kills its container; the session keeps
 * its state from before); Ctrl-C while typing drops the entry; Ctrl-D
 * ends the session and leaves. */
#define _GNU_SOURCE
#include "repl.h"
#include "client.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int interrupted;

static void
on_sigint (int sig)
{
  (void) sig;
  atomic_store (&interrupted, 1);
}

static inline void
cleanup_jsonp (cJSON **j)
{
  cJSON_Delete (*j);
}
#define cleanup_json __attribute__ ((cleanup (cleanup_jsonp)))

/* Does text (an entry so far) want another line? */
static bool
continues (const char *text, size_t len)
{
  int depth = 0;
  char quote = 0;
  size_t end = len;

  for (size_t i = 0; i < len; i++)
    {
      char c = text[i];
      if (quote)
        {
          if (c == '\\')
            i++;
          else if (c == quote)
            quote = 0;
          continue;
        }
      if (c == '"' || c == '\'')
        quote = c;
      else if (c == '#')
        while (i + 1 < len && text[i + 1] != '\n')
          i++;
      else if (c == '(' || c == '[' || c == '{')
        depth++;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0)
        depth--;
    }
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ' || text[end - 1] == '\t'))
    end--;
  return depth > 0 || (end > 0 && (text[end - 1] == ':' || text[end - 1] == '\\'));
}

static void
emit (cJSON *res, const char *name, FILE *to)
{
  char key[40];
  const char *data = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, name));

  snprintf (key, sizeof key, "%s_encoding", name);
  const char *enc = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, key));
  cli_write_data (data, enc, to);
}

/* A new session of language into id; false with the reason on stderr. */
static bool
new_session (const char *url, const char *language, char *id, size_t id_len)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  cleanup_buf wb_buf_t reply = WB_BUF_INIT;
  cleanup_json cJSON *req = cJSON_CreateObject ();
  char why[512], *text;

  if (req == NULL || !cJSON_AddStringToObject (req, "language", language)
      || (text = cJSON_PrintUnformatted (req)) == NULL)
    return false;
  int bad = wb_buf_append_str (&body, text);
  cJSON_free (text);
  if (bad < 0)
    return false;
  long http = cli_call_daemon (url, "POST", "/v1/sessions", &body, &reply, NULL, why, sizeof why);
  cleanup_json cJSON *res = cJSON_ParseWithLength (reply.data ? reply.data : "", reply.len);
  const char *got = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, "id"));
  if (http < 0)
    fprintf (stderr, "warmbox: %s\n", why);
  else if (http != 201 || got == NULL || strlen (got) >= id_len)
    {
      const char *msg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (
          cJSON_GetObjectItemCaseSensitive (res, "error"), "message"));
      fprintf (stderr, "warmbox: no session: %s (HTTP %ld)\n", msg ? msg : "refused", http);
    }
  else
    {
      snprintf (id, id_len, "%s", got);
      return true;
    }
  return false;
}

/* Run one entry; false when the session is gone and could not be made
 * again. */
static bool
run_entry (const char *url, const char *language, char *id, size_t id_len, const char *code)
{
  for (int attempt = 0; attempt < 2; attempt++)
    {
      cleanup_buf wb_buf_t body = WB_BUF_INIT;
      cleanup_buf wb_buf_t reply = WB_BUF_INIT;
      cleanup_json cJSON *req = cJSON_CreateObject ();
      char why[512], path[160], *text;

      if (req == NULL || !cJSON_AddStringToObject (req, "code", code)
          || (text = cJSON_PrintUnformatted (req)) == NULL)
        return false;
      int bad = wb_buf_append_str (&body, text);
      cJSON_free (text);
      if (bad < 0)
        return false;
      snprintf (path, sizeof path, "/v1/sessions/%s/executions", id);
      atomic_store (&interrupted, 0);
      long http = cli_call_daemon (url, "POST", path, &body, &reply, &interrupted, why, sizeof why);
      explicit_bzero (body.data, body.len);
      if (http < 0)
        {
          fprintf (stderr, "warmbox: %s\n",
                   atomic_load (&interrupted) ? "interrupted: the entry was stopped" : why);
          return true;
        }
      cleanup_json cJSON *res = cJSON_ParseWithLength (reply.data ? reply.data : "", reply.len);
      cJSON *e = cJSON_GetObjectItemCaseSensitive (res, "error");
      const char *msg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (e, "message"));
      if (http == 410 && attempt == 0)
        {
          fprintf (stderr, "warmbox: %s\nwarmbox: a new session: earlier state is gone\n",
                   msg ? msg : "the session ended");
          if (!new_session (url, language, id, id_len))
            return false;
          continue;
        }
      if (http != 200)
        {
          fprintf (stderr, "warmbox: %s (HTTP %ld)\n", msg ? msg : "refused", http);
          return true;
        }
      emit (res, "stdout", stdout);
      emit (res, "stderr", stderr);
      cJSON *w;
      cJSON_ArrayForEach (
          w, cJSON_GetObjectItemCaseSensitive (res, "warnings")) if (cJSON_IsString (w))
          fprintf (stderr, "warmbox: not kept: %s\n", w->valuestring);
      const char *status = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, "status"));
      if (status && strcmp (status, "ok") != 0)
        fprintf (stderr, "warmbox: %s\n",
                 strcmp (status, "timeout") == 0 ? "the entry ran out of time and was killed"
                 : strcmp (status, "oom") == 0   ? "the entry ran out of memory and was killed"
                 : strcmp (status, "output_limit") == 0
                     ? "the entry's output hit its limit; it was killed"
                     : "the sandbox failed while the entry ran");
      return true;
    }
  return true;
}

int
cli_repl (const char *url, int argc, char **argv)
{
  char id[96];
  cleanup_buf wb_buf_t entry = WB_BUF_INIT;
  char *line = NULL;
  size_t cap = 0;
  bool tty = isatty (0), in_block = false;
  struct sigaction sa;

  if (argc != 2 || argv[1][0] == '-')
    {
      fputs ("usage: warmbox repl LANGUAGE\n", stderr);
      return 2;
    }
  const char *language = argv[1];
  if (!new_session (url, language, id, sizeof id))
    return 125;
  fprintf (stderr,
           "warmbox repl: %s, session %s\nEach entry runs in a fresh container with the "
           "session's files%s. Ctrl-D leaves.\n",
           language, id, strcmp (language, "python") == 0 ? " and names" : "");
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint; /* no SA_RESTART: a read is interrupted */
  sigaction (SIGINT, &sa, NULL);
  for (;;)
    {
      if (tty || getenv ("WARMBOX_REPL_PROMPT"))
        {
          fputs (in_block ? "... " : ">>> ", stdout);
          fflush (stdout);
        }
      errno = 0;
      ssize_t n = getline (&line, &cap, stdin);
      if (n < 0 && errno == EINTR)
        {
          clearerr (stdin);
          fputs ("\nKeyboardInterrupt\n", stdout);
          wb_buf_reset (&entry);
          in_block = false;
          continue;
        }
      if (n < 0)
        break;
      bool blank = strspn (line, " \t\r\n") == (size_t) n;
      if (entry.len == 0 && blank)
        continue;
      if (!blank && wb_buf_append (&entry, line, (size_t) n) < 0)
        break;
      /* A block (or a continued line) ends at a blank line. */
      if (!blank && (in_block || continues (entry.data, entry.len)))
        {
          in_block = true;
          continue;
        }
      in_block = false;
      if (!run_entry (url, language, id, sizeof id, entry.data))
        break;
      explicit_bzero (entry.data, entry.len);
      wb_buf_reset (&entry);
    }
  free (line);
  if (tty)
    fputc ('\n', stdout);
  /* The session ends with the REPL. */
  {
    char path[160], why[512];
    cleanup_buf wb_buf_t reply = WB_BUF_INIT;
    snprintf (path, sizeof path, "/v1/sessions/%s", id);
    (void) cli_call_daemon (url, "DELETE", path, NULL, &reply, NULL, why, sizeof why);
  }
  return 0;
}

/* cli/warmbox.c: the warmbox command, a thin client of warmboxd's HTTP API.
 *
 *   warmbox run LANGUAGE (-c CODE | FILE | -) [--stdin FILE] [--timeout MS]
 *               [--file PATH]... [--out DIR]
 *                        [--memory MB] [-- ARGS...]
 *   warmbox languages
 *   warmbox history | plan ...   (cli/history.c)
 *   warmbox mcp                  (cli/mcp.c)
 *
 * The daemon is found through --url or WARMBOX_URL (unix:/path.sock or
 * http://host:port); WARMBOX_TOKEN, when set, is sent as a bearer token. */
#define _GNU_SOURCE
#include "client.h"
#include "history.h"
#include "mcp.h"
#include "repl.h"
#include "warmbox/wb.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Exit codes of `warmbox run` when the program's own code is not the
 * answer: they follow timeout(1) and the shell's 128+signal. */
enum
{
  EXIT_USAGE = 2,
  EXIT_SANDBOX = 125, /* the daemon refused or failed */
  EXIT_TIMEOUT = 124,
  EXIT_OOM = 137,
  EXIT_COMPILE = 126, /* the program did not compile (it was not run) */
};

static const char usage_text[]
    = "Usage: warmbox [--url URL] [--cacert CA] [--cert CERT --key KEY] COMMAND ...\n"
      "\n"
      "  warmbox run LANGUAGE -c CODE [OPTIONS] [-- ARGS...]\n"
      "  warmbox run LANGUAGE FILE|- [OPTIONS] [-- ARGS...]   (- reads the code from stdin)\n"
      "      --stdin FILE|-    feed FILE (or this stdin) to the program's stdin\n"
      "      --timeout MS      wall-clock limit\n"
      "      --memory MB       memory limit\n"
      "      --file PATH       give the program PATH, by its base name, in its working\n"
      "                        directory (may repeat)\n"
      "      --out DIR         save the files the program left into DIR (never over an\n"
      "                        existing file); without it they are only listed\n"
      "      --json            print the daemon's JSON answer instead\n"
      "    Prints the program's stdout and stderr and exits with its exit code;\n"
      "    124 on timeout, 137 when out of memory, 126 when it did not compile (the\n"
      "    compiler's output on stderr), 125 when the sandbox refused or failed.\n"
      "  warmbox languages     list the languages and their limits\n"
      "  warmbox history [--since 1h] [--language L] [--status S] [--sha256 H [--key FILE]]\n"
      "                  [--limit N] [--json] [--db FILE | --config FILE]\n"
      "                        executions, newest first, from the history file (--sha256:\n"
      "                        a result's code_sha256, or of stdin or files, found by\n"
      "                        the history's key, DB.key unless --key)\n"
      "  warmbox plan [--window 24h] [--target-hit-rate 0.99] [--replay] [--min-ready N\n"
      "               --max-ready M] [--json] [--db FILE | --config FILE]\n"
      "                        recommended pool sizes from measured history\n"
      "  warmbox repl LANGUAGE  an interactive REPL: each entry runs in a fresh container\n"
      "                        with the files and (Python) the names of the entries\n"
      "                        before it (a session); Ctrl-D leaves\n"
      "  warmbox mcp [--max-output BYTES]\n"
      "                        a Model Context Protocol server on stdin/stdout with one\n"
      "                        tool, execute_code, run by the daemon (each stream shown\n"
      "                        to the model is cut at BYTES, default 16384)\n"
      "\n"
      "The daemon: --url or WARMBOX_URL (unix:/path.sock, http://host:port or\n"
      "https://host:port). Over HTTPS --cacert (WARMBOX_CACERT) names the CA that\n"
      "signed the daemon's certificate, --cert and --key (WARMBOX_CERT, WARMBOX_KEY)\n"
      "a client certificate when the daemon requires one.\n"
      "history and plan read the file of --db, else WARMBOX_DB, else store.path of\n"
      "--config FILE, else the daemon's default (/var/lib/warmbox/history.db as root).\n"
      "WARMBOX_TOKEN is sent as a bearer token when set.\n";

static int
read_stream (FILE *f, wb_buf_t *out)
{
  char chunk[65536];
  size_t n;

  while ((n = fread (chunk, 1, sizeof chunk, f)) > 0)
    if (wb_buf_append (out, chunk, n) < 0)
      return -1;
  return ferror (f) ? -1 : 0;
}

static int
read_path (const char *path, wb_buf_t *out)
{
  FILE *f;
  int rc;

  if (strcmp (path, "-") == 0)
    return read_stream (stdin, out);
  f = fopen (path, "rbe");
  if (f == NULL)
    return -1;
  rc = read_stream (f, out);
  fclose (f);
  return rc;
}

/* One request; -1 with the reason on stderr when the daemon can't be reached. */
static long
call_daemon (const char *url, const char *method, const char *path, const wb_buf_t *body,
             wb_buf_t *reply)
{
  char why[512];
  long status = cli_call_daemon (url, method, path, body, reply, NULL, why, sizeof why);

  if (status < 0)
    fprintf (stderr, "warmbox: %s\n", why);
  return status;
}

static void
print_api_error (long status, const wb_buf_t *reply)
{
  cJSON *root = cJSON_ParseWithLength (reply->data ? reply->data : "", reply->len);
  cJSON *e = cJSON_GetObjectItemCaseSensitive (root, "error");
  const char *msg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (e, "message"));

  fprintf (stderr, "warmbox: %s (HTTP %ld)\n", msg ? msg : "the daemon refused the request",
           status);
  cJSON_Delete (root);
}

/* A run's stream (cli_call_daemon_lines): chunks printed as they come,
 * the result kept (owned). */
typedef struct live
{
  cJSON *result, *error;
  unsigned long long skipped;
} live_t;

static void
live_line (void *arg, const char *line, size_t len)
{
  live_t *live = arg;
  cJSON *ln = cJSON_ParseWithLength (line, len);
  const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (ln, "type"));
  const char *data = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (ln, "data"));
  const char *enc = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (ln, "encoding"));

  if (type && data && (strcmp (type, "stdout") == 0 || strcmp (type, "stderr") == 0))
    {
      cli_write_data (data, enc, type[3] == 'o' ? stdout : stderr);
    }
  else if (type && strcmp (type, "skipped") == 0)
    {
      cJSON *a = cJSON_GetObjectItemCaseSensitive (ln, "stdout_bytes");
      cJSON *b = cJSON_GetObjectItemCaseSensitive (ln, "stderr_bytes");
      live->skipped += (unsigned long long) (cJSON_IsNumber (a) ? a->valuedouble : 0)
                       + (unsigned long long) (cJSON_IsNumber (b) ? b->valuedouble : 0);
    }
  else if (type && strcmp (type, "result") == 0 && live->result == NULL)
    {
      live->result = cJSON_DetachItemFromObjectCaseSensitive (ln, "result");
    }
  else if (((type && strcmp (type, "error") == 0) || (type == NULL && cJSON_IsObject (ln)))
           && live->error == NULL)
    {
      live->error = ln;
      ln = NULL;
    }
  cJSON_Delete (ln);
}

/* Write one captured stream to fd, decoding base64 when the daemon had to
 * use it (output that is not UTF-8, or holds NUL). */
static int
emit_stream (cJSON *root, const char *name, FILE *to)
{
  char key[32];
  const char *data = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, name));
  const char *enc;
  cleanup_buf wb_buf_t raw = WB_BUF_INIT;

  snprintf (key, sizeof key, "%s_encoding", name);
  enc = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, key));
  if (data == NULL)
    return 0;
  if (enc && strcmp (enc, "base64") == 0)
    {
      if (wb_base64_decode (&raw, data, strlen (data)) < 0)
        return -1;
    }
  else if (wb_buf_append_str (&raw, data) < 0)
    return -1;
  if (raw.len && fwrite (raw.data, 1, raw.len, to) != raw.len)
    return -1;
  return fflush (to) == 0 ? 0 : -1;
}

/* Write one returned file under dir: its name's folders made as needed,
 * never through a link, never over an existing file, nothing outside dir
 * (a name with an empty, "." or ".." part is refused). */
static int
save_file (int dirfd, const char *name, const char *data, size_t len)
{
  char part[1024];
  const char *p = name, *slash;
  int fd = dup (dirfd), next;

  if (fd < 0 || *name == '\0' || strlen (name) >= sizeof part)
    {
      if (fd >= 0)
        close (fd);
      errno = EINVAL;
      return -1;
    }
  for (;;)
    {
      size_t n;
      slash = strchr (p, '/');
      n = slash ? (size_t) (slash - p) : strlen (p);
      memcpy (part, p, n);
      part[n] = '\0';
      if (n == 0 || strcmp (part, ".") == 0 || strcmp (part, "..") == 0)
        {
          close (fd);
          errno = EINVAL;
          return -1;
        }
      if (slash == NULL)
        break;
      if (mkdirat (fd, part, 0755) < 0 && errno != EEXIST)
        break;
      next = openat (fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      close (fd);
      if ((fd = next) < 0)
        return -1;
      p = slash + 1;
    }
  if (slash != NULL)
    {
      close (fd);
      return -1;
    }
  next = openat (fd, part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  close (fd);
  if (next < 0)
    return -1;
  while (len > 0)
    {
      ssize_t w = write (next, data, len);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        {
          int e = errno;
          close (next);
          errno = e;
          return -1;
        }
      data += w;
      len -= (size_t) w;
    }
  return close (next);
}

/* The files the program left: saved under out_dir, or listed. */
static void
handle_files (cJSON *root, const char *out_dir)
{
  cJSON *files = cJSON_GetObjectItemCaseSensitive (root, "files"), *f;
  int n = cJSON_GetArraySize (files), dirfd = -1;
  double omitted = cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (root, "files_omitted"));

  if (n <= 0)
    return;
  if (out_dir && (dirfd = open (out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    fprintf (stderr, "warmbox: cannot open %s: %s; the files are not saved\n", out_dir,
             strerror (errno));
  if (dirfd < 0)
    fprintf (stderr, "warmbox: the program left %d file%s%s:", n, n == 1 ? "" : "s",
             out_dir ? "" : " (--out DIR saves them)");
  cJSON_ArrayForEach (f, files)
  {
    const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (f, "name"));
    const char *content = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (f, "content"));
    const char *enc = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (f, "encoding"));
    cleanup_buf wb_buf_t raw = WB_BUF_INIT;

    if (name == NULL)
      continue;
    if (dirfd < 0)
      {
        fprintf (stderr, " %s", name);
        continue;
      }
    if (content == NULL)
      {
        fprintf (stderr, "warmbox: %s not saved: its content was past the output limit\n", name);
        continue;
      }
    if (enc && strcmp (enc, "base64") == 0 ? wb_base64_decode (&raw, content, strlen (content)) < 0
                                           : wb_buf_append_str (&raw, content) < 0)
      fprintf (stderr, "warmbox: %s not saved: its content could not be decoded\n", name);
    else if (save_file (dirfd, name, raw.data ? raw.data : "", raw.len) < 0)
      fprintf (stderr, "warmbox: %s not saved: %s\n", name, strerror (errno));
  }
  if (dirfd < 0)
    fputs ("\n", stderr);
  else
    close (dirfd);
  if (omitted > 0)
    fprintf (stderr, "warmbox: %.0f more files were left and not returned\n", omitted);
}

static int
cmd_run (const char *url, int argc, char **argv)
{
  const char *code_arg = NULL, *stdin_path = NULL, *language, *file = NULL, *out_dir = NULL;
  long timeout = 0, memory = 0;
  bool json_out = false;
  cleanup_buf wb_buf_t files_json = WB_BUF_INIT;
  cleanup_buf wb_buf_t code = WB_BUF_INIT;
  cleanup_buf wb_buf_t in = WB_BUF_INIT;
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  cleanup_buf wb_buf_t reply = WB_BUF_INIT;
  cJSON *root;
  const char *status;
  long http;
  int i, first_arg, exit_code, bad = 0;

  /* argv[0] is "run".  Options may come anywhere before "--"; the first
   * operand is the language, the second the code file. */
  language = NULL;
  for (i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      bool has_value = i + 1 < argc;
      if (strcmp (a, "--") == 0)
        {
          i++;
          break;
        }
      if (strcmp (a, "-c") == 0 && has_value)
        code_arg = argv[++i];
      else if (strcmp (a, "--stdin") == 0 && has_value)
        stdin_path = argv[++i];
      else if (strcmp (a, "--timeout") == 0 && has_value)
        timeout = strtol (argv[++i], NULL, 10);
      else if (strcmp (a, "--memory") == 0 && has_value)
        memory = strtol (argv[++i], NULL, 10);
      else if (strcmp (a, "--json") == 0)
        json_out = true;
      else if (strcmp (a, "--out") == 0 && has_value)
        out_dir = argv[++i];
      else if (strcmp (a, "--file") == 0 && has_value)
        {
          const char *path = argv[++i], *base = strrchr (path, '/');
          cleanup_buf wb_buf_t data = WB_BUF_INIT;
          base = base ? base + 1 : path;
          if (read_path (path, &data) < 0)
            {
              fprintf (stderr, "warmbox run: cannot read %s: %s\n", path, strerror (errno));
              return EXIT_USAGE;
            }
          bad |= wb_buf_append_str (&files_json, files_json.len ? ",{\"name\":" : "{\"name\":");
          bad |= wb_json_append_string (&files_json, base, strlen (base));
          bad |= wb_buf_append_str (&files_json, ",\"encoding\":\"base64\",\"content\":\"");
          bad |= wb_base64_encode (&files_json, data.data ? data.data : "", data.len);
          bad |= wb_buf_append_str (&files_json, "\"}");
        }
      else if (a[0] == '-' && a[1] != '\0')
        {
          fprintf (stderr, "warmbox run: unknown or incomplete option %s\n%s", a, usage_text);
          return EXIT_USAGE;
        }
      else if (language == NULL)
        language = a;
      else if (file == NULL && code_arg == NULL)
        file = a;
      else
        {
          fprintf (stderr, "warmbox run: unexpected %s (program arguments go after --)\n", a);
          return EXIT_USAGE;
        }
    }
  first_arg = i;
  if (language == NULL)
    {
      fputs ("warmbox run: name a language\n", stderr);
      return EXIT_USAGE;
    }
  if (code_arg == NULL && file == NULL)
    {
      fputs ("warmbox run: give -c CODE, a FILE, or - for stdin\n", stderr);
      return EXIT_USAGE;
    }
  if (file)
    {
      if (read_path (file, &code) < 0)
        {
          fprintf (stderr, "warmbox run: cannot read %s: %s\n", file, strerror (errno));
          return EXIT_USAGE;
        }
    }
  else if (wb_buf_append_str (&code, code_arg) < 0)
    return EXIT_SANDBOX;
  if (stdin_path)
    {
      if (file && strcmp (file, "-") == 0 && strcmp (stdin_path, "-") == 0)
        {
          fputs ("warmbox run: stdin cannot carry both the code and the program's input\n", stderr);
          return EXIT_USAGE;
        }
      if (read_path (stdin_path, &in) < 0)
        {
          fprintf (stderr, "warmbox run: cannot read %s: %s\n", stdin_path, strerror (errno));
          return EXIT_USAGE;
        }
    }
  if (!wb_utf8_valid (code.data ? code.data : "", code.len)
      || memchr (code.data ? code.data : "", 0, code.len))
    {
      fputs ("warmbox run: the code must be UTF-8 text without NUL bytes\n", stderr);
      return EXIT_USAGE;
    }

  bad |= wb_buf_append_str (&body, "{\"language\":");
  bad |= wb_json_append_string (&body, language, strlen (language));
  bad |= wb_buf_append_str (&body, ",\"code\":");
  bad |= wb_json_append_string (&body, code.data ? code.data : "", code.len);
  if (in.len)
    {
      bad |= wb_buf_append_str (&body, ",\"stdin_base64\":\"");
      bad |= wb_base64_encode (&body, in.data, in.len);
      bad |= wb_buf_append_str (&body, "\"");
    }
  if (first_arg < argc)
    {
      bad |= wb_buf_append_str (&body, ",\"args\":[");
      for (i = first_arg; i < argc; i++)
        {
          if (i > first_arg)
            bad |= wb_buf_append_str (&body, ",");
          bad |= wb_json_append_string (&body, argv[i], strlen (argv[i]));
        }
      bad |= wb_buf_append_str (&body, "]");
    }
  if (timeout > 0)
    bad |= wb_buf_printf (&body, ",\"timeout_ms\":%ld", timeout);
  if (memory > 0)
    bad |= wb_buf_printf (&body, ",\"memory_mb\":%ld", memory);
  if (files_json.len)
    {
      bad |= wb_buf_append_str (&body, ",\"files\":[");
      bad |= wb_buf_append (&body, files_json.data, files_json.len);
      bad |= wb_buf_append_str (&body, "]");
    }
  if (bad < 0 || wb_buf_append_str (&body, "}") < 0)
    {
      fputs ("warmbox run: out of memory building the request\n", stderr);
      return EXIT_SANDBOX;
    }

  live_t live = {0};
  if (json_out)
    http = call_daemon (url, "POST", "/v1/executions", &body, &reply);
  else
    {
      /* The output as the program writes it; the result's line last. */
      char why[512];
      http = cli_call_daemon_lines (url, "POST", "/v1/executions", &body, live_line, &live, &reply,
                                    NULL, why, sizeof why);
      if (http < 0)
        fprintf (stderr, "warmbox: %s\n", why);
      if (http > 0 && http != 200 && reply.len == 0 && live.error)
        {
          /* An error's JSON is one line too. */
          char *text = cJSON_PrintUnformatted (live.error);
          if (text && wb_buf_append_str (&reply, text) < 0)
            wb_buf_reset (&reply);
          cJSON_free (text);
        }
      if (http == 200 && live.result == NULL)
        {
          /* The stream ended in an error line, or was cut. */
          const char *msg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (
              cJSON_GetObjectItemCaseSensitive (live.error, "error"), "message"));
          fprintf (stderr, "warmbox: %s\n", msg ? msg : "the daemon's stream ended early");
          cJSON_Delete (live.error);
          return EXIT_SANDBOX;
        }
      cJSON_Delete (live.error);
    }
  if (http < 0)
    return EXIT_SANDBOX;
  if (http != 200)
    {
      print_api_error (http, &reply);
      return EXIT_SANDBOX;
    }
  if (json_out)
    {
      fwrite (reply.data, 1, reply.len, stdout);
      return 0;
    }
  root = live.result;
  if (root == NULL)
    {
      fputs ("warmbox: the daemon's answer is not JSON\n", stderr);
      return EXIT_SANDBOX;
    }
  /* Shown live already; what a reader that fell behind was not sent is
   * said, not printed twice. */
  if (live.skipped)
    fprintf (stderr,
             "\nwarmbox: %llu bytes of output were not shown (the terminal was behind); "
             "--json has all of it\n",
             (unsigned long long) live.skipped);
  fflush (stdout);
  handle_files (root, out_dir);
  status = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "status"));
  cJSON *ec = cJSON_GetObjectItemCaseSensitive (root, "exit_code");
  exit_code = cJSON_IsNumber (ec) ? (int) ec->valuedouble : EXIT_SANDBOX;
  if (status && strcmp (status, "compile_error") == 0)
    {
      /* The compiler's words, on stderr; the program never ran. */
      cJSON *compile = cJSON_GetObjectItemCaseSensitive (root, "compile");
      if (emit_stream (compile, "stdout", stderr) < 0
          || emit_stream (compile, "stderr", stderr) < 0)
        fputs ("warmbox: could not write the compiler's output\n", stderr);
      fputs ("warmbox: the program did not compile; it was not run\n", stderr);
      cJSON_Delete (root);
      return EXIT_COMPILE;
    }
  if (status == NULL || strcmp (status, "ok") != 0)
    {
      const char *why = status ? status : "error";
      if (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (root, "stdout_truncated"))
          || cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (root, "stderr_truncated")))
        fputs ("\nwarmbox: output was cut at its limit\n", stderr);
      fprintf (
          stderr, "warmbox: %s\n",
          strcmp (why, "timeout") == 0         ? "the program ran out of time and was killed"
          : strcmp (why, "oom") == 0           ? "the program ran out of memory and was killed"
          : strcmp (why, "output_limit") == 0  ? "the program's output hit its limit; it was killed"
          : strcmp (why, "sandbox_error") == 0 ? "the sandbox ended before the program did (its "
                                                 "runtime or init stopped it); exit status unknown"
                                               : "the sandbox failed while the program ran");
      exit_code = strcmp (why, "timeout") == 0 ? EXIT_TIMEOUT
                  : strcmp (why, "oom") == 0   ? EXIT_OOM
                                               : EXIT_SANDBOX;
    }
  cJSON_Delete (root);
  return exit_code & 0xff;
}

static int
cmd_languages (const char *url)
{
  cleanup_buf wb_buf_t reply = WB_BUF_INIT;
  long http = call_daemon (url, "GET", "/v1/languages", NULL, &reply);
  cJSON *root, *item;

  if (http < 0)
    return EXIT_SANDBOX;
  if (http != 200)
    {
      print_api_error (http, &reply);
      return EXIT_SANDBOX;
    }
  root = cJSON_ParseWithLength (reply.data, reply.len);
  printf ("%-12s %-10s %-8s %s\n", "LANGUAGE", "VERSION", "RUNTIME", "READY");
  cJSON_ArrayForEach (item, cJSON_GetObjectItemCaseSensitive (root, "languages"))
  {
    const char *l = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "language"));
    const char *v = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "version"));
    const char *r = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "runtime"));
    printf ("%-12s %-10s %-8s %s\n", l ? l : "?", v ? v : "?", r ? r : "?",
            cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (item, "ready")) ? "yes" : "no");
  }
  cJSON_Delete (root);
  return 0;
}

/* --cacert, --cert, --key (VALUE next, or after '='): for every request
 * this process makes, through the environment cli_call_daemon reads.
 * True (and *i past it) when argv[*i] is one. */
static bool
tls_option (int argc, char **argv, int *i)
{
  static const char *const names[][2]
      = {{"--cacert", "WARMBOX_CACERT"}, {"--cert", "WARMBOX_CERT"}, {"--key", "WARMBOX_KEY"}};

  for (size_t k = 0; k < WB_ARRAY_SIZE (names); k++)
    {
      size_t l = strlen (names[k][0]);
      if (strncmp (argv[*i], names[k][0], l) != 0)
        continue;
      if (argv[*i][l] == '=')
        {
          setenv (names[k][1], argv[*i] + l + 1, 1);
          *i += 1;
          return true;
        }
      if (argv[*i][l] == '\0' && *i + 1 < argc)
        {
          setenv (names[k][1], argv[*i + 1], 1);
          *i += 2;
          return true;
        }
    }
  return false;
}

int
main (int argc, char **argv)
{
  char buf[512];
  const char *url = NULL;
  int i = 1, rc;

  while (i < argc && argv[i][0] == '-')
    {
      if (strcmp (argv[i], "--url") == 0 && i + 1 < argc)
        url = argv[i + 1], i += 2;
      else if (strncmp (argv[i], "--url=", 6) == 0)
        url = argv[i] + 6, i++;
      else if (tls_option (argc, argv, &i))
        continue;
      else if (strcmp (argv[i], "-h") == 0 || strcmp (argv[i], "--help") == 0)
        {
          fputs (usage_text, stdout);
          return 0;
        }
      else
        {
          fprintf (stderr, "warmbox: unknown option %s\n%s", argv[i], usage_text);
          return EXIT_USAGE;
        }
    }
  if (i >= argc)
    {
      fputs (usage_text, stderr);
      return EXIT_USAGE;
    }
  if (url == NULL)
    url = cli_default_url (buf, sizeof buf);
  curl_global_init (CURL_GLOBAL_DEFAULT);
  if (strcmp (argv[i], "run") == 0)
    rc = cmd_run (url, argc - i, argv + i);
  else if (strcmp (argv[i], "languages") == 0)
    rc = cmd_languages (url);
  else if (strcmp (argv[i], "history") == 0)
    rc = cli_history (argc - i, argv + i);
  else if (strcmp (argv[i], "plan") == 0)
    rc = cli_plan (argc - i, argv + i);
  else if (strcmp (argv[i], "mcp") == 0)
    rc = cli_mcp (url, argc - i, argv + i);
  else if (strcmp (argv[i], "repl") == 0)
    rc = cli_repl (url, argc - i, argv + i);
  else
    {
      fprintf (stderr, "warmbox: unknown command %s\n%s", argv[i], usage_text);
      rc = EXIT_USAGE;
    }
  curl_global_cleanup ();
  return rc;
}

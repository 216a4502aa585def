/* cli/mcp.c: see cli/mcp.h.
 *
 * Failures of the sandbox (timeout, memory, output limit, the daemon
 * refusing or unreachable) are tool results with isError: true, so the
 * model reads them; protocol failures (bad JSON-RPC, unknown method or
 * tool) are JSON-RPC errors.  What reaches the model is capped per stream
 * (--max-output), and a cut is said plainly. */
#define _GNU_SOURCE
#include "mcp.h"
#include "client.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define MCP_MAX_LINE (32u * 1024 * 1024) /* a message holding 16 MiB of stdin, escaped */
#define MCP_MAX_CALLS 64                 /* tools/call in flight */
#define MCP_DEFAULT_OUTPUT 16384         /* bytes of each stream shown to the model */
#define MCP_MAX_SESSIONS 16              /* languages with a session of their own */

/* Newest first; an unknown requested version gets the first. */
static const char *const protocol_versions[]
    = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

enum
{
  RPC_PARSE_ERROR = -32700,
  RPC_INVALID_REQUEST = -32600,
  RPC_METHOD_NOT_FOUND = -32601,
  RPC_INVALID_PARAMS = -32602,
};

typedef struct mcp_call
{
  bool used;
  cJSON *id;       /* the request's id (owned) */
  char *arguments; /* tools/call arguments, compact JSON (owned) */
  cJSON *progress; /* params._meta.progressToken, or NULL (owned) */
  atomic_int cancel;
} mcp_call_t;

static struct
{
  const char *url;
  size_t max_output;
  FILE *out;            /* stdout, or what a fuzzer gives */
  pthread_mutex_t lock; /* out, calls[], in_flight */
  pthread_cond_t idle;
  mcp_call_t calls[MCP_MAX_CALLS];
  int in_flight;
  /* This client's sessions, one per language (the process serves one
   * client): state persists between its calls (docs/agents.md). */
  struct
  {
    char language[40];
    char id[96];
  } sessions[MCP_MAX_SESSIONS];
  bool no_sessions; /* the daemon has none (an older one): plain executions */
} mcp = {.lock = PTHREAD_MUTEX_INITIALIZER, .idle = PTHREAD_COND_INITIALIZER};

static inline void
cleanup_jsonp (cJSON **j)
{
  cJSON_Delete (*j);
}
#define cleanup_json __attribute__ ((cleanup (cleanup_jsonp)))

/* ---- output ------------------------------------------------------------ */

/* Takes msg.  One line on the output, whole, under the lock. */
static void
send_message (cJSON *msg)
{
  char *text = msg ? cJSON_PrintUnformatted (msg) : NULL;

  cJSON_Delete (msg);
  if (text == NULL)
    {
      fprintf (stderr, "warmbox mcp: out of memory encoding a reply\n");
      return;
    }
  pthread_mutex_lock (&mcp.lock);
  fputs (text, mcp.out);
  fputc ('\n', mcp.out);
  fflush (mcp.out);
  pthread_mutex_unlock (&mcp.lock);
  cJSON_free (text);
}

static cJSON *
envelope (const cJSON *id)
{
  cJSON *msg = cJSON_CreateObject ();
  if (msg == NULL)
    return NULL;
  cJSON_AddStringToObject (msg, "jsonrpc", "2.0");
  cJSON_AddItemToObject (msg, "id", id ? cJSON_Duplicate (id, true) : cJSON_CreateNull ());
  return msg;
}

static void
send_result (const cJSON *id, cJSON *result)
{
  cJSON *msg = envelope (id);
  if (msg == NULL || result == NULL)
    {
      cJSON_Delete (msg);
      cJSON_Delete (result);
      return;
    }
  cJSON_AddItemToObject (msg, "result", result);
  send_message (msg);
}

static void
send_error (const cJSON *id, int code, const char *message)
{
  cJSON *msg = envelope (id), *err = cJSON_CreateObject ();
  if (msg == NULL || err == NULL)
    {
      cJSON_Delete (msg);
      cJSON_Delete (err);
      return;
    }
  cJSON_AddNumberToObject (err, "code", code);
  cJSON_AddStringToObject (err, "message", message);
  cJSON_AddItemToObject (msg, "error", err);
  send_message (msg);
}

/* {content: [{type: text, text}], isError} */
static cJSON *
tool_result (const char *text, bool is_error)
{
  cJSON *res = cJSON_CreateObject (), *content, *item;
  if (res == NULL)
    return NULL;
  content = cJSON_AddArrayToObject (res, "content");
  item = cJSON_CreateObject ();
  if (content == NULL || item == NULL)
    {
      cJSON_Delete (item);
      cJSON_Delete (res);
      return NULL;
    }
  cJSON_AddStringToObject (item, "type", "text");
  cJSON_AddStringToObject (item, "text", text);
  cJSON_AddItemToArray (content, item);
  cJSON_AddBoolToObject (res, "isError", is_error);
  return res;
}

/* ---- execute_code ------------------------------------------------------ */

/* The text for the model is built in pieces: a piece memory cannot hold
 * makes the helpers below return -1, and the result is then an error,
 * never a text with a hole in it. */
static int
append_stream_as (wb_buf_t *text, cJSON *res, const char *name, const char *label)
{
  char key[32];
  const char *data = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, name));
  const char *enc;
  cleanup_buf wb_buf_t raw = WB_BUF_INIT;
  size_t shown;
  int bad = 0;

  snprintf (key, sizeof key, "%s_encoding", name);
  enc = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, key));
  if (data == NULL)
    return 0;
  if (enc && strcmp (enc, "base64") == 0)
    {
      if (wb_base64_decode (&raw, data, strlen (data)) < 0)
        return wb_buf_printf (text, "\n%s: (could not be decoded)\n", label);
    }
  else if (wb_buf_append_str (&raw, data) < 0)
    return -1;
  if (raw.len == 0)
    return wb_buf_printf (text, "\n%s: (empty)\n", label);
  bad |= wb_buf_printf (text, "\n--- %s ---\n", label);
  shown = wb_utf8_sanitize (text, raw.data, raw.len, mcp.max_output, true);
  if (shown == (size_t) -1)
    return -1;
  if (text->len && text->data[text->len - 1] != '\n')
    bad |= wb_buf_append_str (text, "\n");
  if (shown < raw.len)
    bad |= wb_buf_printf (text, "[%s cut for the model: showing the first %zu of %zu bytes]\n",
                          name, shown, raw.len);
  snprintf (key, sizeof key, "%s_truncated", name);
  if (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (res, key)))
    bad |= wb_buf_printf (
        text, "[%s reached the sandbox's output limit: the program was stopped there]\n", name);
  if (enc && strcmp (enc, "base64") == 0)
    bad |= wb_buf_printf (text, "[%s was not UTF-8 text; undecodable bytes are shown as U+FFFD]\n",
                          name);
  return bad < 0 ? -1 : 0;
}

static int
append_stream (wb_buf_t *text, cJSON *res, const char *name)
{
  return append_stream_as (text, res, name, name);
}

/* The MIME type of an image the model can be shown, by its first bytes;
 * NULL for anything else. */
static const char *
image_type (const wb_buf_t *raw)
{
  static const struct
  {
    const char *magic;
    size_t len;
    const char *type;
  } kinds[] = {{"\x89PNG\r\n\x1a\n", 8, "image/png"},
               {"\xff\xd8\xff", 3, "image/jpeg"},
               {"GIF8", 4, "image/gif"}};

  for (size_t i = 0; i < WB_ARRAY_SIZE (kinds); i++)
    if (raw->len >= kinds[i].len && memcmp (raw->data, kinds[i].magic, kinds[i].len) == 0)
      return kinds[i].type;
  return NULL;
}

/* An image past this (decoded) is listed, not shown: a model's context
 * is no place for it. */
#define MCP_IMAGE_MAX (4 * 1024 * 1024)

/* The files the program left: images become image content for the model
 * (the bytes as they came, base64); text files are shown in the text (each
 * cut like the streams, and all of them together at four times that);
 * other files, and those sent without content, are listed with their size
 * and hash. */
static int
append_files (wb_buf_t *text, cJSON *res, cJSON *images)
{
  cJSON *files = cJSON_GetObjectItemCaseSensitive (res, "files"), *f;
  double omitted = cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (res, "files_omitted"));
  size_t text_left = 4 * mcp.max_output;
  int bad = 0;

  cJSON_ArrayForEach (f, files)
  {
    const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (f, "name"));
    const char *content = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (f, "content"));
    const char *enc = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (f, "encoding"));
    const char *sha = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (f, "sha256"));
    double size = cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (f, "size"));
    cleanup_buf wb_buf_t raw = WB_BUF_INIT;
    const char *mime;
    size_t shown;

    if (name == NULL)
      continue;
    if (content == NULL)
      {
        bad |= wb_buf_printf (
            text,
            "\nfile %s: %.0f bytes, sha256 %.12s… (content not returned: past the "
            "sandbox's output limit)\n",
            name, size, sha ? sha : "");
        continue;
      }
    if (enc && strcmp (enc, "base64") == 0 && strlen (content) / 4 * 3 > MCP_IMAGE_MAX + 3)
      {
        bad |= wb_buf_printf (text,
                              "\nfile %s: %.0f bytes, binary, sha256 %.12s… (too large to show)\n",
                              name, size, sha ? sha : "");
        continue;
      }
    if (enc && strcmp (enc, "base64") == 0 ? wb_base64_decode (&raw, content, strlen (content)) < 0
                                           : wb_buf_append_str (&raw, content) < 0)
      {
        bad |= wb_buf_printf (text, "\nfile %s: %.0f bytes (could not be decoded)\n", name, size);
        continue;
      }
    if (enc && strcmp (enc, "base64") == 0 && (mime = image_type (&raw)) != NULL)
      {
        cJSON *img = cJSON_CreateObject ();
        if (img && cJSON_AddStringToObject (img, "type", "image")
            && cJSON_AddStringToObject (img, "data", content)
            && cJSON_AddStringToObject (img, "mimeType", mime))
          {
            cJSON_AddItemToArray (images, img);
            bad |= wb_buf_printf (text, "\nfile %s: %.0f bytes, %s (shown as an image)\n", name,
                                  size, mime);
          }
        else
          cJSON_Delete (img);
        continue;
      }
    if (enc && strcmp (enc, "base64") == 0)
      {
        bad |= wb_buf_printf (text, "\nfile %s: %.0f bytes, binary, sha256 %.12s…\n", name, size,
                              sha ? sha : "");
        continue;
      }
    if (text_left == 0)
      {
        bad |= wb_buf_printf (
            text, "\nfile %s: %.0f bytes of text (not shown: enough files shown already)\n", name,
            size);
        continue;
      }
    bad |= wb_buf_printf (text, "\n--- file %s (%.0f bytes) ---\n", name, size);
    shown = wb_utf8_sanitize (text, raw.data ? raw.data : "", raw.len,
                              mcp.max_output < text_left ? mcp.max_output : text_left, true);
    if (shown == (size_t) -1)
      return -1;
    text_left -= shown < text_left ? shown : text_left;
    if (text->len && text->data[text->len - 1] != '\n')
      bad |= wb_buf_append_str (text, "\n");
    if (shown < raw.len)
      bad |= wb_buf_printf (text, "[file cut for the model: showing the first %zu of %zu bytes]\n",
                            shown, raw.len);
  }
  if (omitted > 0)
    bad |= wb_buf_printf (text, "\n[%.0f more files were left and not listed]\n", omitted);
  return bad < 0 ? -1 : 0;
}

/* The answer of POST /v1/executions as text for the model, and the
 * images it made as image content. */
static cJSON *
describe_result (long http, const wb_buf_t *reply)
{
  cleanup_json cJSON *res = cJSON_ParseWithLength (reply->data ? reply->data : "", reply->len);
  cleanup_buf wb_buf_t text = WB_BUF_INIT;
  const char *status, *message;
  cJSON *exit_code;
  bool failed;
  int bad = 0;

  if (http != 200)
    {
      cJSON *e = cJSON_GetObjectItemCaseSensitive (res, "error");
      message = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (e, "message"));
      if (wb_buf_printf (&text, "warmbox refused to run the code (HTTP %ld): %s", http,
                         message ? message : "no reason given")
          < 0)
        return NULL;
      return tool_result (text.data, true);
    }
  status = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, "status"));
  exit_code = cJSON_GetObjectItemCaseSensitive (res, "exit_code");
  if (status == NULL)
    return tool_result ("warmbox answered with something that is not an execution result", true);
  failed = strcmp (status, "ok") != 0;
  cJSON *compile = cJSON_GetObjectItemCaseSensitive (res, "compile");
  if (strcmp (status, "compile_error") == 0)
    {
      /* What the model needs to fix the program: the compiler's words. */
      const char *cst = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (compile, "status"));
      cJSON *cec = cJSON_GetObjectItemCaseSensitive (compile, "exit_code");
      bad |= wb_buf_printf (&text,
                            "compile error: the program did not compile and was not run (%s%s",
                            cst && strcmp (cst, "timeout") == 0 ? "the compiler ran out of time"
                            : cst && strcmp (cst, "killed") == 0
                                ? "the compiler was killed, likely at the memory limit"
                                : "compiler exit status ",
                            "");
      if (cst && strcmp (cst, "error") == 0 && cJSON_IsNumber (cec))
        bad |= wb_buf_printf (&text, "%d", cec->valueint);
      bad |= wb_buf_append_str (&text, ")");
      bad |= append_stream_as (&text, compile, "stderr", "compiler output");
      if (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (compile, "stdout"))
          && *cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (compile, "stdout")))
        bad |= append_stream_as (&text, compile, "stdout", "compiler stdout");
      if (bad < 0)
        return NULL;
      return tool_result (text.data ? text.data : "", true);
    }
  if (!failed)
    bad |= wb_buf_printf (&text, "exit status %d",
                          cJSON_IsNumber (exit_code) ? exit_code->valueint : -1);
  else if (strcmp (status, "timeout") == 0)
    bad |= wb_buf_printf (&text, "timed out: the program was killed at its time limit");
  else if (strcmp (status, "oom") == 0)
    bad |= wb_buf_printf (&text, "out of memory: the program was killed at its memory limit");
  else if (strcmp (status, "output_limit") == 0)
    bad |= wb_buf_printf (&text, "output limit: the program printed too much and was killed");
  else if (strcmp (status, "sandbox_error") == 0)
    /* Not the program's exit: say so, or a model reads the output as the
     * whole of what it did. */
    bad |= wb_buf_printf (
        &text,
        "sandbox error: the sandbox ended before the program did (its runtime or its init "
        "stopped it, e.g. too many processes under gVisor, or the program killed its parent); "
        "its exit status is unknown and its output may be cut short");
  else
    {
      message = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, "error"));
      bad |= wb_buf_printf (&text, "the sandbox failed: %s", message ? message : status);
    }
  /* A compiler's warnings are worth the model's reading too. */
  if (cJSON_IsObject (compile)
      && cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (compile, "stderr"))
      && *cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (compile, "stderr")))
    bad |= append_stream_as (&text, compile, "stderr", "compiler warnings");
  bad |= append_stream (&text, res, "stdout");
  bad |= append_stream (&text, res, "stderr");
  cleanup_json cJSON *images = cJSON_CreateArray ();
  if (images)
    bad |= append_files (&text, res, images);
  /* What the session could not carry to the next call. */
  cJSON *warning;
  cJSON_ArrayForEach (
      warning, cJSON_GetObjectItemCaseSensitive (res, "warnings")) if (cJSON_IsString (warning)) bad
      |= wb_buf_printf (&text, "\nnot kept for the next call: %s", warning->valuestring);
  if (bad < 0)
    return NULL; /* the caller answers "out of memory" */
  cJSON *out = tool_result (text.data ? text.data : "", failed);
  cJSON *content = cJSON_GetObjectItemCaseSensitive (out, "content");
  while (out && content && images && cJSON_GetArraySize (images) > 0)
    cJSON_AddItemToArray (content, cJSON_DetachItemFromArray (images, 0));
  return out;
}

/* ---- sessions --------------------------------------------------------- */

/* This client's session for language into id: the one it has, or a new
 * one.  1 with id, 0 when the daemon has no sessions (then plain
 * executions), -1 with why when it cannot be reached. */
static int
session_for (const char *language, bool fresh, char *id, size_t id_len, const atomic_int *cancel,
             char *why, size_t why_len, wb_buf_t *note)
{
  cleanup_buf wb_buf_t req = WB_BUF_INIT;
  cleanup_buf wb_buf_t reply = WB_BUF_INIT;
  cleanup_json cJSON *body = cJSON_CreateObject ();
  cleanup_json cJSON *res = NULL;
  size_t free_slot = MCP_MAX_SESSIONS;
  const char *got;
  char *text;
  long http;

  pthread_mutex_lock (&mcp.lock);
  for (size_t i = 0; i < MCP_MAX_SESSIONS; i++)
    if (mcp.sessions[i].id[0] && strcmp (mcp.sessions[i].language, language) == 0)
      {
        if (fresh)
          mcp.sessions[i].id[0] = '\0';
        else
          {
            snprintf (id, id_len, "%s", mcp.sessions[i].id);
            pthread_mutex_unlock (&mcp.lock);
            return 1;
          }
      }
  bool none = mcp.no_sessions;
  pthread_mutex_unlock (&mcp.lock);
  if (none || body == NULL || !cJSON_AddStringToObject (body, "language", language)
      || (text = cJSON_PrintUnformatted (body)) == NULL)
    return 0;
  int bad = wb_buf_append_str (&req, text);
  cJSON_free (text);
  if (bad < 0)
    return 0;
  http = cli_call_daemon (mcp.url, "POST", "/v1/sessions", &req, &reply, cancel, why, why_len);
  if (http < 0)
    return -1;
  res = cJSON_ParseWithLength (reply.data ? reply.data : "", reply.len);
  got = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (res, "id"));
  if (http != 201 || got == NULL || strlen (got) >= id_len
      || strlen (got) >= sizeof mcp.sessions[0].id)
    {
      /* No such endpoint: a daemon without sessions.  Anything else (an
       * unknown language, the caps) the plain execution will say. */
      if (http == 404 && strstr (reply.data ? reply.data : "", "no such endpoint"))
        {
          pthread_mutex_lock (&mcp.lock);
          mcp.no_sessions = true;
          pthread_mutex_unlock (&mcp.lock);
        }
      else if (http != 404)
        {
          /* Refused (too many sessions, busy): this call runs without one,
           * and the model is told that nothing of it will persist. */
          const char *msg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (
              cJSON_GetObjectItemCaseSensitive (res, "error"), "message"));
          if (wb_buf_printf (note,
                             "note: no session could be had (%s); this call ran on its own, and "
                             "nothing of it persists to the next.\n",
                             msg ? msg : "refused")
              < 0)
            return -1;
        }
      return 0;
    }
  snprintf (id, id_len, "%s", got);
  pthread_mutex_lock (&mcp.lock);
  for (size_t i = 0; i < MCP_MAX_SESSIONS; i++)
    if (mcp.sessions[i].id[0] == '\0' || strcmp (mcp.sessions[i].language, language) == 0)
      {
        free_slot = i;
        break;
      }
  if (free_slot < MCP_MAX_SESSIONS && strlen (language) < sizeof mcp.sessions[0].language)
    {
      snprintf (mcp.sessions[free_slot].language, sizeof mcp.sessions[0].language, "%s", language);
      snprintf (mcp.sessions[free_slot].id, sizeof mcp.sessions[0].id, "%s", got);
    }
  pthread_mutex_unlock (&mcp.lock);
  return 1;
}

/* A call whose client asked for progress (params._meta.progressToken):
 * the output, as the daemon streams it, goes out as
 * notifications/progress while the run lasts; the result's line becomes
 * the reply. */
typedef struct progress
{
  const cJSON *token;
  wb_buf_t *reply;
  double bytes;
} progress_t;

#define PROGRESS_TEXT_MAX 4096 /* of each chunk, in a notification */

static void
progress_line (void *arg, const char *line, size_t len)
{
  progress_t *pr = arg;
  cleanup_json cJSON *ln = cJSON_ParseWithLength (line, len);
  const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (ln, "type"));
  const char *data = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (ln, "data"));
  const char *enc = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (ln, "encoding"));

  if (type && data && (strcmp (type, "stdout") == 0 || strcmp (type, "stderr") == 0))
    {
      cleanup_buf wb_buf_t raw = WB_BUF_INIT;
      cleanup_buf wb_buf_t text = WB_BUF_INIT;
      bool binary = enc && strcmp (enc, "base64") == 0;
      if (binary && wb_base64_decode (&raw, data, strlen (data)) < 0)
        return;
      const char *bytes = binary ? raw.data : data;
      size_t n = binary ? raw.len : strlen (data);
      pr->bytes += (double) n;
      int bad = wb_buf_printf (&text, "%s: ", type);
      if (!binary || wb_utf8_valid (bytes, n))
        bad |= wb_utf8_sanitize (&text, bytes ? bytes : "", n, PROGRESS_TEXT_MAX, true)
                       == (size_t) -1
                   ? -1
                   : 0;
      else
        bad |= wb_buf_printf (&text, "[%zu bytes that are not text]", n);
      cJSON *msg = cJSON_CreateObject (), *params;
      if (bad < 0 || msg == NULL || !cJSON_AddStringToObject (msg, "jsonrpc", "2.0")
          || !cJSON_AddStringToObject (msg, "method", "notifications/progress")
          || (params = cJSON_AddObjectToObject (msg, "params")) == NULL
          || !cJSON_AddItemToObject (params, "progressToken", cJSON_Duplicate (pr->token, true))
          || !cJSON_AddNumberToObject (params, "progress", pr->bytes)
          || !cJSON_AddStringToObject (params, "message", text.data ? text.data : ""))
        {
          cJSON_Delete (msg);
          return;
        }
      send_message (msg);
      return;
    }
  /* The result's line, or an answer that is no stream (an error). */
  wb_buf_reset (pr->reply);
  if (type && strcmp (type, "result") == 0)
    {
      char *text = cJSON_PrintUnformatted (cJSON_GetObjectItemCaseSensitive (ln, "result"));
      if (text && wb_buf_append_str (pr->reply, text) < 0)
        wb_buf_reset (pr->reply);
      cJSON_free (text);
    }
  else if (wb_buf_append (pr->reply, line, len) < 0)
    wb_buf_reset (pr->reply);
}

/* One POST: streamed to progress notifications when the client asked. */
static long
post (const char *path, const wb_buf_t *req, wb_buf_t *reply, const cJSON *progress,
      const atomic_int *cancel, char *why, size_t why_len)
{
  if (progress == NULL)
    return cli_call_daemon (mcp.url, "POST", path, req, reply, cancel, why, why_len);
  cleanup_buf wb_buf_t rest = WB_BUF_INIT;
  progress_t pr = {progress, reply, 0};
  long http = cli_call_daemon_lines (mcp.url, "POST", path, req, progress_line, &pr, &rest, cancel,
                                     why, why_len);
  if (rest.len && wb_buf_append (reply, rest.data, rest.len) < 0)
    return -1;
  return http;
}

/* The execution of req in language's session (a new one if it ended:
 * *note then says so), or a plain one when the daemon has no sessions. */
static long
run_in_session (const char *language, const wb_buf_t *req, wb_buf_t *reply, const cJSON *progress,
                const atomic_int *cancel, char *why, size_t why_len, wb_buf_t *note)
{
  char id[96], path[160];
  long http = 0;

  for (int attempt = 0; attempt < 2; attempt++)
    {
      int has = session_for (language, attempt > 0, id, sizeof id, cancel, why, why_len, note);
      if (has < 0)
        return -1;
      if (has == 0)
        break;
      snprintf (path, sizeof path, "/v1/sessions/%s/executions", id);
      wb_buf_reset (reply);
      http = post (path, req, reply, progress, cancel, why, why_len);
      if (http != 410)
        return http;
      /* It ended (idle, or the daemon restarted): a new one, said plainly. */
      cleanup_json cJSON *e = cJSON_ParseWithLength (reply->data ? reply->data : "", reply->len);
      const char *msg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (
          cJSON_GetObjectItemCaseSensitive (e, "error"), "message"));
      if (wb_buf_printf (note,
                         "note: the session that kept your earlier %s state had ended (%s); this "
                         "call ran in a new one, so variables and files from earlier calls are "
                         "gone.\n",
                         language, msg ? msg : "session_expired")
          < 0)
        return -1;
    }
  wb_buf_reset (reply);
  return post ("/v1/executions", req, reply, progress, cancel, why, why_len);
}

/* note, then the result's first text. */
static cJSON *
with_note (cJSON *result, const wb_buf_t *note)
{
  cJSON *first = cJSON_GetArrayItem (cJSON_GetObjectItemCaseSensitive (result, "content"), 0);
  const char *was = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (first, "text"));
  cleanup_buf wb_buf_t text = WB_BUF_INIT;

  if (result == NULL || note->len == 0 || was == NULL)
    return result;
  if (wb_buf_append (&text, note->data, note->len) < 0 || wb_buf_append_str (&text, was) < 0
      || !cJSON_ReplaceItemInObjectCaseSensitive (first, "text", cJSON_CreateString (text.data)))
    {
      cJSON_Delete (result);
      return NULL;
    }
  return result;
}

static cJSON *
execute_code (const char *arguments, const cJSON *progress, const atomic_int *cancel)
{
  cleanup_json cJSON *args = cJSON_Parse (arguments);
  cleanup_json cJSON *body = cJSON_CreateObject ();
  cleanup_buf wb_buf_t req = WB_BUF_INIT;
  cleanup_buf wb_buf_t reply = WB_BUF_INIT;
  cJSON *language, *code, *in, *timeout, *files, *argv;
  char why[512], *text;
  long http;

  language = cJSON_GetObjectItemCaseSensitive (args, "language");
  argv = cJSON_GetObjectItemCaseSensitive (args, "args");
  code = cJSON_GetObjectItemCaseSensitive (args, "code");
  in = cJSON_GetObjectItemCaseSensitive (args, "stdin");
  timeout = cJSON_GetObjectItemCaseSensitive (args, "timeout_ms");
  files = cJSON_GetObjectItemCaseSensitive (args, "files");
  if (!cJSON_IsString (language) || !cJSON_IsString (code))
    return tool_result ("execute_code needs \"language\" and \"code\" as strings", true);
  if ((in && !cJSON_IsNull (in) && !cJSON_IsString (in))
      || (timeout && !cJSON_IsNull (timeout) && !cJSON_IsNumber (timeout)))
    return tool_result ("\"stdin\" must be a string and \"timeout_ms\" a number", true);
  if (files && !cJSON_IsNull (files) && !cJSON_IsArray (files))
    return tool_result ("\"files\" must be an array of {\"name\", \"content\", \"encoding\"}",
                        true);
  if (argv && !cJSON_IsNull (argv) && !cJSON_IsArray (argv))
    return tool_result ("\"args\" must be an array of strings", true);
  if (body == NULL)
    return NULL;
  cJSON_AddStringToObject (body, "language", language->valuestring);
  cJSON_AddStringToObject (body, "code", code->valuestring);
  if (cJSON_IsString (in))
    cJSON_AddStringToObject (body, "stdin", in->valuestring);
  if (cJSON_IsNumber (timeout))
    cJSON_AddNumberToObject (body, "timeout_ms", timeout->valuedouble);
  /* Checked by the daemon, whose 400 says what is wrong with them. */
  if (cJSON_IsArray (files)
      && !cJSON_AddItemToObject (body, "files", cJSON_Duplicate (files, true)))
    return NULL;
  if (cJSON_IsArray (argv) && !cJSON_AddItemToObject (body, "args", cJSON_Duplicate (argv, true)))
    return NULL;
  text = cJSON_PrintUnformatted (body);
  if (text == NULL || wb_buf_append_str (&req, text) < 0)
    {
      cJSON_free (text);
      return NULL;
    }
  cJSON_free (text);
  cleanup_buf wb_buf_t note = WB_BUF_INIT;
  http = run_in_session (language->valuestring, &req, &reply, progress, cancel, why, sizeof why,
                         &note);
  explicit_bzero (req.data, req.len);
  if (http < 0)
    {
      cleanup_buf wb_buf_t msg = WB_BUF_INIT;
      if (wb_buf_printf (&msg, "warmbox is unavailable: %s", why) < 0)
        return NULL;
      return tool_result (msg.data, true);
    }
  return with_note (describe_result (http, &reply), &note);
}

static void *
call_thread (void *arg)
{
  mcp_call_t *call = arg;
  cJSON *result = execute_code (call->arguments, call->progress, &call->cancel);

  /* A cancelled request gets no answer (MCP: the receiver should not
   * respond to a cancelled request). */
  if (atomic_load (&call->cancel))
    cJSON_Delete (result);
  else if (result == NULL)
    send_error (call->id, -32603, "out of memory");
  else
    send_result (call->id, result);
  pthread_mutex_lock (&mcp.lock);
  cJSON_Delete (call->id);
  cJSON_Delete (call->progress);
  free (call->arguments);
  call->id = NULL;
  call->progress = NULL;
  call->arguments = NULL;
  call->used = false;
  if (--mcp.in_flight == 0)
    pthread_cond_broadcast (&mcp.idle);
  pthread_mutex_unlock (&mcp.lock);
  return NULL;
}

/* ---- methods ----------------------------------------------------------- */

static cJSON *
input_schema (void)
{
  cleanup_buf wb_buf_t reply = WB_BUF_INIT;
  cleanup_json cJSON *langs = NULL;
  cJSON *schema = cJSON_CreateObject (), *props, *p, *names = NULL, *item;
  char why[512];

  if (cli_call_daemon (mcp.url, "GET", "/v1/languages", NULL, &reply, NULL, why, sizeof why) == 200)
    langs = cJSON_ParseWithLength (reply.data ? reply.data : "", reply.len);
  if (schema == NULL)
    return NULL;
  cJSON_AddStringToObject (schema, "type", "object");
  props = cJSON_AddObjectToObject (schema, "properties");
  p = cJSON_AddObjectToObject (props, "language");
  cJSON_AddStringToObject (p, "type", "string");
  {
    /* "The language of the code: python 3.11, c 12.2.0 (compiled), ..." */
    cleanup_buf wb_buf_t desc = WB_BUF_INIT;
    int bad = wb_buf_append_str (&desc, "The language of the code");
    cJSON_ArrayForEach (item, cJSON_GetObjectItemCaseSensitive (langs, "languages"))
    {
      const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "language"));
      const char *version
          = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "version"));
      bool compiled = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (item, "compiled"));
      if (name && (names || (names = cJSON_AddArrayToObject (p, "enum"))))
        {
          cJSON_AddItemToArray (names, cJSON_CreateString (name));
          bad |= wb_buf_printf (
              &desc, "%s %s %s%s", names->child->next ? "," : ":", name, version ? version : "",
              compiled ? " (compiled: a compile error is reported, the program is not run)" : "");
        }
    }
    /* Without memory for the list, the plain sentence (not half a list). */
    cJSON_AddStringToObject (p, "description",
                             bad == 0 && desc.data ? desc.data : "The language of the code");
  }
  p = cJSON_AddObjectToObject (props, "code");
  cJSON_AddStringToObject (p, "type", "string");
  cJSON_AddStringToObject (p, "description", "The complete program; it runs as the main file");
  p = cJSON_AddObjectToObject (props, "stdin");
  cJSON_AddStringToObject (p, "type", "string");
  cJSON_AddStringToObject (p, "description", "Text fed to the program's standard input");
  p = cJSON_AddObjectToObject (props, "files");
  cJSON_AddStringToObject (p, "type", "array");
  cJSON_AddNumberToObject (p, "maxItems", 64);
  cJSON_AddStringToObject (p, "description",
                           "Files the program finds in its working directory, e.g. a CSV to parse "
                           "(plain names, no '/'; 16 MiB in all)");
  {
    cJSON *items = cJSON_AddObjectToObject (p, "items"), *fp, *q, *list;
    cJSON_AddStringToObject (items, "type", "object");
    fp = cJSON_AddObjectToObject (items, "properties");
    q = cJSON_AddObjectToObject (fp, "name");
    cJSON_AddStringToObject (q, "type", "string");
    q = cJSON_AddObjectToObject (fp, "content");
    cJSON_AddStringToObject (q, "type", "string");
    q = cJSON_AddObjectToObject (fp, "encoding");
    cJSON_AddStringToObject (q, "type", "string");
    list = cJSON_AddArrayToObject (q, "enum");
    cJSON_AddItemToArray (list, cJSON_CreateString ("utf8"));
    cJSON_AddItemToArray (list, cJSON_CreateString ("base64"));
    list = cJSON_AddArrayToObject (items, "required");
    cJSON_AddItemToArray (list, cJSON_CreateString ("name"));
    cJSON_AddItemToArray (list, cJSON_CreateString ("content"));
  }
  p = cJSON_AddObjectToObject (props, "args");
  cJSON_AddStringToObject (p, "type", "array");
  cJSON_AddStringToObject (cJSON_AddObjectToObject (p, "items"), "type", "string");
  cJSON_AddStringToObject (p, "description", "Command-line arguments given to the program");
  p = cJSON_AddObjectToObject (props, "timeout_ms");
  cJSON_AddStringToObject (p, "type", "integer");
  cJSON_AddNumberToObject (p, "minimum", 1);
  cJSON_AddStringToObject (p, "description",
                           "Wall-clock limit in milliseconds (default: the language's)");
  item = cJSON_AddArrayToObject (schema, "required");
  cJSON_AddItemToArray (item, cJSON_CreateString ("language"));
  cJSON_AddItemToArray (item, cJSON_CreateString ("code"));
  cJSON_AddBoolToObject (schema, "additionalProperties", false);
  return schema;
}

static void
handle_initialize (const cJSON *id, const cJSON *params)
{
  const char *want
      = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (params, "protocolVersion"));
  const char *version = protocol_versions[0];
  cJSON *res = cJSON_CreateObject (), *caps, *tools, *info;

  for (size_t i = 0; want && i < WB_ARRAY_SIZE (protocol_versions); i++)
    if (strcmp (want, protocol_versions[i]) == 0)
      version = protocol_versions[i];
  if (res == NULL)
    return;
  cJSON_AddStringToObject (res, "protocolVersion", version);
  caps = cJSON_AddObjectToObject (res, "capabilities");
  tools = cJSON_AddObjectToObject (caps, "tools");
  cJSON_AddBoolToObject (tools, "listChanged", false);
  info = cJSON_AddObjectToObject (res, "serverInfo");
  cJSON_AddStringToObject (info, "name", "warmbox");
  cJSON_AddStringToObject (info, "version", WB_VERSION);
  cJSON_AddStringToObject (
      res, "instructions",
      "execute_code runs a program in a fresh, isolated sandbox with no network "
      "and a read-only filesystem except /tmp. State persists between calls of this "
      "conversation: the working directory's files in every language, and in Python the "
      "global variables, functions, classes and imported modules. Open files, locks, "
      "sockets, generators and threads do not persist (the result names any it dropped).");
  send_result (id, res);
}

static void
handle_tools_list (const cJSON *id)
{
  cJSON *res = cJSON_CreateObject (), *tools, *tool, *schema = input_schema ();

  tools = cJSON_AddArrayToObject (res, "tools");
  tool = cJSON_CreateObject ();
  if (res == NULL || tools == NULL || tool == NULL || schema == NULL)
    {
      cJSON_Delete (res);
      cJSON_Delete (tool);
      cJSON_Delete (schema);
      send_error (id, -32603, "out of memory");
      return;
    }
  cJSON_AddStringToObject (tool, "name", "execute_code");
  cJSON_AddStringToObject (tool, "title", "Run code in a sandbox");
  cJSON_AddStringToObject (tool, "description",
                           "Run code in a fresh, isolated sandbox (no network, read-only "
                           "filesystem except /tmp, CPU, memory and time limits) and return its "
                           "exit status, stdout and stderr. State persists between calls: files "
                           "the code writes to its working directory (every language), and in "
                           "Python its global variables, functions, classes and imports, as in "
                           "a notebook. Open files, locks, sockets, generators and threads do "
                           "not persist; the result names any it dropped. If the session ended "
                           "(idle, or a restart) the result says so and earlier state is gone.");
  cJSON_AddItemToObject (tool, "inputSchema", schema);
  cJSON_AddItemToArray (tools, tool);
  send_result (id, res);
}

static void
handle_tools_call (const cJSON *id, const cJSON *params)
{
  const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (params, "name"));
  cJSON *arguments = cJSON_GetObjectItemCaseSensitive (params, "arguments");
  mcp_call_t *call = NULL;
  pthread_attr_t attr;
  pthread_t thread;
  char *args;

  if (name == NULL)
    {
      send_error (id, RPC_INVALID_PARAMS, "tools/call needs params.name");
      return;
    }
  if (strcmp (name, "execute_code") != 0)
    {
      send_error (id, RPC_INVALID_PARAMS, "unknown tool; this server has execute_code");
      return;
    }
  if (arguments != NULL && !cJSON_IsObject (arguments))
    {
      send_error (id, RPC_INVALID_PARAMS, "params.arguments must be an object");
      return;
    }
  args = arguments ? cJSON_PrintUnformatted (arguments) : strdup ("{}");
  pthread_mutex_lock (&mcp.lock);
  for (size_t i = 0; i < MCP_MAX_CALLS && call == NULL; i++)
    if (!mcp.calls[i].used)
      call = &mcp.calls[i];
  if (call && args)
    {
      cJSON *token = cJSON_GetObjectItemCaseSensitive (
          cJSON_GetObjectItemCaseSensitive (params, "_meta"), "progressToken");
      call->used = true;
      call->id = cJSON_Duplicate (id, true);
      call->progress
          = cJSON_IsString (token) || cJSON_IsNumber (token) ? cJSON_Duplicate (token, true) : NULL;
      call->arguments = args;
      atomic_store (&call->cancel, 0);
      mcp.in_flight++;
    }
  pthread_mutex_unlock (&mcp.lock);
  if (call == NULL || args == NULL)
    {
      free (args);
      send_result (id, tool_result ("too many executions in flight from this client; wait for one "
                                    "to finish",
                                    true));
      return;
    }
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create (&thread, &attr, call_thread, call) != 0)
    {
      pthread_attr_destroy (&attr);
      pthread_mutex_lock (&mcp.lock);
      cJSON_Delete (call->id);
      cJSON_Delete (call->progress);
      call->progress = NULL;
      free (call->arguments);
      call->used = false;
      mcp.in_flight--;
      pthread_mutex_unlock (&mcp.lock);
      send_error (id, -32603, "cannot start a thread for the call");
      return;
    }
  pthread_attr_destroy (&attr);
}

/* notifications/cancelled: abandon the transfer; warmboxd sees its client
 * leave and removes the container at once. */
static void
handle_cancelled (const cJSON *params)
{
  const cJSON *rid = cJSON_GetObjectItemCaseSensitive (params, "requestId");

  if (rid == NULL)
    return;
  pthread_mutex_lock (&mcp.lock);
  for (size_t i = 0; i < MCP_MAX_CALLS; i++)
    if (mcp.calls[i].used && cJSON_Compare (mcp.calls[i].id, rid, true))
      atomic_store (&mcp.calls[i].cancel, 1);
  pthread_mutex_unlock (&mcp.lock);
}

void
cli_mcp_dispatch (const char *line, size_t len)
{
  cleanup_json cJSON *msg = cJSON_ParseWithLength (line, len);
  const cJSON *id, *params;
  const char *method, *version;

  if (msg == NULL)
    {
      send_error (NULL, RPC_PARSE_ERROR, "parse error: not JSON");
      return;
    }
  if (cJSON_IsArray (msg))
    {
      send_error (NULL, RPC_INVALID_REQUEST, "batches are not supported");
      return;
    }
  id = cJSON_GetObjectItemCaseSensitive (msg, "id");
  method = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (msg, "method"));
  version = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (msg, "jsonrpc"));
  params = cJSON_GetObjectItemCaseSensitive (msg, "params");
  if (id && !cJSON_IsString (id) && !cJSON_IsNumber (id))
    {
      send_error (NULL, RPC_INVALID_REQUEST, "id must be a string or a number");
      return;
    }
  if (!cJSON_IsObject (msg) || version == NULL || strcmp (version, "2.0") != 0)
    {
      send_error (id, RPC_INVALID_REQUEST, "not a JSON-RPC 2.0 message");
      return;
    }
  if (method == NULL)
    return; /* a response: we send no requests, so there is nothing to match */
  if (id == NULL)
    {
      if (strcmp (method, "notifications/cancelled") == 0)
        handle_cancelled (params);
      return; /* notifications/initialized and others need no answer */
    }
  if (params != NULL && !cJSON_IsObject (params))
    send_error (id, RPC_INVALID_PARAMS, "params must be an object");
  else if (strcmp (method, "initialize") == 0)
    handle_initialize (id, params);
  else if (strcmp (method, "ping") == 0)
    send_result (id, cJSON_CreateObject ());
  else if (strcmp (method, "tools/list") == 0)
    handle_tools_list (id);
  else if (strcmp (method, "tools/call") == 0)
    handle_tools_call (id, params);
  else
    send_error (id, RPC_METHOD_NOT_FOUND, "method not found");
}

int
cli_mcp (const char *url, int argc, char **argv)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;

  cli_mcp_init (url, MCP_DEFAULT_OUTPUT, stdout);
  for (int i = 1; i < argc; i++)
    {
      char *end;
      if (strcmp (argv[i], "--max-output") == 0 && i + 1 < argc)
        {
          unsigned long long v = strtoull (argv[++i], &end, 10);
          if (*end != '\0' || v < 256 || v > 16u * 1024 * 1024)
            {
              fprintf (stderr, "warmbox mcp: --max-output takes 256 to 16777216 bytes\n");
              return 2;
            }
          mcp.max_output = (size_t) v;
        }
      else
        {
          fprintf (stderr,
                   "warmbox mcp: unknown option %s\n"
                   "Usage: warmbox [--url URL] mcp [--max-output BYTES]\n",
                   argv[i]);
          return 2;
        }
    }

  while ((n = getline (&line, &cap, stdin)) >= 0)
    {
      while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
      if (n == 0)
        continue;
      if ((size_t) n > MCP_MAX_LINE)
        send_error (NULL, RPC_INVALID_REQUEST, "message too large");
      else
        cli_mcp_dispatch (line, (size_t) n);
      explicit_bzero (line, (size_t) n); /* it may have held code */
    }
  free (line);

  cli_mcp_finish ();
  return 0;
}

void
cli_mcp_init (const char *url, size_t max_output, FILE *out)
{
  mcp.url = url;
  mcp.max_output = max_output;
  mcp.out = out;
}

void
cli_mcp_finish (void)
{
  /* Abandon what still runs, then wait for the threads to leave. */
  pthread_mutex_lock (&mcp.lock);
  for (size_t i = 0; i < MCP_MAX_CALLS; i++)
    if (mcp.calls[i].used)
      atomic_store (&mcp.calls[i].cancel, 1);
  while (mcp.in_flight > 0)
    pthread_cond_wait (&mcp.idle, &mcp.lock);
  pthread_mutex_unlock (&mcp.lock);
  /* The conversation is over: its sessions go now, not at their TTL. */
  for (size_t i = 0; i < MCP_MAX_SESSIONS; i++)
    if (mcp.sessions[i].id[0])
      {
        char path[160], why[256];
        cleanup_buf wb_buf_t reply = WB_BUF_INIT;
        snprintf (path, sizeof path, "/v1/sessions/%s", mcp.sessions[i].id);
        (void) cli_call_daemon (mcp.url, "DELETE", path, NULL, &reply, NULL, why, sizeof why);
        mcp.sessions[i].id[0] = '\0';
      }
}

/* cli/client.c: see cli/client.h. */
#define _GNU_SOURCE
#include "client.h"

#include <curl/curl.h>
#include <string.h>
#include <unistd.h>

const char *
cli_default_url (char *buf, size_t len)
{
  const char *env = getenv ("WARMBOX_URL");
  const char *xdg = getenv ("XDG_RUNTIME_DIR");

  if (env && *env)
    return env;
  if (geteuid () == 0)
    return "unix:/run/warmbox/warmbox.sock";
  if (xdg && *xdg)
    snprintf (buf, len, "unix:%s/warmbox.sock", xdg);
  else
    snprintf (buf, len, "unix:/tmp/warmbox-%u.sock", (unsigned) geteuid ());
  return buf;
}

static size_t
collect_cb (char *ptr, size_t size, size_t nmemb, void *userdata)
{
  return wb_buf_append (userdata, ptr, size * nmemb) < 0 ? 0 : size * nmemb;
}

static int
progress_cb (void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
  const atomic_int *cancel = arg;

  (void) dltotal;
  (void) dlnow;
  (void) ultotal;
  (void) ulnow;
  return cancel && atomic_load (cancel) ? 1 : 0;
}

typedef struct line_sink
{
  wb_buf_t *reply;
  cli_line_cb cb;
  void *arg;
} line_sink_t;

/* A streamed reply: each whole line to the callback as it comes; what is
 * not a whole line yet (or a reply that is no stream) stays in reply. */
static size_t
lines_cb (char *ptr, size_t size, size_t nmemb, void *userdata)
{
  line_sink_t *sink = userdata;
  wb_buf_t *b = sink->reply;
  char *nl;

  if (wb_buf_append (b, ptr, size * nmemb) < 0)
    return 0;
  while (b->len && (nl = memchr (b->data, '\n', b->len)) != NULL)
    {
      size_t n = (size_t) (nl - b->data) + 1;
      sink->cb (sink->arg, b->data, n - 1);
      wb_buf_consume (b, n);
    }
  return size * nmemb;
}

static long call (const char *url, const char *method, const char *path, const wb_buf_t *body,
                  wb_buf_t *reply, const atomic_int *cancel, char *why, size_t why_len,
                  line_sink_t *sink);

long
cli_call_daemon (const char *url, const char *method, const char *path, const wb_buf_t *body,
                 wb_buf_t *reply, const atomic_int *cancel, char *why, size_t why_len)
{
  return call (url, method, path, body, reply, cancel, why, why_len, NULL);
}

long
cli_call_daemon_lines (const char *url, const char *method, const char *path, const wb_buf_t *body,
                       cli_line_cb cb, void *arg, wb_buf_t *reply, const atomic_int *cancel,
                       char *why, size_t why_len)
{
  line_sink_t sink = {reply, cb, arg};
  return call (url, method, path, body, reply, cancel, why, why_len, &sink);
}

static long
call (const char *url, const char *method, const char *path, const wb_buf_t *body, wb_buf_t *reply,
      const atomic_int *cancel, char *why, size_t why_len, line_sink_t *sink)
{
  CURL *easy = curl_easy_init ();
  struct curl_slist *headers = NULL;
  cleanup_buf wb_buf_t full = WB_BUF_INIT;
  cleanup_buf wb_buf_t auth = WB_BUF_INIT;
  const char *token = getenv ("WARMBOX_TOKEN");
  char errbuf[CURL_ERROR_SIZE] = "";
  long status = -1;
  int bad = 0;
  CURLcode rc;

  if (easy == NULL)
    {
      snprintf (why, why_len, "out of memory");
      return -1;
    }
  if (strncmp (url, "unix:", 5) == 0)
    {
      curl_easy_setopt (easy, CURLOPT_UNIX_SOCKET_PATH, url + 5);
      bad |= wb_buf_printf (&full, "http://localhost%s", path);
    }
  else
    {
      size_t l = strlen (url);
      bad |= wb_buf_printf (&full, "%.*s%s", (int) (l && url[l - 1] == '/' ? l - 1 : l), url, path);
    }
  if (bad == 0 && (headers = curl_slist_append (headers, "Content-Type: application/json")) == NULL)
    bad = -1;
  if (bad == 0 && sink)
    {
      struct curl_slist *more = curl_slist_append (headers, "Accept: application/x-ndjson");
      if (more == NULL)
        bad = -1;
      else
        headers = more;
    }
  if (bad == 0 && token && *token)
    {
      struct curl_slist *more;
      bad |= wb_buf_printf (&auth, "Authorization: Bearer %s", token);
      if (bad == 0 && (more = curl_slist_append (headers, auth.data)) == NULL)
        bad = -1;
      else if (bad == 0)
        headers = more;
    }
  if (bad < 0)
    {
      snprintf (why, why_len, "out of memory");
      curl_slist_free_all (headers);
      curl_easy_cleanup (easy);
      return -1;
    }
  /* HTTPS: the CA that signed the daemon's certificate, and ours when the
   * daemon asks for one (the CLI flags set these). */
  if (getenv ("WARMBOX_CACERT") && *getenv ("WARMBOX_CACERT"))
    curl_easy_setopt (easy, CURLOPT_CAINFO, getenv ("WARMBOX_CACERT"));
  if (getenv ("WARMBOX_CERT") && *getenv ("WARMBOX_CERT"))
    curl_easy_setopt (easy, CURLOPT_SSLCERT, getenv ("WARMBOX_CERT"));
  if (getenv ("WARMBOX_KEY") && *getenv ("WARMBOX_KEY"))
    curl_easy_setopt (easy, CURLOPT_SSLKEY, getenv ("WARMBOX_KEY"));
  curl_easy_setopt (easy, CURLOPT_SSLVERSION, (long) CURL_SSLVERSION_TLSv1_2);
  curl_easy_setopt (easy, CURLOPT_URL, full.data);
  curl_easy_setopt (easy, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt (easy, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt (easy, CURLOPT_WRITEFUNCTION, sink ? lines_cb : collect_cb);
  curl_easy_setopt (easy, CURLOPT_WRITEDATA, sink ? (void *) sink : (void *) reply);
  curl_easy_setopt (easy, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt (easy, CURLOPT_NOSIGNAL, 1L);
  /* A run may take its whole deadline, but reaching the daemon may not. */
  curl_easy_setopt (easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  if (cancel)
    {
      curl_easy_setopt (easy, CURLOPT_XFERINFOFUNCTION, progress_cb);
      curl_easy_setopt (easy, CURLOPT_XFERINFODATA, (void *) cancel);
      curl_easy_setopt (easy, CURLOPT_NOPROGRESS, 0L);
    }
  if (body)
    {
      curl_easy_setopt (easy, CURLOPT_POSTFIELDS, body->data);
      curl_easy_setopt (easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) body->len);
    }
  rc = curl_easy_perform (easy);
  if (rc == CURLE_ABORTED_BY_CALLBACK)
    snprintf (why, why_len, "cancelled");
  else if (rc != CURLE_OK)
    snprintf (why, why_len, "cannot reach the daemon at %s: %s", url,
              errbuf[0] ? errbuf : curl_easy_strerror (rc));
  else
    curl_easy_getinfo (easy, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all (headers);
  curl_easy_cleanup (easy);
  return status;
}

void
cli_write_data (const char *data, const char *encoding, FILE *to)
{
  cleanup_buf wb_buf_t raw = WB_BUF_INIT;

  if (data == NULL)
    return;
  if (encoding && strcmp (encoding, "base64") == 0)
    {
      if (wb_base64_decode (&raw, data, strlen (data)) == 0 && raw.len)
        fwrite (raw.data, 1, raw.len, to);
    }
  else
    fputs (data, to);
  fflush (to);
}

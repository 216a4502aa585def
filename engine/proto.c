/* engine/proto.c: pure parsers of the engine's wire formats (no I/O of
 * their own): the hijacked stream's head and frames, image archives, and
 * the replies of every kind of request (one table, by kind).  All are fed
 * bytes an engine (or something pretending to be one) chose, so they are
 * written to be fuzzed: bounded; only the manifest check and the reply
 * decoders allocate (cJSON, a list's arrays). */
#include "engine_int.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HIJACK_HEAD_MAX (16 * 1024)

int
eng_hijack_parse_head (const char *buf, size_t len, int *status, size_t *head_len)
{
  const char *end = NULL;
  size_t scan = len < HIJACK_HEAD_MAX ? len : HIJACK_HEAD_MAX;
  int code = 0;

  /* "HTTP/1.x NNN" must lead, before we even have the whole head. */
  static const char proto[] = "HTTP/1.";
  size_t cmp = scan < sizeof proto - 1 ? scan : sizeof proto - 1;
  if (memcmp (buf, proto, cmp) != 0)
    return -1;

  for (size_t i = 0; i + 3 < scan; i++)
    if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n')
      {
        end = buf + i + 4;
        break;
      }
  if (end == NULL)
    return len >= HIJACK_HEAD_MAX ? -1 : 0;

  /* "HTTP/1.1 101 UPGRADED": version digit, space, three digits, then a
   * space or the end of the line. */
  if (end - buf < 14 || (buf[7] != '0' && buf[7] != '1') || buf[8] != ' ')
    return -1;
  for (int i = 9; i < 12; i++)
    {
      if (buf[i] < '0' || buf[i] > '9')
        return -1;
      code = code * 10 + (buf[i] - '0');
    }
  if (buf[12] != ' ' && buf[12] != '\r')
    return -1;
  if (code < 100)
    return -1;
  *status = code;
  *head_len = (size_t) (end - buf);
  return 1;
}

void
eng_demux_init (eng_demux_t *d)
{
  memset (d, 0, sizeof *d);
  d->max_stream = ENG_STREAM_STDERR;
}

bool
eng_demux_idle (const eng_demux_t *d)
{
  return d->head_have == 0 && d->remaining == 0;
}

int
eng_demux_feed (eng_demux_t *d, const char *data, size_t len, eng_demux_cb cb, void *arg)
{
  while (len > 0)
    {
      if (d->remaining > 0)
        {
          size_t n = len < d->remaining ? len : d->remaining;
          d->remaining -= (uint32_t) n;
          cb (arg, d->stream, data, n);
          data += n;
          len -= n;
          continue;
        }
      size_t want = sizeof d->head - d->head_have;
      size_t n = len < want ? len : want;
      memcpy (d->head + d->head_have, data, n);
      d->head_have += n;
      data += n;
      len -= n;
      if (d->head_have < sizeof d->head)
        break;
      if (d->head[0] > d->max_stream)
        return -1;
      d->stream = d->head[0];
      d->remaining = ((uint32_t) d->head[4] << 24) | ((uint32_t) d->head[5] << 16)
                     | ((uint32_t) d->head[6] << 8) | (uint32_t) d->head[7];
      d->head_have = 0;
    }
  return 0;
}

/* ---- warmbox-oci's run events --------------------------------------------- */

/* A decimal in [0, max] spanning the whole of s[0..len). */
static bool
small_number (const char *s, size_t len, int max, int *out)
{
  int v = 0;

  if (len == 0 || len > 3)
    return false;
  for (size_t i = 0; i < len; i++)
    {
      if (s[i] < '0' || s[i] > '9')
        return false;
      v = v * 10 + (s[i] - '0');
    }
  if (v > max)
    return false;
  *out = v;
  return true;
}

eng_run_event_kind_t
eng_run_event_parse (const char *line, eng_run_event_t *ev)
{
  memset (ev, 0, sizeof *ev);
  ev->why = "";
  if (strcmp (line, "started") == 0)
    return ev->kind = ENG_RUN_STARTED;
  if (strncmp (line, "not-started", 11) == 0 && (line[11] == '\0' || line[11] == ' '))
    {
      ev->why = line[11] ? line + 12 : "";
      return ev->kind = ENG_RUN_NOT_STARTED;
    }
  if (strncmp (line, "start-failed", 12) == 0 && (line[12] == '\0' || line[12] == ' '))
    {
      ev->why = line[12] ? line + 13 : "";
      return ev->kind = ENG_RUN_START_FAILED;
    }
  if (strncmp (line, "exit ", 5) == 0)
    {
      /* "exit <code> <oom>": exactly, nothing around. */
      const char *code = line + 5, *sp = strchr (code, ' ');
      int oom;
      if (sp == NULL || !small_number (code, (size_t) (sp - code), 255, &ev->exit_code)
          || !small_number (sp + 1, strlen (sp + 1), 1, &oom))
        {
          ev->exit_code = 0;
          return ev->kind = ENG_RUN_BAD;
        }
      ev->oom = oom == 1;
      return ev->kind = ENG_RUN_EXIT;
    }
  return ev->kind = ENG_RUN_OTHER;
}

int
eng_event_line_add (eng_event_line_t *l, const char *data, size_t len, bool frame_end)
{
  if (len > ENG_EVENT_LINE_MAX - l->len)
    {
      l->len = 0;
      return -1;
    }
  memcpy (l->line + l->len, data, len);
  l->len += len;
  if (!frame_end)
    return 0;
  l->line[l->len] = '\0';
  l->len = 0;
  return 1;
}

/* ---- image archives (docker save) ---------------------------------------- */

#define TAR_BLOCK 512

/* An octal field of a tar header (NUL or space ended); -1 when it is not
 * one. */
static int64_t
tar_octal (const unsigned char *f, size_t n)
{
  int64_t v = 0;
  size_t i = 0;

  while (i < n && f[i] == ' ')
    i++;
  if (i == n || f[i] < '0' || f[i] > '7')
    return -1;
  for (; i < n && f[i] >= '0' && f[i] <= '7'; i++)
    {
      if (v > (INT64_MAX >> 3))
        return -1;
      v = (v << 3) | (f[i] - '0');
    }
  if (i < n && f[i] != '\0' && f[i] != ' ')
    return -1;
  return v;
}

/* One member's header: its name (ustar prefix/name), size, type and where
 * its content starts.  -1 when the header is malformed; 0 at the end. */
typedef struct tar_entry
{
  char name[256 + 1];
  int64_t size;
  char type;
  uint64_t data;
} tar_entry_t;

static int
tar_next (eng_read_at read_at, void *arg, uint64_t *off, tar_entry_t *e)
{
  unsigned char h[TAR_BLOCK];
  size_t nlen, plen = 0;
  unsigned sum = 0;
  int64_t want_sum;

  if (read_at (arg, h, TAR_BLOCK, *off) != TAR_BLOCK)
    return -1;
  if (h[0] == '\0')
    return 0; /* the end blocks */
  for (int i = 0; i < TAR_BLOCK; i++)
    sum += (i >= 148 && i < 156) ? ' ' : h[i];
  want_sum = tar_octal (h + 148, 8);
  e->size = tar_octal (h + 124, 12);
  if (e->size < 0 || want_sum != (int64_t) sum)
    return -1;
  nlen = strnlen ((const char *) h, 100);
  /* POSIX ustar ("ustar\0" "00") has a name prefix; GNU's "ustar  \0"
   * keeps times there. */
  if (memcmp (h + 257,
              "ustar\0"
              "00",
              8)
      == 0)
    plen = strnlen ((const char *) h + 345, 155);
  if (plen)
    {
      memcpy (e->name, h + 345, plen);
      e->name[plen] = '/';
      memcpy (e->name + plen + 1, h, nlen);
      e->name[plen + 1 + nlen] = '\0';
    }
  else
    {
      memcpy (e->name, h, nlen);
      e->name[nlen] = '\0';
    }
  e->type = (char) h[156];
  e->data = *off + TAR_BLOCK;
  if ((uint64_t) e->size > UINT64_MAX / 2 - e->data)
    return -1;
  *off = e->data + ((uint64_t) e->size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
  return 1;
}

int
eng_tar_member (eng_read_at read_at, void *arg, const char *name, char *out, size_t out_max,
                size_t *out_len)
{
  uint64_t off = 0;
  tar_entry_t e;
  int r;

  for (int members = 0; members < 100000; members++)
    {
      if ((r = tar_next (read_at, arg, &off, &e)) <= 0)
        return r;
      if ((e.type == '0' || e.type == '\0') && strcmp (e.name, name) == 0)
        {
          if ((uint64_t) e.size > out_max)
            return -1;
          if (e.size > 0 && read_at (arg, out, (size_t) e.size, e.data) != e.size)
            return -1;
          *out_len = (size_t) e.size;
          return 1;
        }
    }
  return -1;
}

/* What an engine's loader might read as a name of its own: anything but
 * a plain relative path of plain parts. */
static bool
tar_name_plain (const char *n)
{
  if (*n == '\0' || *n == '/')
    return false;
  for (const char *p = n; *p; p++)
    if ((p == n || p[-1] == '/')
        && (strncmp (p, "./", 2) == 0 || strncmp (p, "../", 3) == 0 || strcmp (p, ".") == 0
            || strcmp (p, "..") == 0 || *p == '/'))
      return false;
  return true;
}

#define MANIFEST_MAX (64 * 1024)
#define CONFIG_MAX (1024 * 1024)

int
eng_archive_check (eng_read_at read_at, void *arg, const char *image_id, const char *tag,
                   wb_err_t *err)
{
  const char *hex = strncmp (image_id, "sha256:", 7) == 0 ? image_id + 7 : image_id;
  char config_name[80], digest[65];
  uint64_t off = 0, manifest_at = 0, config_at = 0, repos_at = 0;
  int64_t manifest_size = -1, config_size = -1, repos_size = -1;
  char *buf = NULL;
  tar_entry_t e;
  int r, rc = -1;

  snprintf (config_name, sizeof config_name, "%s.json", hex);
  for (int members = 0;; members++)
    {
      if (members == 100000)
        return wb_error (err, WB_E_ENGINE, "the archive has too many members");
      if ((r = tar_next (read_at, arg, &off, &e)) < 0)
        return wb_error (err, WB_E_ENGINE, "the archive is not a well-formed tar");
      if (r == 0)
        break;
      /* Extended headers rename what follows; links and devices have no
       * place in an image archive. */
      if (e.type != '0' && e.type != '\0' && e.type != '5')
        return wb_error (err, WB_E_ENGINE, "the archive holds a member of type '%c' (%.80s)",
                         e.type >= 32 && e.type < 127 ? e.type : '?', e.name);
      if (!tar_name_plain (e.name))
        return wb_error (err, WB_E_ENGINE, "the archive holds a member named %.80s", e.name);
      /* Other layouts would be read instead of the manifest checked here. */
      if (strcmp (e.name, "index.json") == 0 || strcmp (e.name, "oci-layout") == 0)
        return wb_error (err, WB_E_ENGINE,
                         "the archive holds %s (only docker save's own layout "
                         "is taken)",
                         e.name);
      if (strcmp (e.name, "repositories") == 0)
        {
          if (repos_size >= 0)
            return wb_error (err, WB_E_ENGINE, "the archive holds repositories twice");
          repos_size = e.size, repos_at = e.data;
        }
      else if (strcmp (e.name, "manifest.json") == 0)
        {
          if (manifest_size >= 0)
            return wb_error (err, WB_E_ENGINE, "the archive holds manifest.json twice");
          manifest_size = e.size, manifest_at = e.data;
        }
      else if (strcmp (e.name, config_name) == 0)
        {
          if (config_size >= 0)
            return wb_error (err, WB_E_ENGINE, "the archive holds the image's config twice");
          config_size = e.size, config_at = e.data;
        }
    }
  if (manifest_size < 0 || manifest_size > MANIFEST_MAX)
    return wb_error (err, WB_E_ENGINE, "the archive has no readable manifest.json");
  if (config_size < 0 || config_size > CONFIG_MAX)
    return wb_error (err, WB_E_ENGINE, "the archive lacks the config of %.19s", image_id);
  buf = malloc ((size_t) (manifest_size > config_size ? manifest_size : config_size) + 1);
  if (buf == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  /* The config is what the image id is the digest of: an archive that
   * names it but holds other bytes would load another image. */
  if (read_at (arg, buf, (size_t) config_size, config_at) != config_size)
    {
      wb_error (err, WB_E_ENGINE, "the archive's config cannot be read");
      goto out;
    }
  wb_sha256_hex (buf, (size_t) config_size, digest);
  if (strcmp (digest, hex) != 0)
    {
      wb_error (err, WB_E_ENGINE, "the archive's config is sha256:%.12s, not %.19s", digest,
                image_id);
      goto out;
    }
  if (read_at (arg, buf, (size_t) manifest_size, manifest_at) != manifest_size)
    {
      wb_error (err, WB_E_ENGINE, "the archive's manifest.json cannot be read");
      goto out;
    }
  if (eng_archive_manifest_check (buf, (size_t) manifest_size, image_id, tag, err) < 0)
    goto out;
  /* The legacy tag file docker save adds: our tag alone, if any. */
  if (repos_size >= 0)
    {
      char *rb = repos_size <= MANIFEST_MAX ? malloc ((size_t) repos_size + 1) : NULL;
      cJSON *repos = NULL, *repo, *t;
      size_t n = 0;
      bool ok = rb && read_at (arg, rb, (size_t) repos_size, repos_at) == repos_size
                && (repos = cJSON_ParseWithLength (rb, (size_t) repos_size)) != NULL
                && cJSON_IsObject (repos);
      cJSON *list = ok ? repos : NULL;
      cJSON_ArrayForEach (repo, list) cJSON_ArrayForEach (t, repo)
      {
        char full[600];
        snprintf (full, sizeof full, "%s:%s", repo->string ? repo->string : "",
                  t->string ? t->string : "");
        ok = ok && cJSON_IsString (t) && strcmp (full, tag) == 0;
        n++;
      }
      free (rb);
      cJSON_Delete (repos);
      if (!ok || n > 1)
        {
          wb_error (err, WB_E_ENGINE, "the archive's repositories file names other tags");
          goto out;
        }
    }
  rc = 0;
out:
  free (buf);
  return rc;
}

int
eng_archive_manifest_check (const char *json, size_t len, const char *image_id, const char *tag,
                            wb_err_t *err)
{
  cJSON *root = cJSON_ParseWithLength (json ? json : "", len), *img, *tags, *t;
  const char *hex = strncmp (image_id, "sha256:", 7) == 0 ? image_id + 7 : image_id;
  const char *config;
  char want_json[80];
  int rc = -1;

  snprintf (want_json, sizeof want_json, "%s.json", hex);
  if (!cJSON_IsArray (root) || cJSON_GetArraySize (root) != 1)
    {
      wb_error (err, WB_E_ENGINE, "the archive holds %d images, not one",
                cJSON_IsArray (root) ? cJSON_GetArraySize (root) : -1);
      goto out;
    }
  img = cJSON_GetArrayItem (root, 0);
  /* Engines read this with Go's decoder: keys match in any case and the
   * last of two wins.  Only the known keys, each once. */
  {
    static const char *const known[] = {"Config", "RepoTags", "Layers", "LayerSources"};
    cJSON *k, *k2;
    if (!cJSON_IsObject (img))
      {
        wb_error (err, WB_E_ENGINE, "the archive's manifest entry is not an object");
        goto out;
      }
    cJSON_ArrayForEach (k, img)
    {
      bool ok = false;
      for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        ok |= k->string && strcmp (k->string, known[i]) == 0;
      for (k2 = k->next; k2 && ok; k2 = k2->next)
        ok = strcasecmp (k->string, k2->string ? k2->string : "") != 0;
      if (!ok)
        {
          wb_error (err, WB_E_ENGINE, "the archive's manifest has the key %.40s (unknown or twice)",
                    k->string ? k->string : "?");
          goto out;
        }
    }
  }
  config = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (img, "Config"));
  if (config == NULL || strcmp (config, want_json) != 0)
    {
      wb_error (err, WB_E_ENGINE, "the archive's image is %.80s, not %.80s",
                config ? config : "(none)", image_id);
      goto out;
    }
  tags = cJSON_GetObjectItemCaseSensitive (img, "RepoTags");
  cJSON_ArrayForEach (t, tags)
  {
    const char *s = cJSON_GetStringValue (t);
    /* Docker may spell the default registry out; Podman says localhost. */
    if (s && strncmp (s, "docker.io/", 10) == 0)
      s += 10;
    else if (s && strncmp (s, "localhost/", 10) == 0)
      s += 10;
    if (s == NULL || strcmp (s, tag) != 0)
      {
        wb_error (err, WB_E_ENGINE, "the archive would tag %.120s", s ? s : "(not a string)");
        goto out;
      }
  }
  rc = 0;
out:
  cJSON_Delete (root);
  return rc;
}

/* ---- replies, by request kind ------------------------------------------- */

int
eng_http_error (wb_err_t *err, long status, const char *what, const char *body, size_t body_len)
{
  cJSON *json = NULL;
  const char *msg = NULL;
  int ret;

  if (body && body_len)
    json = cJSON_ParseWithLength (body, body_len);
  if (json)
    msg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (json, "message"));
  ret = wb_error (err, status == 404 ? WB_E_NOT_FOUND : WB_E_ENGINE, "%s: engine answered %ld: %s",
                  what, status, msg ? msg : "(no message)");
  if (err)
    err->engine_status = (int) status;
  cJSON_Delete (json);
  return ret;
}

/* Each decoder reads a 2xx reply of its kind into res: 0, or -1 with
 * res->err.  json: the body parsed, for the kinds whose body is one JSON
 * document (NULL for the others). */
typedef int reply_decoder_t (const eng_reply_t *r, const char *what, const cJSON *json,
                             eng_result_t *res, eng_decoded_t *own);

static bool
api_version_ok (const char *v, int *minor)
{
  int maj = 0, min = 0;
  char tail;

  if (sscanf (v, "%d.%d%c", &maj, &min, &tail) != 2 || maj != 1)
    return false;
  *minor = min;
  return true;
}

/* GET /_ping: the API version to speak, the lower of its and ours, and
 * whether it is Podman. */
static int
decode_ping (const eng_reply_t *r, const char *what, const cJSON *json, eng_result_t *res,
             eng_decoded_t *own)
{
  int minor = 0, our_minor = 0;

  if (r->api_header == NULL || r->api_header[0] == '\0' || !api_version_ok (r->api_header, &minor))
    return wb_error (&res->err, WB_E_ENGINE, "ping: engine sent no usable API-Version");
  if (minor < ENG_API_MIN_MINOR)
    return wb_error (&res->err, WB_E_ENGINE, "ping: engine API %s is older than 1.%d",
                     r->api_header, ENG_API_MIN_MINOR);
  api_version_ok (ENG_API_MAX, &our_minor);
  snprintf (own->api_version, sizeof own->api_version, "1.%d",
            minor < our_minor ? minor : our_minor);
  res->api_version = own->api_version;
  res->podman = r->libpod;
  return 0;
}

/* Image inspect and container create: the Id. */
static int
decode_id (const eng_reply_t *r, const char *what, const cJSON *json, eng_result_t *res,
           eng_decoded_t *own)
{
  res->id = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (json, "Id"));
  if (res->id == NULL || *res->id == '\0')
    return wb_error (&res->err, WB_E_ENGINE, "%s: reply has no Id", what);
  return 0;
}

/* An exit code from the engine's JSON: false unless a number that fits an
 * int (a hostile engine's 1e300 must not reach a cast to long). */
static bool
exit_code_of (const cJSON *n, long *out)
{
  if (!cJSON_IsNumber (n) || !(n->valuedouble >= INT_MIN && n->valuedouble <= INT_MAX))
    return false;
  *out = (long) n->valuedouble;
  return true;
}

static int
decode_wait (const eng_reply_t *r, const char *what, const cJSON *json, eng_result_t *res,
             eng_decoded_t *own)
{
  cJSON *sc = cJSON_GetObjectItemCaseSensitive (json, "StatusCode");
  cJSON *e = cJSON_GetObjectItemCaseSensitive (json, "Error");
  const char *emsg = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (e, "Message"));

  long code;

  if (!exit_code_of (sc, &code))
    return wb_error (&res->err, WB_E_ENGINE, "container wait: reply has no StatusCode");
  if (emsg && *emsg)
    return wb_error (&res->err, WB_E_ENGINE, "container wait: %s", emsg);
  res->exit_code = code;
  return 0;
}

/* Container inspect: the state, and the whole reply (sbx_verify_created). */
static int
decode_inspect (const eng_reply_t *r, const char *what, const cJSON *json, eng_result_t *res,
                eng_decoded_t *own)
{
  cJSON *state = cJSON_GetObjectItemCaseSensitive (json, "State");
  cJSON *ec = cJSON_GetObjectItemCaseSensitive (state, "ExitCode");

  if (!cJSON_IsObject (state) || !exit_code_of (ec, &res->exit_code))
    return wb_error (&res->err, WB_E_ENGINE, "container inspect: reply has no State");
  res->oom_killed = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (state, "OOMKilled"));
  res->running = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (state, "Running"));
  res->json = r->body;
  res->json_len = r->len;
  return 0;
}

/* Container list: each container's Id (those without one skipped) and its
 * value of the label asked for. */
static int
decode_list (const eng_reply_t *r, const char *what, const cJSON *json, eng_result_t *res,
             eng_decoded_t *own)
{
  int n = cJSON_GetArraySize (json), k = 0;
  cJSON *item;

  if (!cJSON_IsArray (json))
    return wb_error (&res->err, WB_E_ENGINE, "container list: reply is not an array");
  own->ids = calloc ((size_t) n + 1, sizeof *own->ids);
  own->values = calloc ((size_t) n + 1, sizeof *own->values);
  if (own->ids == NULL || own->values == NULL)
    return wb_error (&res->err, WB_E_NOMEM, "container list: out of memory");
  cJSON_ArrayForEach (item, json)
  {
    const char *id = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "Id"));
    cJSON *labels = cJSON_GetObjectItemCaseSensitive (item, "Labels");
    if (id == NULL)
      continue;
    cJSON *value = r->value_key ? cJSON_GetObjectItemCaseSensitive (labels, r->value_key) : NULL;
    own->values[k] = cJSON_GetStringValue (value);
    own->ids[k++] = id;
  }
  res->ids = own->ids;
  res->values = own->values;
  res->n_ids = (size_t) k;
  return 0;
}

/* GET /info: the facts an engine's verification stands on. */
static int
decode_info (const eng_reply_t *r, const char *what, const cJSON *json, eng_result_t *res,
             eng_decoded_t *own)
{
  cJSON *rts = cJSON_GetObjectItemCaseSensitive (json, "Runtimes"), *rt;
  cJSON *sec = cJSON_GetObjectItemCaseSensitive (json, "SecurityOptions"), *so;
  int n = cJSON_GetArraySize (rts), n_sec = cJSON_GetArraySize (sec), k = 0, k_sec = 0;

  if (!cJSON_IsObject (json))
    return wb_error (&res->err, WB_E_ENGINE, "info: reply is not an object");
  own->ids = calloc ((size_t) n + 1, sizeof *own->ids);
  own->values = calloc ((size_t) n_sec + 1, sizeof *own->values);
  if (own->ids == NULL || own->values == NULL)
    return wb_error (&res->err, WB_E_NOMEM, "info: out of memory");
  if (cJSON_IsObject (rts))
    cJSON_ArrayForEach (rt, rts) if (rt->string && k < n) own->ids[k++] = rt->string;
  res->runtimes = own->ids;
  res->n_runtimes = (size_t) k;
  if (cJSON_IsArray (sec))
    cJSON_ArrayForEach (so, sec) if (cJSON_IsString (so) && k_sec < n_sec) own->values[k_sec++]
        = so->valuestring;
  res->security_options = own->values;
  res->n_security_options = (size_t) k_sec;
#define STRING_OF(key) cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (json, key))
  res->engine_id = STRING_OF ("ID");
  res->default_runtime = STRING_OF ("DefaultRuntime");
  res->server_version = STRING_OF ("ServerVersion");
  res->cgroup_version = STRING_OF ("CgroupVersion");
  res->oci_runtime = STRING_OF ("OciRuntime");
#undef STRING_OF
  return 0;
}

/* POST /images/load answers 200 and then a stream of JSON messages; a
 * failure is one of them ({"errorDetail":..., "error": "..."}), not a
 * status. */
static int
decode_load (const eng_reply_t *r, const char *what, const cJSON *json, eng_result_t *res,
             eng_decoded_t *own)
{
  const char *p = r->body, *end = r->body ? r->body + r->len : NULL;

  while (p && p < end)
    {
      const char *parse_end = NULL;
      cJSON *msg = cJSON_ParseWithLengthOpts (p, (size_t) (end - p), &parse_end, false);
      const char *e;
      if (msg == NULL)
        break; /* the rest is not JSON: nothing we can read an error from */
      e = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (msg, "error"));
      if (e && *e)
        {
          wb_error (&res->err, WB_E_ENGINE, "image load: %s", e);
          cJSON_Delete (msg);
          return -1;
        }
      cJSON_Delete (msg);
      p = parse_end;
      while (p < end && (*p == '\r' || *p == '\n' || *p == ' '))
        p++;
    }
  return 0;
}

bool
eng_err_refused (const wb_err_t *err)
{
  return err->code == WB_E_ENGINE && err->engine_status >= 400 && err->engine_status < 500
         && err->engine_status != 404;
}

/* Every kind of request, once: its name, the statuses that mean "already
 * where you wanted it" (success, nothing to decode), whether its body is
 * one JSON document, and its decoder (NULL: a 2xx status says it all). */
static const struct req_kind_info
{
  const char *what;
  long already[2];
  bool json;
  reply_decoder_t *decode;
} kinds[REQ_N_KINDS] = {
    [REQ_PING] = {"ping", {0}, false, decode_ping},
    [REQ_IMAGE_INSPECT] = {"image inspect", {0}, true, decode_id},
    [REQ_CREATE] = {"container create", {0}, true, decode_id},
    [REQ_START] = {"container start", {0}, false, NULL},
    [REQ_WAIT] = {"container wait", {0}, true, decode_wait},
    [REQ_KILL] = {"container kill", {409, 404}, false, NULL}, /* not running, gone */
    [REQ_INSPECT] = {"container inspect", {0}, true, decode_inspect},
    [REQ_REMOVE] = {"container remove", {404, 0}, false, NULL}, /* gone */
    [REQ_LIST] = {"container list", {0}, true, decode_list},
    [REQ_INFO] = {"info", {0}, true, decode_info},
    [REQ_IMAGE_SAVE] = {"image save", {0}, false, NULL}, /* the archive went to its file */
    [REQ_IMAGE_LOAD] = {"image load", {0}, false, decode_load},
};

const char *
eng_req_what (req_kind_t kind)
{
  return (unsigned) kind < REQ_N_KINDS ? kinds[kind].what : "request";
}

void
eng_reply_decode (req_kind_t kind, const eng_reply_t *r, eng_result_t *res, eng_decoded_t *own)
{
  const struct req_kind_info *k;

  if ((unsigned) kind >= REQ_N_KINDS)
    {
      res->rc = wb_error (&res->err, WB_E_INTERNAL, "a request of unknown kind %d", (int) kind);
      return;
    }
  k = &kinds[kind];
  if (r->status != 0 && (r->status == k->already[0] || r->status == k->already[1]))
    return;
  if (r->status < 200 || r->status > 299)
    {
      res->rc = eng_http_error (&res->err, r->status, k->what, r->body, r->len);
      /* Answers that refuse a start outright (a bad request, no such
       * container, a conflict): nothing of it ran.  Any other failure
       * (a 5xx from a start half done, a proxy's 502, no answer) may
       * come after the container started. */
      res->not_started
          = kind == REQ_START && (r->status == 400 || r->status == 404 || r->status == 409);
      return;
    }
  if (k->json && (own->json = cJSON_ParseWithLength (r->body ? r->body : "", r->len)) == NULL)
    {
      res->rc = wb_error (&res->err, WB_E_ENGINE, "%s: reply is not JSON", k->what);
      return;
    }
  if (k->decode)
    res->rc = k->decode (r, k->what, own->json, res, own);
}

void
eng_decoded_clear (eng_decoded_t *own)
{
  cJSON_Delete (own->json);
  free (own->ids);
  free (own->values);
  memset (own, 0, sizeof *own);
}

const char *const eng_masked_paths[] = {"/proc/asound",
                                        "/proc/acpi",
                                        "/proc/interrupts",
                                        "/proc/kcore",
                                        "/proc/keys",
                                        "/proc/latency_stats",
                                        "/proc/timer_list",
                                        "/proc/timer_stats",
                                        "/proc/sched_debug",
                                        "/proc/scsi",
                                        "/sys/firmware",
                                        "/sys/devices/virtual/powercap",
                                        NULL};

/* engine/proto.c: pure parsers of the engine's wire formats (no I/O of
 * their own).  All are fed bytes an engine (or something pretending to be
 * one) chose, so they are written to be fuzzed: bounded; only the
 * manifest check allocates (cJSON). */
#include "warmbox/engine.h"

#include <cjson/cJSON.h>
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
          cb (arg, d->stream, data, n);
          d->remaining -= (uint32_t) n;
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
      if (d->head[0] > ENG_STREAM_STDERR)
        return -1;
      d->stream = d->head[0];
      d->remaining = ((uint32_t) d->head[4] << 24) | ((uint32_t) d->head[5] << 16)
                     | ((uint32_t) d->head[6] << 8) | (uint32_t) d->head[7];
      d->head_have = 0;
    }
  return 0;
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
  if (memcmp (h + 257, "ustar\0" "00", 8) == 0)
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
    if ((p == n || p[-1] == '/') && (strncmp (p, "./", 2) == 0 || strncmp (p, "../", 3) == 0
                                    || strcmp (p, ".") == 0 || strcmp (p, "..") == 0 || *p == '/'))
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
        return wb_error (err, WB_E_ENGINE, "the archive holds %s (only docker save's own layout "
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
      wb_error (err, WB_E_ENGINE, "the archive's config is sha256:%.12s, not %.19s", digest, image_id);
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
                && (repos = cJSON_ParseWithLength (rb, (size_t) repos_size)) != NULL && cJSON_IsObject (repos);
      cJSON *list = ok ? repos : NULL;
      cJSON_ArrayForEach (repo, list)
      cJSON_ArrayForEach (t, repo)
      {
        char full[600];
        snprintf (full, sizeof full, "%s:%s", repo->string ? repo->string : "", t->string ? t->string : "");
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
      wb_error (err, WB_E_ENGINE, "the archive's image is %.80s, not %.80s", config ? config : "(none)",
                image_id);
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

/* engine/proto.c: pure parsers of the engine's wire formats (no I/O of
 * their own).  All are fed bytes an engine (or something pretending to be
 * one) chose, so they are written to be fuzzed: bounded; only the
 * manifest check allocates (cJSON). */
#include "warmbox/engine.h"

#include <cjson/cJSON.h>
#include <string.h>

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

int
eng_tar_member (eng_read_at read_at, void *arg, const char *name, char *out, size_t out_max,
                size_t *out_len)
{
  unsigned char h[TAR_BLOCK];
  uint64_t off = 0;
  size_t want = strlen (name);

  for (int members = 0; members < 100000; members++)
    {
      int64_t size;
      char full[256 + 1];
      size_t nlen, plen;

      if (read_at (arg, h, TAR_BLOCK, off) != TAR_BLOCK)
        return -1;
      if (h[0] == '\0')
        return 0; /* the end blocks: not there */
      size = tar_octal (h + 124, 12);
      if (size < 0)
        return -1;
      /* ustar: prefix (155 at 345) "/" name (100 at 0). */
      nlen = strnlen ((const char *) h, 100);
      plen = memcmp (h + 257, "ustar", 5) == 0 ? strnlen ((const char *) h + 345, 155) : 0;
      if (plen)
        {
          memcpy (full, h + 345, plen);
          full[plen] = '/';
          memcpy (full + plen + 1, h, nlen);
          full[plen + 1 + nlen] = '\0';
        }
      else
        {
          memcpy (full, h, nlen);
          full[nlen] = '\0';
        }
      off += TAR_BLOCK;
      if ((h[156] == '0' || h[156] == '\0') && strlen (full) == want && memcmp (full, name, want) == 0)
        {
          if ((uint64_t) size > out_max)
            return -1;
          if (size > 0 && read_at (arg, out, (size_t) size, off) != size)
            return -1;
          *out_len = (size_t) size;
          return 1;
        }
      if ((uint64_t) size > UINT64_MAX - off - TAR_BLOCK)
        return -1;
      off += ((uint64_t) size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
    }
  return -1;
}

int
eng_archive_manifest_check (const char *json, size_t len, const char *image_id, const char *tag,
                            wb_err_t *err)
{
  cJSON *root = cJSON_ParseWithLength (json ? json : "", len), *img, *tags, *t;
  const char *hex = strncmp (image_id, "sha256:", 7) == 0 ? image_id + 7 : image_id;
  const char *config;
  char want_json[80], want_blob[96];
  int rc = -1;

  snprintf (want_json, sizeof want_json, "%s.json", hex);
  snprintf (want_blob, sizeof want_blob, "blobs/sha256/%s", hex);
  if (!cJSON_IsArray (root) || cJSON_GetArraySize (root) != 1)
    {
      wb_error (err, WB_E_ENGINE, "the archive holds %d images, not one",
                cJSON_IsArray (root) ? cJSON_GetArraySize (root) : -1);
      goto out;
    }
  img = cJSON_GetArrayItem (root, 0);
  config = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (img, "Config"));
  if (config == NULL || (strcmp (config, want_json) != 0 && strcmp (config, want_blob) != 0))
    {
      wb_error (err, WB_E_ENGINE, "the archive's image is %.80s, not %.80s", config ? config : "(none)",
                image_id);
      goto out;
    }
  tags = cJSON_GetObjectItemCaseSensitive (img, "RepoTags");
  cJSON_ArrayForEach (t, tags)
  {
    const char *s = cJSON_GetStringValue (t);
    /* Docker may spell the default registry out. */
    if (s && strncmp (s, "docker.io/", 10) == 0)
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

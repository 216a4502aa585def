/* warmbox shared helpers: see include/warmbox/wb.h. */
#define _GNU_SOURCE
#include "warmbox/wb.h"

#include <errno.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- errors ---------------------------------------------------------- */

static void
err_vset (wb_err_t *err, wb_code_t code, int errnum, const char *fmt, va_list ap)
{
  if (err == NULL)
    return;
  err->code = code;
  err->engine_status = 0;
  vsnprintf (err->msg, sizeof err->msg, fmt, ap);
  if (errnum)
    {
      size_t used = strlen (err->msg);
      snprintf (err->msg + used, sizeof err->msg - used, ": %s", strerror (errnum));
    }
}

int
wb_error (wb_err_t *err, wb_code_t code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  err_vset (err, code, 0, fmt, ap);
  va_end (ap);
  return -1;
}

int
wb_error_errno (wb_err_t *err, wb_code_t code, int errnum, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  err_vset (err, code, errnum, fmt, ap);
  va_end (ap);
  return -1;
}

int
wb_err_wrap (wb_err_t *err, const char *fmt, ...)
{
  char prefix[256];
  size_t plen, olen;
  va_list ap;

  if (err == NULL)
    return -1;
  va_start (ap, fmt);
  vsnprintf (prefix, sizeof prefix, fmt, ap);
  va_end (ap);
  plen = strlen (prefix);
  olen = strnlen (err->msg, sizeof err->msg - 1);
  /* "prefix: old", cutting the old message's tail if it must. */
  if (plen + 2 + olen >= sizeof err->msg)
    olen = sizeof err->msg - 1 - plen - 2;
  memmove (err->msg + plen + 2, err->msg, olen);
  memcpy (err->msg, prefix, plen);
  memcpy (err->msg + plen, ": ", 2);
  err->msg[plen + 2 + olen] = '\0';
  return -1;
}

const char *
wb_code_name (wb_code_t code)
{
  switch (code)
    {
    case WB_OK:
      return "ok";
    case WB_E_INVALID:
      return "invalid_request";
    case WB_E_NOT_FOUND:
      return "not_found";
    case WB_E_TOO_LARGE:
      return "too_large";
    case WB_E_BUSY:
      return "busy";
    case WB_E_ENGINE_DOWN:
      return "engine_unavailable";
    case WB_E_ENGINE:
      return "engine_error";
    case WB_E_NOMEM:
      return "out_of_memory";
    case WB_E_IO:
      return "io_error";
    case WB_E_INTERNAL:
      return "internal_error";
    case WB_E_CANCELLED:
      return "cancelled";
    case WB_E_UNAUTHORIZED:
      return "unauthorized";
    case WB_E_RATE_LIMITED:
      return "rate_limited";
    case WB_E_SESSION_EXPIRED:
      return "session_expired";
    case WB_E_UNSUPPORTED:
      return "not_supported";
    case WB_E_FORBIDDEN:
      return "forbidden";
    case WB_E_MISDIRECTED:
      return "misdirected_request";
    case WB_E_MEDIA_TYPE:
      return "unsupported_media_type";
    }
  return "internal_error";
}

int
wb_code_http_status (wb_code_t code)
{
  switch (code)
    {
    case WB_OK:
      return 200;
    case WB_E_INVALID:
      return 400;
    case WB_E_NOT_FOUND:
      return 404;
    case WB_E_TOO_LARGE:
      return 413;
    case WB_E_BUSY:
      return 503;
    case WB_E_ENGINE_DOWN:
      return 503;
    case WB_E_ENGINE:
      return 502;
    case WB_E_CANCELLED:
      return 503;
    case WB_E_UNAUTHORIZED:
      return 401;
    case WB_E_RATE_LIMITED:
      return 429;
    case WB_E_SESSION_EXPIRED:
      return 410;
    case WB_E_UNSUPPORTED:
      return 501;
    case WB_E_FORBIDDEN:
      return 403;
    case WB_E_MISDIRECTED:
      return 421;
    case WB_E_MEDIA_TYPE:
      return 415;
    case WB_E_NOMEM:
    case WB_E_IO:
    case WB_E_INTERNAL:
      return 500;
    }
  return 500;
}

/* ---- logging --------------------------------------------------------- */

static wb_log_level_t log_level = WB_LOG_INFO;

void
wb_log_set_level (wb_log_level_t level)
{
  log_level = level;
}

wb_log_level_t
wb_log_get_level (void)
{
  return log_level;
}

void
wb_log_at (wb_log_level_t level, const char *func, const char *fmt, ...)
{
  static const char *names[] = {"debug", "info", "warn", "error"};
  char line[1024];
  struct timespec ts;
  struct tm tm;
  size_t n;
  va_list ap;

  if (level < log_level)
    return;
  clock_gettime (CLOCK_REALTIME, &ts);
  gmtime_r (&ts.tv_sec, &tm);
  n = strftime (line, sizeof line, "%Y-%m-%dT%H:%M:%S", &tm);
  n += snprintf (line + n, sizeof line - n, ".%03ldZ %s %s: ", ts.tv_nsec / 1000000L, names[level],
                 func);
  if (n < sizeof line)
    {
      va_start (ap, fmt);
      vsnprintf (line + n, sizeof line - n, fmt, ap);
      va_end (ap);
    }
  /* One write per line so concurrent writers do not interleave. */
  n = strlen (line);
  if (n + 1 < sizeof line)
    line[n++] = '\n';
  else
    line[sizeof line - 1] = '\n', n = sizeof line;
  if (write (STDERR_FILENO, line, n) < 0)
    {
      /* Nowhere left to report it. */
    }
}

/* ---- byte buffers ---------------------------------------------------- */

int
wb_buf_reserve (wb_buf_t *b, size_t n)
{
  size_t want, cap;
  char *p;

  if (n > SIZE_MAX - b->len - 1)
    return -1;
  want = b->len + n + 1;
  if (want <= b->cap)
    return 0;
  cap = b->cap ? b->cap : 64;
  while (cap < want)
    cap = cap > SIZE_MAX / 2 ? want : cap * 2;
  p = realloc (b->data, cap);
  if (p == NULL)
    return -1;
  b->data = p;
  b->cap = cap;
  b->data[b->len] = '\0';
  return 0;
}

int
wb_buf_append (wb_buf_t *b, const void *data, size_t len)
{
  if (wb_buf_reserve (b, len) < 0)
    return -1;
  if (len)
    memcpy (b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
  return 0;
}

int
wb_buf_append_str (wb_buf_t *b, const char *s)
{
  return wb_buf_append (b, s, strlen (s));
}

int
wb_buf_printf (wb_buf_t *b, const char *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  if (n < 0 || wb_buf_reserve (b, (size_t) n) < 0)
    return -1;
  va_start (ap, fmt);
  vsnprintf (b->data + b->len, (size_t) n + 1, fmt, ap);
  va_end (ap);
  b->len += (size_t) n;
  return 0;
}

void
wb_buf_consume (wb_buf_t *b, size_t n)
{
  if (n >= b->len)
    {
      wb_buf_reset (b);
      return;
    }
  memmove (b->data, b->data + n, b->len - n);
  b->len -= n;
  b->data[b->len] = '\0';
}

void
wb_buf_reset (wb_buf_t *b)
{
  b->len = 0;
  if (b->data)
    b->data[0] = '\0';
}

void
wb_buf_free (wb_buf_t *b)
{
  free (b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

char *
wb_buf_steal (wb_buf_t *b)
{
  char *p;

  if (b->data == NULL && wb_buf_reserve (b, 0) < 0)
    return NULL;
  p = b->data;
  b->data = NULL;
  b->len = b->cap = 0;
  return p;
}

/* ---- JSON and text helpers ------------------------------------------- */

int
wb_json_append_string (wb_buf_t *b, const char *s, size_t len)
{
  static const char hex[] = "0123456789abcdef";
  size_t i, run = 0;

  /* Worst case every byte becomes \u00XX. */
  if (len > (SIZE_MAX - 2) / 6 || wb_buf_reserve (b, len + 2) < 0)
    return -1;
  if (wb_buf_append (b, "\"", 1) < 0)
    return -1;
  for (i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) s[i];
      char esc[7];
      size_t esc_len = 0;

      if (c == '"' || c == '\\')
        esc[0] = '\\', esc[1] = (char) c, esc_len = 2;
      else if (c == '\n')
        esc[0] = '\\', esc[1] = 'n', esc_len = 2;
      else if (c == '\r')
        esc[0] = '\\', esc[1] = 'r', esc_len = 2;
      else if (c == '\t')
        esc[0] = '\\', esc[1] = 't', esc_len = 2;
      else if (c < 0x20 || c == 0x7f)
        {
          memcpy (esc, "\\u00", 4);
          esc[4] = hex[c >> 4];
          esc[5] = hex[c & 15];
          esc_len = 6;
        }
      if (esc_len == 0)
        {
          run++;
          continue;
        }
      if (wb_buf_append (b, s + i - run, run) < 0 || wb_buf_append (b, esc, esc_len) < 0)
        return -1;
      run = 0;
    }
  if (wb_buf_append (b, s + len - run, run) < 0)
    return -1;
  return wb_buf_append (b, "\"", 1);
}

bool
wb_utf8_valid (const char *str, size_t len)
{
  const unsigned char *s = (const unsigned char *) str;
  size_t i = 0;

  while (i < len)
    {
      unsigned char c = s[i];
      size_t need;
      uint32_t cp;

      if (c < 0x80)
        {
          i++;
          continue;
        }
      if (c >= 0xc2 && c <= 0xdf)
        need = 1, cp = c & 0x1f;
      else if (c >= 0xe0 && c <= 0xef)
        need = 2, cp = c & 0x0f;
      else if (c >= 0xf0 && c <= 0xf4)
        need = 3, cp = c & 0x07;
      else
        return false;
      if (len - i <= need)
        return false;
      for (size_t k = 1; k <= need; k++)
        {
          if ((s[i + k] & 0xc0) != 0x80)
            return false;
          cp = (cp << 6) | (s[i + k] & 0x3f);
        }
      if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff))
          || (cp >= 0xd800 && cp <= 0xdfff))
        return false;
      i += need + 1;
    }
  return true;
}

/* Append into room wb_buf_reserve already made: can't fail. */
static void
put_reserved (wb_buf_t *b, const void *data, size_t len)
{
  memcpy (b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
}

static const char b64_alphabet[]
    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int
wb_base64_encode (wb_buf_t *out, const void *data, size_t len)
{
  const unsigned char *p = data;
  size_t i;

  if (len > SIZE_MAX / 4 * 3 - 3 || wb_buf_reserve (out, (len + 2) / 3 * 4) < 0)
    return -1;
  for (i = 0; i + 2 < len; i += 3)
    {
      char q[4]
          = {b64_alphabet[p[i] >> 2], b64_alphabet[((p[i] & 3) << 4) | (p[i + 1] >> 4)],
             b64_alphabet[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)], b64_alphabet[p[i + 2] & 63]};
      put_reserved (out, q, 4);
    }
  if (len - i == 1)
    {
      char q[4] = {b64_alphabet[p[i] >> 2], b64_alphabet[(p[i] & 3) << 4], '=', '='};
      put_reserved (out, q, 4);
    }
  else if (len - i == 2)
    {
      char q[4] = {b64_alphabet[p[i] >> 2], b64_alphabet[((p[i] & 3) << 4) | (p[i + 1] >> 4)],
                   b64_alphabet[(p[i + 1] & 15) << 2], '='};
      put_reserved (out, q, 4);
    }
  return 0;
}

int
wb_hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int
wb_hex_decode (wb_buf_t *out, const char *s, size_t len)
{
  if (len % 2)
    return -1;
  for (size_t i = 0; i < len; i += 2)
    {
      int hi = wb_hex_digit (s[i]), lo = wb_hex_digit (s[i + 1]);
      char c = (char) (hi * 16 + lo);
      if (hi < 0 || lo < 0 || wb_buf_append (out, &c, 1) < 0)
        return -1;
    }
  return 0;
}

static int
b64_value (unsigned char c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

int
wb_base64_decode (wb_buf_t *out, const char *s, size_t len)
{
  size_t i, start = out->len;

  if (len % 4 != 0 || wb_buf_reserve (out, len / 4 * 3) < 0)
    return -1;
  for (i = 0; i < len; i += 4)
    {
      int v[4];
      int pad = 0;
      unsigned char bytes[3];

      for (int k = 0; k < 4; k++)
        {
          unsigned char c = (unsigned char) s[i + k];
          if (c == '=' && i + 4 == len && k >= 2)
            {
              v[k] = 0;
              pad++;
              continue;
            }
          if (pad) /* data after padding */
            goto bad;
          v[k] = b64_value (c);
          if (v[k] < 0)
            goto bad;
        }
      bytes[0] = (unsigned char) ((v[0] << 2) | (v[1] >> 4));
      bytes[1] = (unsigned char) (((v[1] & 15) << 4) | (v[2] >> 2));
      bytes[2] = (unsigned char) (((v[2] & 3) << 6) | v[3]);
      put_reserved (out, bytes, (size_t) (3 - pad));
    }
  return 0;
bad:
  out->len = start;
  if (out->data)
    out->data[start] = '\0';
  return -1;
}

void
wb_sha256_hex (const void *data, size_t len, char out[65])
{
  static const char hex[] = "0123456789abcdef";
  unsigned char md[32];
  unsigned int md_len = 0;

  /* EVP_Digest only fails on allocation failure inside OpenSSL; hash an
   * all-zero digest then rather than return garbage. */
  if (!EVP_Digest (data, len, md, &md_len, EVP_sha256 (), NULL) || md_len != 32)
    memset (md, 0, sizeof md);
  for (int i = 0; i < 32; i++)
    {
      out[2 * i] = hex[md[i] >> 4];
      out[2 * i + 1] = hex[md[i] & 15];
    }
  out[64] = '\0';
}

int
wb_random_hex (char *out, size_t nbytes)
{
  static const char hex[] = "0123456789abcdef";
  unsigned char raw[64];
  size_t got = 0;

  if (nbytes > sizeof raw)
    return -1;
  while (got < nbytes)
    {
      ssize_t r = getrandom (raw + got, nbytes - got, 0);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return -1;
      got += (size_t) r;
    }
  for (size_t i = 0; i < nbytes; i++)
    {
      out[2 * i] = hex[raw[i] >> 4];
      out[2 * i + 1] = hex[raw[i] & 15];
    }
  out[2 * nbytes] = '\0';
  return 0;
}

uint64_t
wb_now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
}

uint64_t
wb_now_ms (void)
{
  return wb_now_us () / 1000u;
}

size_t
wb_utf8_sanitize (wb_buf_t *out, const char *s, size_t len, size_t max, bool nul_visible)
{
  size_t i = 0;

  while (i < len && i < max)
    {
      unsigned char c = (unsigned char) s[i];
      size_t n = c < 0x80             ? 1
                 : (c & 0xE0) == 0xC0 ? 2
                 : (c & 0xF0) == 0xE0 ? 3
                 : (c & 0xF8) == 0xF0 ? 4
                                      : 0;
      int rc;

      if (n && i + n <= len && wb_utf8_valid (s + i, n))
        {
          if (i + n > max)
            break;
          rc = c == 0 && nul_visible ? wb_buf_append (out, "\\0", 2)
                                     : wb_buf_append (out, s + i, n);
          i += n;
        }
      else
        {
          rc = wb_buf_append (out, "\xEF\xBF\xBD", 3);
          i++;
        }
      if (rc < 0)
        return (size_t) -1;
    }
  return i;
}

int
wb_dir_trusted (const char *path, char *resolved, size_t size, wb_err_t *err)
{
  char real[PATH_MAX];
  struct stat st;
  uid_t me = geteuid ();
  bool last = true;

  if (realpath (path, real) == NULL)
    return wb_error_errno (err, WB_E_INVALID, errno, "%s", path);
  if ((size_t) snprintf (resolved, size, "%s", real) >= size)
    return wb_error (err, WB_E_INVALID, "%s: the path is too long", path);
  /* From the folder itself up to /, cutting a component at a time. */
  for (;;)
    {
      char *slash;
      if (stat (real, &st) < 0)
        return wb_error_errno (err, WB_E_INVALID, errno, "%s", real);
      if (last && !S_ISDIR (st.st_mode))
        return wb_error (err, WB_E_INVALID, "%s is not a folder", real);
      if (st.st_uid != 0 && st.st_uid != me)
        return wb_error (err, WB_E_INVALID,
                         "%s is owned by uid %u, neither root nor this user (%u)", real,
                         (unsigned) st.st_uid, (unsigned) me);
      if (st.st_mode & (S_IWGRP | S_IWOTH))
        return wb_error (err, WB_E_INVALID, "%s can be written by %s (mode %04o)", real,
                         st.st_mode & S_IWOTH ? "anyone" : "its group",
                         (unsigned) (st.st_mode & 07777));
      if (strcmp (real, "/") == 0)
        return 0;
      slash = strrchr (real, '/');
      if (slash == real)
        slash[1] = '\0';
      else
        *slash = '\0';
      last = false;
    }
}

int
wb_mkdir_p (const char *path, unsigned mode)
{
  char tmp[PATH_MAX];
  if (snprintf (tmp, sizeof tmp, "%s", path) >= (int) sizeof tmp)
    {
      errno = ENAMETOOLONG;
      return -1;
    }
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (tmp, 0755) < 0 && errno != EEXIST)
          return -1;
        *p = '/';
      }
  return mkdir (tmp, (mode_t) mode) < 0 && errno != EEXIST ? -1 : 0;
}

/* ---- the process ------------------------------------------------------ */

int
wb_no_core_dumps (wb_err_t *err)
{
  struct rlimit none = {0, 0};

  if (setrlimit (RLIMIT_CORE, &none) < 0)
    return wb_error_errno (err, WB_E_IO, errno, "setrlimit RLIMIT_CORE 0");
  if (prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
    return wb_error_errno (err, WB_E_IO, errno, "prctl PR_SET_DUMPABLE 0");
  return 0;
}

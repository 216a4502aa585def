/* oci/request.c: what the helper reads of a request before it acts on
 * it — the head (method, target, the three headers it honours), the
 * route, and the query's parameters.  No I/O, no allocation: the server
 * (server.c) hands in a head it has cut off its connection's input, and
 * dispatches on the route this returns.  tests/fuzz/fuzz_oci_request.c
 * feeds it any bytes.
 *
 * The routes are one table (routes[]): a method and a path pattern each,
 * the pattern's one "{}" a single path segment (a container's id or
 * name) and "{*}" one or more (an image reference may hold '/').  A path
 * may start with an API version ("/v1.41/...").  The first row that
 * matches wins; a path no row's pattern matches is 404, one whose
 * pattern matches with another method 405. */
#define _GNU_SOURCE
#include "oci/oci.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct
{
  const char *method;
  const char *pattern;
  oci_route_id_t id;
} routes[] = {
    {"GET", "/_ping", OCI_R_PING},
    {"GET", "/version", OCI_R_VERSION},
    {"GET", "/info", OCI_R_INFO},
    {"GET", "/events", OCI_R_EVENTS},
    {"POST", "/images/load", OCI_R_IMAGE_LOAD},
    {"GET", "/images/{*}/json", OCI_R_IMAGE_INSPECT},
    {"GET", "/images/{*}/get", OCI_R_IMAGE_GET},
    {"POST", "/containers/create", OCI_R_CREATE},
    {"GET", "/containers/json", OCI_R_LIST},
    {"DELETE", "/containers/{}", OCI_R_REMOVE},
    {"GET", "/containers/{}/json", OCI_R_INSPECT},
    {"POST", "/containers/{}/start", OCI_R_START},
    {"POST", "/containers/{}/attach", OCI_R_ATTACH},
    {"POST", "/containers/{}/kill", OCI_R_KILL},
    {"POST", "/containers/{}/wait", OCI_R_WAIT},
    {"POST", "/warmbox/v1/containers/{}/run", OCI_R_RUN},
};

int
oci_head_parse (char *head, oci_head_t *h, wb_err_t *err)
{
  char *save = NULL, *line = strtok_r (head, "\r\n", &save), *target, *q;
  size_t n;

  memset (h, 0, sizeof *h);
  if (line == NULL || (target = strchr (line, ' ')) == NULL)
    return wb_error (err, WB_E_INVALID, "malformed request line");
  n = (size_t) (target - line);
  if (n == 0 || n >= sizeof h->method)
    return wb_error (err, WB_E_INVALID, "malformed request line");
  memcpy (h->method, line, n);
  target++;
  q = strchr (target, ' ');
  if (q == NULL || strncmp (q, " HTTP/1.", 8) != 0)
    return wb_error (err, WB_E_INVALID, "malformed request line");
  *q = '\0';
  q = strchr (target, '?');
  if (q)
    *q++ = '\0';
  if (target[0] != '/' || strlen (target) >= sizeof h->path || (q && strlen (q) >= sizeof h->query))
    return wb_error (err, WB_E_INVALID, "malformed request target");
  memcpy (h->path, target, strlen (target) + 1);
  if (q)
    memcpy (h->query, q, strlen (q) + 1);
  while ((line = strtok_r (NULL, "\r\n", &save)) != NULL)
    {
      if (strncasecmp (line, "Content-Length:", 15) == 0)
        {
          const char *v = line + 15;
          char *end;
          while (*v == ' ' || *v == '\t')
            v++;
          errno = 0;
          if (*v < '0' || *v > '9' || h->has_length)
            return wb_error (err, WB_E_INVALID, "malformed Content-Length");
          h->body_len = strtoull (v, &end, 10);
          while (*end == ' ' || *end == '\t')
            end++;
          if (errno || *end)
            return wb_error (err, WB_E_INVALID, "malformed Content-Length");
          h->has_length = true;
        }
      else if (strncasecmp (line, "Transfer-Encoding:", 18) == 0)
        {
          /* warmbox's client always sends a length */
          wb_error (err, WB_E_INVALID, "chunked request bodies are not taken");
          return -2;
        }
      else if (strncasecmp (line, "Connection:", 11) == 0 && strcasestr (line + 11, "close"))
        h->close_after = true;
    }
  return 0;
}

/* Does path match pattern?  Its "{}" or "{*}" part into arg. */
static bool
pattern_match (const char *pattern, const char *path, char *arg, size_t arg_size)
{
  const char *hole = strchr (pattern, '{'), *tail;
  size_t pre, post, len, mid;
  bool many;

  if (hole == NULL)
    return strcmp (pattern, path) == 0;
  many = hole[1] == '*';
  tail = hole + (many ? 3 : 2);
  pre = (size_t) (hole - pattern);
  post = strlen (tail);
  len = strlen (path);
  if (len <= pre + post || strncmp (path, pattern, pre) != 0
      || strcmp (path + len - post, tail) != 0)
    return false;
  mid = len - pre - post;
  if (mid >= arg_size || (!many && memchr (path + pre, '/', mid) != NULL))
    return false;
  memcpy (arg, path + pre, mid);
  arg[mid] = '\0';
  return true;
}

int
oci_route (const oci_head_t *h, oci_route_id_t *id, char *arg, size_t arg_size)
{
  const char *p = h->path;
  bool path_known = false;

  if (arg_size)
    arg[0] = '\0'; /* a route without a variable part leaves it empty */
  /* "/v1.41/..." is "/...". */
  if (p[0] == '/' && p[1] == 'v' && p[2] >= '0' && p[2] <= '9')
    {
      const char *slash = strchr (p + 1, '/');
      p = slash ? slash : p + strlen (p);
    }
  for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
    if (pattern_match (routes[i].pattern, p, arg, arg_size))
      {
        if (strcmp (routes[i].method, h->method) == 0)
          {
            *id = routes[i].id;
            return 0;
          }
        path_known = true;
      }
  if (arg_size)
    arg[0] = '\0';
  return path_known ? 405 : 404;
}

bool
oci_url_decode (const char *in, size_t in_len, char *out, size_t size)
{
  size_t o = 0;

  if (size == 0)
    return false;
  for (size_t i = 0; i < in_len; i++)
    {
      char ch = in[i];
      if (ch == '%')
        {
          int hi = i + 2 < in_len ? wb_hex_digit (in[i + 1]) : -1;
          int lo = hi >= 0 ? wb_hex_digit (in[i + 2]) : -1;
          if (lo < 0)
            return false;
          ch = (char) (hi * 16 + lo);
          i += 2;
        }
      else if (ch == '+')
        ch = ' ';
      if (ch == '\0' || o + 1 >= size)
        return false;
      out[o++] = ch;
    }
  out[o] = '\0';
  return true;
}

int
oci_query_param (const char *query, const char *name, char *out, size_t size)
{
  size_t nlen = strlen (name);
  const char *p = query;

  while (p && *p)
    {
      const char *amp = strchr (p, '&');
      size_t len = amp ? (size_t) (amp - p) : strlen (p);
      if (len > nlen && strncmp (p, name, nlen) == 0 && p[nlen] == '=')
        return oci_url_decode (p + nlen + 1, len - nlen - 1, out, size) ? 1 : -1;
      p = amp ? amp + 1 : NULL;
    }
  return 0;
}

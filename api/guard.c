/* api/guard.c: Host, Origin and Content-Type, checked before anything else
 * (guard.h says why).
 *
 * The Host check stops DNS rebinding: a page at evil.example whose name
 * is made to resolve to 127.0.0.1 talks to a loopback listener with
 * "Host: evil.example", which no listener answers for.  The Origin check
 * stops simple cross-site requests (a form POST, a no-cors fetch): every
 * browser sends Origin on them, and warmboxd serves no page of its own,
 * so any origin is a foreign one unless the operator lists it.  The
 * media type keeps a JSON route from reading a body sent as text/plain
 * or a form, which a page may send without asking first. */
#define _GNU_SOURCE
#include "api/guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <strings.h>
#include <sys/un.h>

/* The host part of a Host header's value into out (lowercase, without its
 * port, brackets or one trailing dot); false when it is not one. */
static bool
host_name (const char *host, char *out, size_t size)
{
  const char *end;
  size_t len;
  bool bracketed = host[0] == '[';

  if (bracketed)
    {
      /* An IPv6 literal: "[::1]" or "[::1]:8080". */
      if ((end = strchr (host, ']')) == NULL || (end[1] != '\0' && end[1] != ':'))
        return false;
      host++;
    }
  else
    {
      end = strchr (host, ':');
      if (end == NULL)
        end = host + strlen (host);
      else if (strchr (end + 1, ':'))
        return false; /* two colons outside brackets: not a Host */
    }
  len = (size_t) (end - host);
  if (len && host[len - 1] == '.')
    len--;
  if (len == 0 || len >= size)
    return false;
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) host[i];
      if (c <= ' ' || c >= 0x7f || c == '/' || c == '@' || c == '\\')
        return false;
      out[i] = (char) (c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
  out[len] = '\0';
  /* Brackets hold an IPv6 address, nothing else ("[name]" is no Host). */
  if (bracketed)
    {
      struct in6_addr a6;
      return inet_pton (AF_INET6, out, &a6) == 1;
    }
  return true;
}

/* Is name the address local stands for, written as a literal? */
static bool
is_local_literal (const char *name, const struct sockaddr *local, bool *loopback)
{
  struct in_addr a4;
  struct in6_addr a6;

  *loopback = false;
  if (local->sa_family == AF_INET)
    {
      const struct sockaddr_in *in = (const struct sockaddr_in *) (const void *) local;
      *loopback = (ntohl (in->sin_addr.s_addr) >> 24) == 127;
      if (inet_pton (AF_INET, name, &a4) != 1)
        return false;
      return a4.s_addr == in->sin_addr.s_addr || (*loopback && (ntohl (a4.s_addr) >> 24) == 127);
    }
  if (local->sa_family == AF_INET6)
    {
      const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) (const void *) local;
      const struct in6_addr *l = &in6->sin6_addr;
      bool mapped = IN6_IS_ADDR_V4MAPPED (l);
      *loopback = IN6_IS_ADDR_LOOPBACK (l) || (mapped && l->s6_addr[12] == 127);
      if (inet_pton (AF_INET6, name, &a6) == 1)
        return memcmp (&a6, l, sizeof a6) == 0 || (*loopback && IN6_IS_ADDR_LOOPBACK (&a6));
      /* An IPv4 client of a dual-stack socket names the IPv4 address. */
      if (mapped && inet_pton (AF_INET, name, &a4) == 1)
        return memcmp (&a4, l->s6_addr + 12, 4) == 0
               || (*loopback && (ntohl (a4.s_addr) >> 24) == 127);
      return false;
    }
  return false;
}

int
http_guard_host (const api_config_t *cfg, const struct sockaddr *local, socklen_t local_len,
                 const char *host, wb_err_t *err)
{
  char name[256];
  bool loopback;

  if (local_len < (socklen_t) sizeof (sa_family_t))
    local = NULL; /* not known: only the names configured */
  if (host == NULL || (local && local->sa_family == AF_UNIX))
    return 0;
  if (!host_name (host, name, sizeof name))
    return wb_error (err, WB_E_MISDIRECTED, "the Host header is not a host name");
  loopback = false;
  if (local && is_local_literal (name, local, &loopback))
    return 0;
  if (loopback && strcmp (name, "localhost") == 0)
    return 0;
  for (size_t i = 0; i < cfg->n_hosts; i++)
    if (strcasecmp (cfg->hosts[i], name) == 0)
      return 0;
  return wb_error (err, WB_E_MISDIRECTED,
                   "this listener does not answer for the host %.200s (http.hosts lists the names "
                   "it does)",
                   name);
}

bool
http_guard_origin_listed (const api_config_t *cfg, const char *origin)
{
  for (size_t i = 0; i < cfg->n_origins; i++)
    if (strcasecmp (cfg->origins[i], origin) == 0)
      return true;
  return false;
}

int
http_guard_origin (const api_config_t *cfg, const char *origin, const char *fetch_site,
                   wb_err_t *err)
{
  if (origin == NULL)
    {
      if (fetch_site
          && (strcasecmp (fetch_site, "cross-site") == 0
              || strcasecmp (fetch_site, "same-site") == 0))
        return wb_error (err, WB_E_FORBIDDEN,
                         "requests from web pages are refused: this one is another site's "
                         "(Sec-Fetch-Site: %.20s)",
                         fetch_site);
      return 0;
    }
  if (http_guard_origin_listed (cfg, origin))
    return 0;
  return wb_error (err, WB_E_FORBIDDEN,
                   "requests from web pages are refused: the origin %.200s is not in http.origins",
                   origin);
}

/* Is the media type of ctype (its text before any ';', spaces around it
 * ignored) type? */
static bool
media_type_is (const char *ctype, const char *type)
{
  size_t len = strlen (type);

  while (*ctype == ' ' || *ctype == '\t')
    ctype++;
  if (strncasecmp (ctype, type, len) != 0)
    return false;
  ctype += len;
  while (*ctype == ' ' || *ctype == '\t')
    ctype++;
  return *ctype == '\0' || *ctype == ';';
}

int
http_guard_body (http_body_t kind, const char *ctype, size_t body_len, wb_err_t *err)
{
  static const char *const json[] = {"application/json", NULL};
  static const char *const connect[] = {"application/json", "application/connect+json", NULL};
  /* piston-client (node-fetch) sends its JSON as text/plain: the Origin
   * and Host checks, not the type, keep pages off this route. */
  static const char *const piston[] = {"application/json", "text/plain", NULL};
  static const char *const upload[] = {"multipart/form-data", "application/octet-stream", NULL};
  const char *const *types = kind == HTTP_BODY_JSON      ? json
                             : kind == HTTP_BODY_CONNECT ? connect
                             : kind == HTTP_BODY_PISTON  ? piston
                             : kind == HTTP_BODY_UPLOAD  ? upload
                                                         : NULL;

  if (types == NULL)
    return 0;
  if (ctype == NULL)
    {
      if (body_len == 0)
        return 0;
      return wb_error (err, WB_E_MEDIA_TYPE, "send the body with Content-Type: %s", types[0]);
    }
  for (size_t i = 0; types[i]; i++)
    if (media_type_is (ctype, types[i]))
      return 0;
  return wb_error (err, WB_E_MEDIA_TYPE, "this endpoint reads %s%s%s, not %.100s", types[0],
                   types[1] ? " or " : "", types[1] ? types[1] : "", ctype);
}

bool
http_guard_config_ok (const char *name, bool origin)
{
  char host[256];
  const char *rest = name;

  if (origin)
    {
      if (strncasecmp (name, "http://", 7) == 0)
        rest = name + 7;
      else if (strncasecmp (name, "https://", 8) == 0)
        rest = name + 8;
      else
        return false;
      /* scheme://host[:port], nothing after: what a browser sends. */
      if (strchr (rest, '/') || strchr (rest, '?') || strchr (rest, '#'))
        return false;
      return host_name (rest, host, sizeof host);
    }
  return host_name (name, host, sizeof host) && strcmp (host, name) == 0;
}

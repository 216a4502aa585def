/* The browser guard (api/guard.c): which Host a listener answers for,
 * which Origin it serves, which media types a route's body may have, and
 * which names the configuration takes.  Every case a page could send
 * (DNS rebinding, a simple cross-site POST, a form) and every case a
 * client of ours sends (curl, the SDKs, HAProxy's checks). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/un.h>

#include "api/guard.h"
#include "api/route.h"
#include "tap.h"

static struct sockaddr_in
v4 (const char *addr)
{
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons (8080)};
  inet_pton (AF_INET, addr, &a.sin_addr);
  return a;
}

static struct sockaddr_in6
v6 (const char *addr)
{
  struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons (8080)};
  inet_pton (AF_INET6, addr, &a.sin6_addr);
  return a;
}

static int
host_on (const api_config_t *cfg, const void *local, socklen_t len, const char *host, int *code)
{
  wb_err_t err = {0};
  int rc = http_guard_host (cfg, local, len, host, &err);
  *code = rc < 0 ? wb_code_http_status (err.code) : 200;
  return rc;
}

static void
test_host (void)
{
  char *hosts[] = {"warmbox.corp.example"};
  api_config_t none = {0}, named = {.hosts = hosts, .n_hosts = 1};
  struct sockaddr_in lo = v4 ("127.0.0.1"), pub = v4 ("192.0.2.7");
  struct sockaddr_in6 lo6 = v6 ("::1"), mapped = v6 ("::ffff:127.0.0.1");
  struct sockaddr_un un = {.sun_family = AF_UNIX};
  static const struct
  {
    const char *host;
    bool on_loopback, on_public, named_on_public;
  } cases[] = {
      /* Host                   loopback public named-public */
      {"127.0.0.1:8080", true, false, false},
      {"127.0.0.1", true, false, false},
      {"127.9.9.9:1", true, false, false},
      {"localhost:8080", true, false, false},
      {"LOCALHOST", true, false, false},
      {"localhost.", true, false, false},
      {"[::1]:8080", false, false, false}, /* an IPv4 listener is not ::1 */
      {"192.0.2.7:8080", false, true, true},
      {"evil.example", false, false, false},
      {"evil.example:8080", false, false, false},
      {"localhost.evil.example", false, false, false},
      {"127.0.0.1.evil.example", false, false, false},
      {"warmbox.corp.example", false, false, true},
      {"WARMBOX.corp.example:443", false, false, true},
      {"warmbox.corp.example.", false, false, true},
      {"warmbox.corp.example.evil", false, false, false},
      {"", false, false, false},
      {":8080", false, false, false},
      {"a b", false, false, false},
      {"user@localhost", false, false, false},
      {"localhost:80:80", false, false, false},
      {"[::1", false, false, false},
      {"[warmbox.corp.example]", false, false, false},
      {"[127.0.0.1]:8080", false, false, false},
  };
  int code;

  for (size_t i = 0; i < WB_ARRAY_SIZE (cases); i++)
    {
      bool a = host_on (&none, &lo, sizeof lo, cases[i].host, &code) == 0;
      bool b = host_on (&none, &pub, sizeof pub, cases[i].host, &code) == 0;
      bool c = host_on (&named, &pub, sizeof pub, cases[i].host, &code) == 0;
      ok (a == cases[i].on_loopback && b == cases[i].on_public && c == cases[i].named_on_public
              && (c || code == 421),
          "Host \"%s\": loopback listener %s, public %s, public with http.hosts %s (refused: 421)",
          cases[i].host, cases[i].on_loopback ? "serves" : "refuses",
          cases[i].on_public ? "serves" : "refuses",
          cases[i].named_on_public ? "serves" : "refuses");
    }
  ok (host_on (&none, &lo6, sizeof lo6, "[::1]:8080", &code) == 0
          && host_on (&none, &lo6, sizeof lo6, "localhost", &code) == 0
          && host_on (&none, &lo6, sizeof lo6, "evil.example", &code) < 0,
      "an IPv6 loopback listener: [::1] and localhost, not another name");
  ok (host_on (&none, &mapped, sizeof mapped, "127.0.0.1:8080", &code) == 0
          && host_on (&none, &mapped, sizeof mapped, "evil.example", &code) < 0,
      "an IPv4 client of a dual-stack loopback socket names 127.0.0.1");
  ok (host_on (&none, &un, sizeof un, "evil.example", &code) == 0,
      "a Unix socket: any Host (no browser reaches one)");
  ok (host_on (&none, &lo, sizeof lo, NULL, &code) == 0, "no Host (HTTP/1.0, a probe): served");
  ok (host_on (&none, NULL, 0, "localhost", &code) < 0
          && host_on (&named, NULL, 0, "warmbox.corp.example", &code) == 0,
      "the listener's address unknown: only the configured names");
}

static void
test_origin (void)
{
  char *origins[] = {"https://console.corp.example", "http://127.0.0.1:3000"};
  api_config_t none = {0}, listed = {.origins = origins, .n_origins = 2};
  wb_err_t err;

  ok (http_guard_origin (&none, NULL, NULL, &err) == 0, "no Origin (curl, the SDKs): served");
  ok (http_guard_origin (&none, "http://evil.example", NULL, &err) < 0 && err.code == WB_E_FORBIDDEN
          && wb_code_http_status (err.code) == 403 && strstr (err.msg, "http.origins"),
      "a foreign Origin: 403 that names http.origins");
  ok (http_guard_origin (&none, "http://127.0.0.1:8080", NULL, &err) < 0,
      "even the listener's own address as Origin: warmboxd serves no page of its own");
  ok (http_guard_origin (&none, "null", NULL, &err) < 0,
      "Origin: null (a sandboxed frame, a file): 403");
  ok (http_guard_origin (&listed, "https://console.corp.example", NULL, &err) == 0
          && http_guard_origin (&listed, "HTTPS://Console.corp.example", NULL, &err) == 0
          && http_guard_origin (&listed, "http://127.0.0.1:3000", NULL, &err) == 0,
      "a listed origin is served (without case)");
  ok (http_guard_origin (&none, NULL, "cross-site", &err) < 0 && err.code == WB_E_FORBIDDEN
          && http_guard_origin (&none, NULL, "same-site", &err) < 0
          && http_guard_origin (&none, NULL, "same-origin", &err) == 0
          && http_guard_origin (&none, NULL, "none", &err) == 0,
      "no Origin but Sec-Fetch-Site cross-site or same-site (a form's POST in a browser that "
      "leaves Origin off): 403; same-origin or none (typed in the address bar): served");
  ok (http_guard_origin (&listed, "https://console.corp.example", "cross-site", &err) == 0,
      "a listed origin's cross-site request is served (its console's fetch)");
  ok (http_guard_origin (&listed, "https://console.corp.example.evil", NULL, &err) < 0
          && http_guard_origin (&listed, "http://console.corp.example", NULL, &err) < 0
          && http_guard_origin (&listed, "http://127.0.0.1:3001", NULL, &err) < 0,
      "another scheme, port or a longer name is not the listed origin");
}

static void
test_body (void)
{
  static const struct
  {
    http_body_t kind;
    const char *ctype;
    size_t len;
    bool served;
  } cases[] = {
      {HTTP_BODY_JSON, "application/json", 10, true},
      {HTTP_BODY_JSON, "application/json; charset=utf-8", 10, true},
      {HTTP_BODY_JSON, "Application/JSON", 10, true},
      {HTTP_BODY_JSON, " application/json ;charset=utf-8", 10, true},
      {HTTP_BODY_JSON, "text/plain", 10, false},
      {HTTP_BODY_JSON, "text/plain;charset=UTF-8", 10, false},
      {HTTP_BODY_JSON, "application/x-www-form-urlencoded", 10, false},
      {HTTP_BODY_JSON, "multipart/form-data; boundary=x", 10, false},
      {HTTP_BODY_JSON, "application/jsonx", 10, false},
      {HTTP_BODY_JSON, "application/json-seq", 10, false},
      {HTTP_BODY_JSON, "", 10, false},
      {HTTP_BODY_JSON, NULL, 10, false},
      {HTTP_BODY_JSON, NULL, 0, true},
      {HTTP_BODY_JSON, "text/plain", 0, false},
      {HTTP_BODY_CONNECT, "application/connect+json", 10, true},
      {HTTP_BODY_CONNECT, "application/json", 10, true},
      {HTTP_BODY_CONNECT, "application/proto", 10, false},
      {HTTP_BODY_CONNECT, "text/plain", 10, false},
      {HTTP_BODY_UPLOAD, "multipart/form-data; boundary=----formdata-undici-1", 10, true},
      {HTTP_BODY_UPLOAD, "application/octet-stream", 10, true},
      {HTTP_BODY_UPLOAD, "text/plain", 10, false},
      {HTTP_BODY_UPLOAD, "application/json", 10, false},
      {HTTP_BODY_PISTON, "text/plain;charset=UTF-8", 10, true},
      {HTTP_BODY_PISTON, "application/json", 10, true},
      {HTTP_BODY_PISTON, "application/x-www-form-urlencoded", 10, false},
      {HTTP_BODY_NONE, "text/plain", 10, true},
  };
  wb_err_t err;

  for (size_t i = 0; i < WB_ARRAY_SIZE (cases); i++)
    {
      int rc = http_guard_body (cases[i].kind, cases[i].ctype, cases[i].len, &err);
      ok ((rc == 0) == cases[i].served
              && (cases[i].served
                  || (err.code == WB_E_MEDIA_TYPE && wb_code_http_status (err.code) == 415)),
          "kind %d, Content-Type \"%s\", %zu bytes: %s", cases[i].kind,
          cases[i].ctype ? cases[i].ctype : "(none)", cases[i].len,
          cases[i].served ? "read" : "415");
    }
}

static void
test_routes (void)
{
  size_t n;
  const http_route_t *t = http_routes (&n);

  for (size_t i = 0; i < n; i++)
    ok (!(t[i].methods & EVHTTP_REQ_POST) || t[i].body != HTTP_BODY_NONE
            || strcmp (t[i].path, "/snapshots") == 0 || strcmp (t[i].path, "/templates") == 0
            || strcmp (t[i].path, "/volumes") == 0,
        "%s: a route that reads a POST's body says its media type", t[i].path);
  ok (http_route_find ("/files")->body == HTTP_BODY_UPLOAD
          && http_route_find ("/process.Process/Start")->body == HTTP_BODY_CONNECT
          && http_route_find ("/v1/executions")->body == HTTP_BODY_JSON
          && http_route_find ("/api/v2/execute")->body == HTTP_BODY_PISTON,
      "uploads, Connect and JSON routes read what their clients send");
}

static void
test_config_names (void)
{
  static const struct
  {
    const char *name;
    bool origin, good;
  } cases[] = {
      {"warmbox.corp.example", false, true},
      {"Warmbox.corp.example", false, false},
      {"warmbox.corp.example:8080", false, false},
      {"", false, false},
      {"http://x", false, false},
      {"https://console.example", true, true},
      {"http://127.0.0.1:3000", true, true},
      {"https://console.example/", true, false},
      {"console.example", true, false},
      {"ftp://console.example", true, false},
      {"https://", true, false},
      {"https://a b", true, false},
  };

  for (size_t i = 0; i < WB_ARRAY_SIZE (cases); i++)
    ok (http_guard_config_ok (cases[i].name, cases[i].origin) == cases[i].good,
        "http.%s takes \"%s\": %s", cases[i].origin ? "origins" : "hosts", cases[i].name,
        cases[i].good ? "yes" : "no");
}

int
main (void)
{
  test_host ();
  test_origin ();
  test_body ();
  test_routes ();
  test_config_names ();
  return tap_done ();
}

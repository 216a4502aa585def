/* Fuzz the browser guard (api/guard.c): the input's first byte picks the
 * listener's address and the check, the rest is the Host, Origin or
 * Content-Type value.  Properties: nothing crashes or reads past the
 * value; a refusal always has its status (421, 403, 415) and a message;
 * a Host is served on a public listener only if it names the listener's
 * address or a configured name; an Origin only if it is listed. */
#include "api/guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *hosts[] = {"warmbox.example"};
  char *origins[] = {"https://console.example"};
  api_config_t cfg = {.hosts = hosts, .n_hosts = 1, .origins = origins, .n_origins = 1};
  struct sockaddr_in lo = {.sin_family = AF_INET}, pub = {.sin_family = AF_INET};
  wb_err_t err;
  char *value;
  int rc;

  if (size < 1)
    return 0;
  if ((value = malloc (size)) == NULL)
    return 0;
  memcpy (value, data + 1, size - 1);
  value[size - 1] = '\0';
  inet_pton (AF_INET, "127.0.0.1", &lo.sin_addr);
  inet_pton (AF_INET, "192.0.2.7", &pub.sin_addr);
  switch (data[0] % 4)
    {
    case 0:
      rc = http_guard_host (&cfg, (struct sockaddr *) &lo, sizeof lo, value, &err);
      if (rc < 0 && (err.code != WB_E_MISDIRECTED || err.msg[0] == '\0'))
        abort ();
      break;
    case 1:
      rc = http_guard_host (&cfg, (struct sockaddr *) &pub, sizeof pub, value, &err);
      if (rc < 0 && (err.code != WB_E_MISDIRECTED || err.msg[0] == '\0'))
        abort ();
      /* Served on a public address: its own literal or the configured name. */
      if (rc == 0 && strncmp (value, "192.0.2.7", 9) != 0
          && strncasecmp (value, "warmbox.example", 15) != 0)
        abort ();
      break;
    case 2:
      rc = http_guard_origin (&cfg, value, NULL, &err);
      if ((rc == 0) != (strcasecmp (value, origins[0]) == 0))
        abort ();
      if (rc < 0 && err.code != WB_E_FORBIDDEN)
        abort ();
      break;
    default:
      rc = http_guard_body ((http_body_t) (data[0] / 4 % 4), value, size, &err);
      if (rc < 0 && err.code != WB_E_MEDIA_TYPE)
        abort ();
      (void) http_guard_config_ok (value, data[0] & 0x80);
      break;
    }
  free (value);
  return 0;
}

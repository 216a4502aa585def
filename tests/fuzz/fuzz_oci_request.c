/* Fuzz the OCI helper's request reading (oci/request.c): any bytes as a
 * request head give a parsed head or a refusal with a sentence; a parsed
 * head routes to a row of the table or a 404/405 with its variable part
 * bounded; any bytes as a query give each parameter decoded within its
 * buffer or refused. */
#include "oci/oci.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = malloc (size + 1), arg[64], out[16];
  oci_head_t h;
  oci_route_id_t id;
  wb_err_t err = {0};
  int r;

  if (text == NULL)
    return 0;
  memcpy (text, data, size);
  text[size] = '\0';
  for (const char *const *name = (const char *const[]){"name", "filters", "signal", "x", NULL};
       *name; name++)
    {
      r = oci_query_param (text, *name, out, sizeof out);
      if (r < -1 || r > 1 || (r == 1 && strlen (out) >= sizeof out))
        abort ();
    }
  r = oci_head_parse (text, &h, &err);
  if (r < 0)
    {
      if (err.msg[0] == '\0' || (r != -1 && r != -2))
        abort ();
      free (text);
      return 0;
    }
  if (h.path[0] != '/' || strlen (h.method) == 0 || strlen (h.method) >= sizeof h.method)
    abort ();
  r = oci_route (&h, &id, arg, sizeof arg);
  if ((r != 0 && r != 404 && r != 405) || strlen (arg) >= sizeof arg
      || (r == 0 && (id < OCI_R_PING || id > OCI_R_RUN)))
    abort ();
  if (r == 0 && id >= OCI_R_REMOVE && (arg[0] == '\0' || strchr (arg, '/')))
    abort (); /* a container's id is one segment, never empty */
  free (text);
  return 0;
}

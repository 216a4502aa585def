/* Fuzz warmbox mcp's message handling: any line must get well-formed
 * JSON-RPC answers (one JSON object per line, jsonrpc "2.0") or none, and
 * nothing may crash.  The daemon is unreachable here, so tools/call takes
 * its "unavailable" path on a thread of its own. */
#include "mcp.h"
#include "warmbox/wb.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static bool ready;
  char *out = NULL, *line, *save = NULL;
  size_t out_len = 0;
  FILE *sink;

  if (!ready)
    {
      curl_global_init (CURL_GLOBAL_DEFAULT);
      ready = true;
    }
  if (memchr (data, '\n', size) != NULL)
    return 0; /* the transport splits lines before dispatch */
  sink = open_memstream (&out, &out_len);
  if (sink == NULL)
    abort ();
  cli_mcp_init ("unix:/nonexistent/warmbox-fuzz.sock", 1024, sink);
  cli_mcp_dispatch ((const char *) data, size);
  cli_mcp_finish ();
  fclose (sink);
  for (line = strtok_r (out, "\n", &save); line; line = strtok_r (NULL, "\n", &save))
    {
      cJSON *msg = cJSON_Parse (line);
      const char *v = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (msg, "jsonrpc"));
      if (msg == NULL || v == NULL || strcmp (v, "2.0") != 0 || !cJSON_HasObjectItem (msg, "id")
          || (cJSON_HasObjectItem (msg, "result") == cJSON_HasObjectItem (msg, "error")))
        abort ();
      cJSON_Delete (msg);
    }
  free (out);
  return 0;
}

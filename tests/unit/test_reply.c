/* The engine's replies, decoded by request kind (engine/proto.c's table):
 * the statuses that mean "already so", refusals with the engine's
 * message, bodies that are not JSON, and each kind's fields. */
#define _GNU_SOURCE
#include "engine_int.h"
#include "failmalloc.h"
#include "tap.h"

typedef struct decoded
{
  eng_result_t res;
  eng_decoded_t own;
} decoded_t;

static decoded_t d;

/* Decode body (a string) as a reply of kind with status; d holds it until
 * the next call. */
static const eng_result_t *
decode (req_kind_t kind, long status, const char *body)
{
  eng_reply_t r = {status, body, body ? strlen (body) : 0, "", false, NULL};

  eng_decoded_clear (&d.own);
  memset (&d.res, 0, sizeof d.res);
  eng_reply_decode (kind, &r, &d.res, &d.own);
  return &d.res;
}

static bool
failed (const eng_result_t *res, wb_code_t code, const char *in_msg)
{
  bool good = res->rc == -1 && res->err.code == code && strstr (res->err.msg, in_msg) != NULL;
  if (!good)
    printf ("#   rc %d, code %s, \"%s\"\n", res->rc, wb_code_name (res->err.code), res->err.msg);
  return good;
}

static void
test_names (void)
{
  static const char *const want[REQ_N_KINDS] = {
      [REQ_PING] = "ping",
      [REQ_IMAGE_INSPECT] = "image inspect",
      [REQ_CREATE] = "container create",
      [REQ_START] = "container start",
      [REQ_WAIT] = "container wait",
      [REQ_KILL] = "container kill",
      [REQ_INSPECT] = "container inspect",
      [REQ_REMOVE] = "container remove",
      [REQ_LIST] = "container list",
      [REQ_INFO] = "info",
      [REQ_IMAGE_SAVE] = "image save",
      [REQ_IMAGE_LOAD] = "image load",
  };
  int named = 0;

  for (int k = 0; k < REQ_N_KINDS; k++)
    named += want[k] && strcmp (eng_req_what (k), want[k]) == 0;
  is_int (named, REQ_N_KINDS, "every kind has its name");
  is_str (eng_req_what (REQ_N_KINDS), "request", "a kind out of range: \"request\"");
  ok (failed (decode (REQ_N_KINDS, 200, "{}"), WB_E_INTERNAL, "unknown kind"),
      "... and its reply is refused");
}

static void
test_statuses (void)
{
  const eng_result_t *res;

  ok (decode (REQ_KILL, 409, "{\"message\":\"not running\"}")->rc == 0,
      "kill 409 (not running): done");
  ok (decode (REQ_KILL, 404, NULL)->rc == 0, "kill 404 (gone): done");
  ok (decode (REQ_REMOVE, 404, NULL)->rc == 0, "remove 404 (gone): done");
  res = decode (REQ_REMOVE, 409, "{\"message\":\"removal in progress\"}");
  ok (failed (res, WB_E_ENGINE, "container remove: engine answered 409: removal in progress")
          && res->err.engine_status == 409,
      "remove 409: refused, with the engine's message and status");
  res = decode (REQ_START, 404, "{\"message\":\"no such container\"}");
  ok (failed (res, WB_E_NOT_FOUND, "container start: engine answered 404: no such container")
          && res->err.engine_status == 404,
      "start 404: WB_E_NOT_FOUND");
  res = decode (REQ_START, 304, NULL);
  ok (failed (res, WB_E_ENGINE, "engine answered 304: (no message)")
          && res->err.engine_status == 304,
      "start 304 (already started): refused as any status out of 2xx");
  ok (failed (decode (REQ_CREATE, 500, "not json"), WB_E_ENGINE,
              "engine answered 500: (no message)"),
      "500 with a body that is not JSON: no message");
  ok (failed (decode (REQ_INFO, 0, NULL), WB_E_ENGINE, "info: engine answered 0"),
      "no status at all: refused");
  ok (decode (REQ_START, 204, NULL)->rc == 0, "start 204: done");
  ok (decode (REQ_KILL, 204, NULL)->rc == 0 && decode (REQ_REMOVE, 204, NULL)->rc == 0,
      "kill, remove 204: done");
  ok (decode (REQ_IMAGE_SAVE, 200, NULL)->rc == 0,
      "image save 200: done (the archive went to its file)");
  static const req_kind_t json_kinds[]
      = {REQ_IMAGE_INSPECT, REQ_CREATE, REQ_WAIT, REQ_INSPECT, REQ_LIST, REQ_INFO};
  for (size_t i = 0; i < WB_ARRAY_SIZE (json_kinds); i++)
    {
      char want[64];
      snprintf (want, sizeof want, "%s: reply is not JSON", eng_req_what (json_kinds[i]));
      ok (failed (decode (json_kinds[i], 200, "{\"Id\":"), WB_E_ENGINE, want)
              && failed (decode (json_kinds[i], 200, NULL), WB_E_ENGINE, want),
          "%s: a 200 whose body is cut or empty: \"%s\"", eng_req_what (json_kinds[i]), want);
    }
}

static void
test_kinds (void)
{
  const eng_result_t *res;
  eng_reply_t r;

  /* ping */
  r = (eng_reply_t){200, "OK", 2, "1.43", true, NULL};
  eng_decoded_clear (&d.own);
  memset (&d.res, 0, sizeof d.res);
  eng_reply_decode (REQ_PING, &r, &d.res, &d.own);
  ok (d.res.rc == 0 && d.res.api_version && strcmp (d.res.api_version, "1.41") == 0 && d.res.podman,
      "ping from a newer engine: we speak ours (1.41); Podman noted");
  r.api_header = "1.40";
  r.libpod = false;
  eng_decoded_clear (&d.own);
  memset (&d.res, 0, sizeof d.res);
  eng_reply_decode (REQ_PING, &r, &d.res, &d.own);
  ok (d.res.rc == 0 && strcmp (d.res.api_version, "1.40") == 0 && !d.res.podman, "ping 1.40: 1.40");
  static const char *const bad_versions[] = {"", "1.39", "2.41", "1.41x", "v1.41", "1"};
  for (size_t i = 0; i < WB_ARRAY_SIZE (bad_versions); i++)
    {
      r.api_header = bad_versions[i];
      eng_decoded_clear (&d.own);
      memset (&d.res, 0, sizeof d.res);
      eng_reply_decode (REQ_PING, &r, &d.res, &d.own);
      ok (d.res.rc == -1 && d.res.err.code == WB_E_ENGINE && d.res.api_version == NULL,
          "ping with API-Version \"%s\": refused (%s)", bad_versions[i], d.res.err.msg);
    }

  /* ids */
  res = decode (REQ_CREATE, 201, "{\"Id\":\"abc123\",\"Warnings\":[]}");
  ok (res->rc == 0 && res->id && strcmp (res->id, "abc123") == 0, "create: the Id");
  ok (failed (decode (REQ_CREATE, 201, "{\"Id\":\"\"}"), WB_E_ENGINE,
              "container create: reply has no Id"),
      "create: an empty Id is refused");
  ok (failed (decode (REQ_IMAGE_INSPECT, 200, "{\"Id\":7}"), WB_E_ENGINE,
              "image inspect: reply has no Id"),
      "image inspect: an Id that is not a string is refused");

  /* wait */
  res = decode (REQ_WAIT, 200, "{\"StatusCode\":137,\"Error\":null}");
  ok (res->rc == 0 && res->exit_code == 137, "wait: the StatusCode");
  ok (failed (decode (REQ_WAIT, 200, "{\"StatusCode\":0,\"Error\":{\"Message\":\"cgroup gone\"}}"),
              WB_E_ENGINE, "container wait: cgroup gone"),
      "wait: an Error.Message fails it");
  ok (decode (REQ_WAIT, 200, "{\"StatusCode\":3,\"Error\":{\"Message\":\"\"}}")->rc == 0,
      "... an empty one does not");
  ok (failed (decode (REQ_WAIT, 200, "{\"StatusCode\":\"0\"}"), WB_E_ENGINE, "no StatusCode"),
      "wait: a StatusCode that is not a number");
  ok (failed (decode (REQ_WAIT, 200, "{\"StatusCode\":1e300}"), WB_E_ENGINE, "no StatusCode")
          && failed (decode (REQ_WAIT, 200, "{\"StatusCode\":-3000000000}"), WB_E_ENGINE,
                     "no StatusCode"),
      "wait: a StatusCode past an int is refused (no cast out of range)");
  ok (decode (REQ_WAIT, 200, "{\"StatusCode\":-2147483648}")->rc == 0
          && d.res.exit_code == -2147483648L,
      "... the least int is not");

  /* inspect */
  static const char inspect[]
      = "{\"Id\":\"x\",\"State\":{\"Running\":true,\"OOMKilled\":true,\"ExitCode\":-1}}";
  res = decode (REQ_INSPECT, 200, inspect);
  ok (res->rc == 0 && res->running && res->oom_killed && res->exit_code == -1
          && res->json == d.res.json && res->json_len == strlen (inspect),
      "inspect: Running, OOMKilled, ExitCode, and the whole reply");
  ok (failed (decode (REQ_INSPECT, 200, "{\"State\":{\"Running\":false}}"), WB_E_ENGINE,
              "reply has no State"),
      "inspect: no ExitCode");
  ok (failed (decode (REQ_INSPECT, 200, "{\"State\":{\"ExitCode\":9e99}}"), WB_E_ENGINE,
              "reply has no State"),
      "inspect: an ExitCode past an int");

  /* list */
  r = (eng_reply_t){200, NULL, 0, "", false, "warmbox.pool"};
  r.body = "[{\"Id\":\"a\",\"Labels\":{\"warmbox.pool\":\"p1\"}},{\"Names\":[\"/no-id\"]},"
           "{\"Id\":\"b\",\"Labels\":{}},{\"Id\":\"c\",\"Labels\":{\"warmbox.pool\":\"p2\"}}]";
  r.len = strlen (r.body);
  eng_decoded_clear (&d.own);
  memset (&d.res, 0, sizeof d.res);
  eng_reply_decode (REQ_LIST, &r, &d.res, &d.own);
  ok (d.res.rc == 0 && d.res.n_ids == 3 && strcmp (d.res.ids[0], "a") == 0
          && strcmp (d.res.ids[1], "b") == 0 && strcmp (d.res.ids[2], "c") == 0
          && d.res.ids[3] == NULL,
      "list: the ids in order, one without an Id skipped, NULL-ended");
  ok (d.res.values && strcmp (d.res.values[0], "p1") == 0 && d.res.values[1] == NULL
          && strcmp (d.res.values[2], "p2") == 0,
      "list: each one's value of the label asked for, NULL without it");
  res = decode (REQ_LIST, 200, "[{\"Id\":\"a\",\"Labels\":{\"warmbox.pool\":\"p1\"}}]");
  ok (res->rc == 0 && res->n_ids == 1 && res->values[0] == NULL, "list: no label asked, no values");
  ok (decode (REQ_LIST, 200, "[]")->rc == 0 && d.res.n_ids == 0, "list: empty");
  ok (failed (decode (REQ_LIST, 200, "{}"), WB_E_ENGINE, "not an array"),
      "list: an object is refused");

  /* info */
  res = decode (REQ_INFO, 200,
                "{\"ID\":\"E:1\",\"ServerVersion\":\"24.0.7\",\"DefaultRuntime\":\"runc\","
                "\"CgroupVersion\":\"2\","
                "\"Runtimes\":{\"runc\":{},\"runsc\":{}},\"SecurityOptions\":[\"name=seccomp,"
                "profile=builtin\",7,"
                "\"name=cgroupns\"]}");
  ok (res->rc == 0 && res->n_runtimes == 2 && strcmp (res->runtimes[0], "runc") == 0
          && strcmp (res->runtimes[1], "runsc") == 0,
      "info: the runtimes by name");
  ok (res->n_security_options == 2 && strcmp (res->security_options[1], "name=cgroupns") == 0,
      "info: the security options (what is not a string skipped)");
  ok (strcmp (res->engine_id, "E:1") == 0 && strcmp (res->server_version, "24.0.7") == 0
          && strcmp (res->default_runtime, "runc") == 0 && strcmp (res->cgroup_version, "2") == 0,
      "info: ID, ServerVersion, DefaultRuntime, CgroupVersion");
  res = decode (REQ_INFO, 200, "{\"Runtimes\":[1,2]}");
  ok (res->rc == 0 && res->n_runtimes == 0 && res->n_security_options == 0
          && res->engine_id == NULL,
      "info: odd shapes give nothing, not an error");
  ok (failed (decode (REQ_INFO, 200, "[]"), WB_E_ENGINE, "info: reply is not an object"),
      "info: an array is refused");

  /* image load */
  ok (decode (REQ_IMAGE_LOAD, 200, "{\"stream\":\"Loaded image: x\\n\"}\r\n{\"stream\":\"ok\"}\n")
              ->rc
          == 0,
      "image load: a stream of messages with no error");
  ok (failed (decode (REQ_IMAGE_LOAD, 200,
                      "{\"stream\":\"a\"}\n{\"errorDetail\":{},\"error\":\"disk full\"}\n"),
              WB_E_ENGINE, "image load: disk full"),
      "image load: an error message fails it");
  ok (decode (REQ_IMAGE_LOAD, 200, "{\"stream\":\"a\"}\ngarbage {\"error\":\"x\"}")->rc == 0,
      "image load: what follows garbage is not read");
  ok (decode (REQ_IMAGE_LOAD, 200, NULL)->rc == 0, "image load: an empty body");
}

/* Every allocation of a list's and an info's decode failing in turn. */
static void
test_alloc_faults (void)
{
  static const struct
  {
    req_kind_t kind;
    const char *body;
  } cases[] = {
      {REQ_LIST, "[{\"Id\":\"a\",\"Labels\":{\"k\":\"v\"}},{\"Id\":\"b\"}]"},
      {REQ_INFO, "{\"Runtimes\":{\"runc\":{}},\"SecurityOptions\":[\"name=seccomp\"]}"},
      {REQ_INSPECT, "{\"State\":{\"ExitCode\":0}}"},
  };

  for (size_t i = 0; i < WB_ARRAY_SIZE (cases); i++)
    {
      int faults = 0, wrong = 0;
      for (long n = 1;; n++)
        {
          failmalloc_arm (n);
          const eng_result_t *res = decode (cases[i].kind, 200, cases[i].body);
          bool fired = failmalloc_fired ();
          failmalloc_arm (0);
          if (!fired)
            {
              wrong += res->rc != 0;
              break;
            }
          faults++;
          /* cJSON failing to parse reads as "not JSON"; our arrays as out of memory. */
          wrong += res->rc != -1 || (res->err.code != WB_E_NOMEM && res->err.code != WB_E_ENGINE);
        }
      ok (faults > 0 && wrong == 0, "%s: each of %d allocations failing gives -1, the last run 0",
          eng_req_what (cases[i].kind), faults);
    }
}

/* eng_err_refused: the engine answered no to the request as asked. */
static void
test_refused (void)
{
  static const struct
  {
    wb_code_t code;
    int status;
    bool refused;
  } cases[]
      = {{WB_E_ENGINE, 400, true},  {WB_E_ENGINE, 409, true},     {WB_E_NOT_FOUND, 404, false},
         {WB_E_ENGINE, 500, false}, {WB_E_ENGINE_DOWN, 0, false}, {WB_E_ENGINE, 0, false}};

  for (size_t i = 0; i < WB_ARRAY_SIZE (cases); i++)
    {
      wb_err_t e;
      memset (&e, 0, sizeof e);
      e.code = cases[i].code;
      e.engine_status = cases[i].status;
      ok (eng_err_refused (&e) == cases[i].refused, "%s with status %d: %s", wb_code_name (e.code),
          e.engine_status, cases[i].refused ? "refused as asked" : "not a refusal");
    }
}

int
main (void)
{
  failmalloc_install ();
  test_refused ();
  test_names ();
  test_statuses ();
  test_kinds ();
  test_alloc_faults ();
  eng_decoded_clear (&d.own);
  return tap_done ();
}

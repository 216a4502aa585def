/* The Piston v2 mapping: its fields built into a request (aliases,
 * versions, encodings, limits, refusals) and the response shapes. */
#include <cjson/cJSON.h>

#include "api/piston.h"
#include "api/request.h"
#include "tap.h"

static prof_set_t *set;

/* 0 and *req filled, or -1 with err. */
static int
piston (const char *body, sched_request_t *req, wb_err_t *err)
{
  return sched_piston_parse (body, strlen (body), set, req, err);
}

static void
refused (const char *body, wb_code_t code, const char *needle, const char *what)
{
  sched_request_t req;
  wb_err_t err = {0};
  int rc = piston (body, &req, &err);
  if (!ok (rc < 0 && err.code == code && strstr (err.msg, needle), "%s", what))
    printf ("#   rc %d code %s msg %s\n", rc, wb_code_name (err.code), err.msg);
  if (rc == 0)
    sched_request_clear (&req);
}

int
main (void)
{
  sched_request_t req;
  wb_err_t err;
  char v[64];

  if (prof_load_dir (WB_DEFAULT_PROFILES_DIR, &set, &err) < 0)
    {
      printf ("Bail out! %s\n", err.msg);
      return 1;
    }
  sched_piston_version (prof_find (set, "python"), v, sizeof v);
  ok (strcmp (v, "3.11.0") == 0, "a two-part version is padded to semver (%s)", v);

  ok (piston (
          "{\"language\":\"py\",\"version\":\"3.11.0\",\"files\":[{\"name\":\"m.py\",\"content\":"
          "\"print(1)\"}],\"stdin\":\"in\",\"args\":[\"a\",2],\"run_timeout\":2500,"
          "\"run_memory_limit\":100000000,\"compile_timeout\":10000,\"compile_memory_limit\":-1}",
          &req, &err)
          == 0,
      "a full Piston request translates: %s", err.msg);
  ok (strcmp (req.profile->language, "python") == 0, "alias py is python");
  ok (req.code_len == 8 && memcmp (req.code, "print(1)", 8) == 0, "files[0].content is the code");
  ok (req.stdin_len == 2 && req.n_args == 2 && strcmp (req.args[1], "2") == 0,
      "stdin and args (numbers stringified)");
  ok (req.limits.timeout_ms == 2500, "run_timeout is timeout_ms");
  ok (req.limits.memory_mb == 96, "run_memory_limit in bytes rounds up to MiB (100000000 -> 96)");
  sched_request_clear (&req);

  ok (piston ("{\"language\":\"node\",\"version\":\"*\",\"files\":[{\"content\":"
              "\"Y29uc29sZS5sb2coMSk=\","
              "\"encoding\":\"base64\"}],\"run_timeout\":-1,\"run_memory_limit\":-1}",
              &req, &err)
              == 0
          && strcmp (req.code, "console.log(1)") == 0
          && req.limits.timeout_ms == req.profile->def.timeout_ms
          && req.limits.memory_mb == req.profile->def.memory_mb,
      "base64 content, version *, -1 limits keep the defaults");
  sched_request_clear (&req);
  ok (piston ("{\"language\":\"python3\",\"version\":\"3.x\",\"files\":[{\"content\":\"70726921\","
              "\"encoding\":\"hex\"}]}",
              &req, &err)
              == 0
          && strcmp (req.code, "pri!") == 0,
      "hex content, version 3.x");
  sched_request_clear (&req);

  refused ("{\"language\":\"python\",\"version\":\"2.7\",\"files\":[{\"content\":\"1\"}]}",
           WB_E_NOT_FOUND, "runtime is unknown", "another version: 404");
  refused ("{\"language\":\"python\",\"version\":\"3.11.0.1\",\"files\":[{\"content\":\"1\"}]}",
           WB_E_NOT_FOUND, "runtime is unknown", "a longer version does not match");
  refused ("{\"language\":\"cobol\",\"files\":[{\"content\":\"1\"}]}", WB_E_NOT_FOUND, "cobol",
           "unknown language: 404");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"a\"},{\"content\":\"b\"}]}",
           WB_E_INVALID, "files[1] needs a name", "a second file without a name: 400");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"a\"},{\"name\":\"../"
           "x\",\"content\":\"b\"}]}",
           WB_E_INVALID, "files[1].name must be a plain file name",
           "a second file named ../x: 400");
  refused (
      "{\"language\":\"python\",\"files\":[{\"content\":\"a\"},{\"name\":\"d\",\"content\":\"zz\","
      "\"encoding\":\"hex\"}]}",
      WB_E_INVALID, "files[1].content is not valid hex", "a bad hex file: 400");
  {
    sched_request_t req;
    wb_err_t err = {0};
    ok (piston (
            "{\"language\":\"python\",\"files\":[{\"content\":\"print(1)\"},{\"name\":\"a.csv\","
            "\"content\":\"x,y\\n\"},{\"name\":\"b.bin\",\"content\":\"00ff\",\"encoding\":\"hex\"}"
            "]}",
            &req, &err)
            == 0,
        "the program and two named files translate: %s", err.msg);
    ok (req.n_files == 2 && strcmp (req.files[0].name, "a.csv") == 0 && req.files[0].len == 4
            && memcmp (req.files[0].data, "x,y\n", 4) == 0
            && strcmp (req.files[1].name, "b.bin") == 0 && req.files[1].len == 2
            && memcmp (req.files[1].data, "\0\xff", 2) == 0 && req.code_len == 8
            && req.files_bytes == 6,
        "files after the first are /v1 files, decoded (hex too), the first is the code");
    sched_request_clear (&req);
  }
  /* files[0].name: the program's own file name (/v1's filename). */
  {
    sched_request_t req;
    wb_err_t err = {0};
    ok (piston ("{\"language\":\"js\",\"files\":[{\"name\":\"my_cool_code.js\",\"content\":"
                "\"console.log(process.argv)\"}]}",
                &req, &err)
                == 0
            && req.filename && strcmp (req.filename, "my_cool_code.js") == 0,
        "Piston's example: files[0].name is the program's filename: %s", err.msg);
    sched_request_clear (&req);
    ok (piston ("{\"language\":\"c\",\"files\":[{\"name\":\"file0.code\",\"content\":\"int "
                "main(){}\"}]}",
                &req, &err)
                == 0
            && req.filename && strcmp (req.filename, "file0.code.c") == 0,
        "a C program's name without .c gets it, as Piston appends it: %s", err.msg);
    sched_request_clear (&req);
    ok (piston (
            "{\"language\":\"c++\",\"files\":[{\"name\":\"sol.cc\",\"content\":\"int main(){}\"}]}",
            &req, &err)
                == 0
            && req.filename && strcmp (req.filename, "sol.cc") == 0,
        "a name with one of the language's suffixes is kept: %s", err.msg);
    sched_request_clear (&req);
    ok (piston ("{\"language\":\"java\",\"files\":[{\"name\":\"Main.java\",\"content\":\"public "
                "class Solution {}\"},"
                "{\"name\":\"Helper.java\",\"content\":\"class Helper {}\"}]}",
                &req, &err)
                == 0
            && req.filename == NULL && req.n_files == 1,
        "java: files[0].name is not the file name (the code's class names it): %s", err.msg);
    sched_request_clear (&req);
    ok (piston ("{\"language\":\"python\",\"files\":[{\"content\":\"print(1)\"}]}", &req, &err) == 0
            && req.filename == NULL,
        "no name: the language's default");
    sched_request_clear (&req);
  }
  refused ("{\"language\":\"python\",\"files\":[{\"name\":\".x.py\",\"content\":\"1\"}]}",
           WB_E_INVALID, "files[0].name must not start with '.'", "a dot-file program name: 400");
  refused ("{\"language\":\"python\",\"files\":[{\"name\":\"src/a.py\",\"content\":\"1\"}]}",
           WB_E_INVALID, "files[0].name must be a plain file name", "a program name with /: 400");
  refused ("{\"language\":\"python\",\"files\":[{\"name\":7,\"content\":\"1\"}]}", WB_E_INVALID,
           "files[0].name must be a string", "a program name that is no string: 400");
  refused ("{\"language\":\"go\",\"files\":[{\"name\":\"x_test.go\",\"content\":\"1\"}]}",
           WB_E_INVALID, "leaves out test files",
           "a go test file as the program: 400 with the reason");
  refused ("{\"language\":\"python\",\"files\":[{\"name\":\"a.py\",\"content\":\"1\"},{\"name\":"
           "\"a.py\",\"content\":\"\"}]}",
           WB_E_INVALID, "files[1].name is a.py, the program's own file",
           "a file with the program's name: 400");
  refused ("{\"language\":\"python\",\"files\":[]}", WB_E_INVALID, "files", "no file: 400");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"zz\",\"encoding\":\"hex\"}]}",
           WB_E_INVALID, "hex", "bad hex: 400");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"AP8=\",\"encoding\":\"base64\"}]}",
           WB_E_INVALID, "UTF-8", "code that is not UTF-8: 400");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"1\",\"encoding\":\"rot13\"}]}",
           WB_E_INVALID, "encoding", "an unknown encoding: 400");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"1\"}],\"stdin\":\"a\\u0000b\"}",
           WB_E_INVALID, "NUL", "NUL in a string: 400, not silently cut");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"1\"}],\"run_timeout\":99999999}",
           WB_E_INVALID, "maximum", "run_timeout above the maximum: 400 from the shared validator");
  refused ("{\"language\":\"python\",\"files\":[{\"content\":\"1\"}],\"run_timeout\":\"3s\"}",
           WB_E_INVALID, "run_timeout", "a limit that is not a number: 400");
  refused ("[1]", WB_E_INVALID, "object", "not an object: 400");

  /* Responses */
  sched_result_t res;
  wb_buf_t out = WB_BUF_INIT;
  memset (&res, 0, sizeof res);
  res.language = "python";
  res.status = SCHED_ST_OK;
  res.exit_code = 3;
  res.duration_ms = 12;
  must (wb_buf_append (&res.out, "a\xff", 2));
  must (wb_buf_append (&res.err, "e", 1));
  ok (sched_piston_result_json (&res, "3.11.0", &out, NULL) == 0, "a result encodes");
  cJSON *j = cJSON_Parse (out.data), *run = cJSON_GetObjectItem (j, "run");
  ok (j && strcmp (cJSON_GetStringValue (cJSON_GetObjectItem (run, "stdout")), "a\xef\xbf\xbd") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetObjectItem (run, "output")), "a\xef\xbf\xbd"
                                                                                 "e")
                 == 0,
      "stdout lossy UTF-8; output is stdout then stderr");
  ok (cJSON_GetObjectItem (run, "code")->valueint == 3
          && cJSON_IsNull (cJSON_GetObjectItem (run, "signal"))
          && strcmp (cJSON_GetStringValue (cJSON_GetObjectItem (run, "status")), "RE") == 0
          && cJSON_GetObjectItem (run, "wall_time")->valueint == 12,
      "exit 3: code 3, signal null, status RE, wall_time");
  cJSON_Delete (j);
  wb_buf_reset (&out);
  res.status = SCHED_ST_TIMEOUT;
  res.exit_code = 137;
  must (sched_piston_result_json (&res, "3.11.0", &out, NULL));
  j = cJSON_Parse (out.data);
  run = cJSON_GetObjectItem (j, "run");
  ok (cJSON_IsNull (cJSON_GetObjectItem (run, "code"))
          && strcmp (cJSON_GetStringValue (cJSON_GetObjectItem (run, "signal")), "SIGKILL") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetObjectItem (run, "status")), "TO") == 0,
      "timeout: code null, SIGKILL, TO");
  cJSON_Delete (j);
  wb_buf_reset (&out);
  res.status = SCHED_ST_OUTPUT_LIMIT;
  res.err_truncated = true;
  must (sched_piston_result_json (&res, "3.11.0", &out, NULL));
  ok (strstr (out.data, "\"status\":\"EL\"") != NULL, "stderr over its cap: EL");
  wb_buf_reset (&out);

  /* output in the order the streams came: out 0, err 1, out 2, err 3. */
  {
    sched_result_t o;
    memset (&o, 0, sizeof o);
    o.language = "python";
    o.status = SCHED_ST_OK;
    must (wb_buf_append (&o.out, "0\n2\n", 4));
    must (wb_buf_append (&o.err, "1\n3\n", 4));
    must (sched_order_add (&o.order, SCHED_ORDER_OUT, 2));
    must (sched_order_add (&o.order, SCHED_ORDER_ERR, 2));
    must (sched_order_add (&o.order, SCHED_ORDER_OUT, 2));
    must (sched_order_add (&o.order, SCHED_ORDER_ERR, 2));
    sched_order_close (&o.order, o.out.len, o.err.len);
    must (sched_piston_result_json (&o, "3.11.0", &out, NULL));
    j = cJSON_Parse (out.data);
    run = cJSON_GetObjectItem (j, "run");
    is_str (cJSON_GetStringValue (cJSON_GetObjectItem (run, "output")), "0\n1\n2\n3\n",
            "run.output: stdout and stderr in the order they came");
    cJSON_Delete (j);
    wb_buf_reset (&out);

    /* The sandbox, not the program, ended it. */
    o.status = SCHED_ST_SANDBOX_ERROR;
    o.exit_code = -1;
    o.error = "the sandbox ended before its init could report how the program ended";
    must (sched_piston_result_json (&o, "3.11.0", &out, NULL));
    j = cJSON_Parse (out.data);
    run = cJSON_GetObjectItem (j, "run");
    ok (cJSON_IsNull (cJSON_GetObjectItem (run, "code"))
            && cJSON_IsNull (cJSON_GetObjectItem (run, "signal"))
            && strcmp (cJSON_GetStringValue (cJSON_GetObjectItem (run, "status")), "XX") == 0
            && strstr (cJSON_GetStringValue (cJSON_GetObjectItem (run, "message")),
                       "sandbox ended"),
        "sandbox_error: code null, signal null, status XX, the sentence as message");
    cJSON_Delete (j);
    wb_buf_reset (&out);

    /* The compile stage's order, from the init's trailer (8 numbers), and
     * from an older init's (7: stdout, then stderr). */
    static const char nonce[33] = "0123456789abcdef0123456789abcdef";
    static const char trailer[] = "compile 0 0 0 0 1500 6 6 4\n"
                                  "o1\no2\ne1\ne2\n"
                                  "\x06\x07\x06\x07"
                                  "files 0 0\nusage 1 2 3\nend 0123456789abcdef0123456789abcdef\n";
    o.status = SCHED_ST_OK;
    o.exit_code = 0;
    o.error = NULL;
    ok (sched_trailer_parse (trailer, sizeof trailer - 1, nonce, &o) == 0 && o.compile_order.known,
        "a trailer with the compile stage's order parses");
    must (sched_piston_result_json (&o, "12.2.0", &out, NULL));
    j = cJSON_Parse (out.data);
    is_str (
        cJSON_GetStringValue (cJSON_GetObjectItem (cJSON_GetObjectItem (j, "compile"), "output")),
        "o1\ne1\no2\ne2\n",
        "compile.output: the compiler's streams in the order the init read them");
    cJSON_Delete (j);
    wb_buf_reset (&out);
    static const char old[] = "compile 0 0 0 0 1500 6 6\n"
                              "o1\no2\ne1\ne2\n"
                              "files 0 0\nusage 1 2 3\nend 0123456789abcdef0123456789abcdef\n";
    ok (sched_trailer_parse (old, sizeof old - 1, nonce, &o) == 0 && !o.compile_order.known,
        "an older init's trailer (no order) parses");
    must (sched_piston_result_json (&o, "12.2.0", &out, NULL));
    j = cJSON_Parse (out.data);
    is_str (
        cJSON_GetStringValue (cJSON_GetObjectItem (cJSON_GetObjectItem (j, "compile"), "output")),
        "o1\no2\ne1\ne2\n", "... compile.output is then stdout, then stderr");
    cJSON_Delete (j);
    wb_buf_reset (&out);
    static const char wrong[] = "compile 0 0 0 0 1500 6 6 2\n"
                                "o1\no2\ne1\ne2\n"
                                "\x06\x07"
                                "files 0 0\nusage 1 2 3\nend 0123456789abcdef0123456789abcdef\n";
    ok (sched_trailer_parse (wrong, sizeof wrong - 1, nonce, &o) < 0,
        "an order that does not cover the output: refused");
    sched_result_files_free (&o);
    sched_order_free (&o.order);
    wb_buf_free (&o.out);
    wb_buf_free (&o.err);
  }
  ok (sched_piston_runtimes_json (set, &out, NULL) == 0
          && strstr (out.data, "\"aliases\":[\"py\",\"python3\"]"),
      "runtimes list aliases");
  wb_buf_free (&out);
  wb_buf_free (&res.out);
  wb_buf_free (&res.err);
  prof_set_free (set);
  return tap_done ();
}

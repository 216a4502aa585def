/* POST /v1/executions parsing and validation, the stdin frame, the config
 * file, and the result encoding. */
#include "api/http.h"
#include "api/request.h"
#include "api/result.h"
#include "daemon/config.h"
#include "tap.h"

static prof_set_t *set;

static int
parse (const char *body, sched_request_t *req, wb_err_t *err)
{
  return sched_request_parse (body, strlen (body), set, req, err);
}

static void
expect_error (const char *body, wb_code_t code, const char *needle, const char *what)
{
  sched_request_t req;
  wb_err_t err = {0};
  int rc = parse (body, &req, &err);
  if (!ok (rc < 0 && err.code == code && (needle == NULL || strstr (err.msg, needle)), "%s", what))
    printf ("#   rc %d code %s msg %s\n", rc, wb_code_name (err.code), err.msg);
  ok (req.code == NULL && req.args == NULL && req.files == NULL, "%s: nothing left allocated",
      what);
}

static void
test_valid (void)
{
  sched_request_t req;
  wb_err_t err;
  ok (parse ("{\"language\":\"python\",\"code\":\"print(1)\",\"stdin\":\"in\",\"args\":[\"a\",\"b "
             "c\"],"
             "\"timeout_ms\":1500,\"memory_mb\":128}",
             &req, &err)
          == 0,
      "a full request parses");
  is_str (req.code, "print(1)", "code");
  ok (req.stdin_len == 2 && memcmp (req.stdin_data, "in", 2) == 0, "stdin");
  ok (req.n_args == 2 && strcmp (req.args[1], "b c") == 0, "args");
  is_int (req.limits.timeout_ms, 1500, "timeout override");
  is_int (req.limits.memory_mb, 128, "memory override");
  is_int (req.limits.pids, req.profile->def.pids, "other limits from the profile's defaults");
  sched_request_clear (&req);

  ok (parse ("{\"language\":\"javascript\",\"code\":\"\",\"stdin_base64\":\"AP8A\"}", &req, &err)
          == 0,
      "binary stdin as base64");
  ok (req.stdin_len == 3 && memcmp (req.stdin_data, "\0\xff\0", 3) == 0, "decoded byte-exact");
  is_int (req.limits.timeout_ms, req.profile->def.timeout_ms, "default timeout");
  sched_request_clear (&req);
}

static void
test_invalid (void)
{
  char big[2 * 1024 * 1024];
  const prof_t *py = prof_find (set, "python");

  expect_error ("", WB_E_INVALID, "empty", "empty body");
  expect_error ("{\"language\":", WB_E_INVALID, "not valid JSON", "truncated JSON");
  expect_error ("[1,2]", WB_E_INVALID, "object", "not an object");
  expect_error ("{\"language\":\"cobol\",\"code\":\"x\"}", WB_E_NOT_FOUND, "cobol",
                "unknown language");
  expect_error ("{\"code\":\"x\"}", WB_E_INVALID, "language", "language missing");
  expect_error ("{\"language\":\"python\"}", WB_E_INVALID, "code", "code missing");
  expect_error ("{\"language\":\"python\",\"code\":5}", WB_E_INVALID, "code", "code not a string");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"timeout\":5}", WB_E_INVALID, "timeout",
                "a misspelt field is refused");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"timeout_ms\":99999999}", WB_E_INVALID,
                "maximum", "timeout above the profile's maximum");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"memory_mb\":1e9}", WB_E_INVALID,
                "maximum", "memory above the profile's maximum");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"timeout_ms\":1.5}", WB_E_INVALID,
                "whole", "fractional timeout");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"timeout_ms\":0}", WB_E_INVALID, "least",
                "zero timeout");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"stdin\":\"a\",\"stdin_base64\":\"YQ==\"}",
      WB_E_INVALID, "either", "stdin and stdin_base64 together");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"stdin_base64\":\"%%%\"}", WB_E_INVALID,
                "base64", "bad base64");
  expect_error ("{\"language\":\"python\",\"code\":\"a\\u0000b\"}", WB_E_INVALID, "stdin_base64",
                "NUL in a string says how to send binary");
  sched_request_t lit;
  wb_err_t lit_err;
  ok (parse ("{\"language\":\"python\",\"code\":\"print('\\\\u0000')\"}", &lit, &lit_err) == 0
          && strcmp (lit.code, "print('\\u0000')") == 0,
      "the text \\u0000 in code (an escaped backslash) is kept, not taken for NUL");
  sched_request_clear (&lit);
  expect_error ("{\"language\":\"python\",\"code\":\"\xff\xfe\"}", WB_E_INVALID, "UTF-8",
                "code that is not UTF-8");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"args\":[1]}", WB_E_INVALID, "strings",
                "non-string arg");

  /* Code one byte over the maximum. */
  size_t n = (size_t) py->max.code_bytes + 1;
  int off = snprintf (big, sizeof big, "{\"language\":\"python\",\"code\":\"");
  memset (big + off, 'x', n);
  snprintf (big + off + n, sizeof big - off - n, "\"}");
  expect_error (big, WB_E_TOO_LARGE, "maximum", "code over the maximum is 413");
  /* Exactly the maximum is fine. */
  big[off + n - 1] = '"';
  big[off + n] = '}';
  big[off + n + 1] = '\0';
  sched_request_t req;
  wb_err_t err;
  ok (parse (big, &req, &err) == 0 && req.code_len == n - 1,
      "code of exactly the maximum is accepted");
  sched_request_clear (&req);

  /* Huge argv. */
  wb_buf_t args = WB_BUF_INIT;
  must (wb_buf_append_str (&args, "{\"language\":\"python\",\"code\":\"x\",\"args\":["));
  for (int i = 0; i < 300; i++)
    must (wb_buf_printf (&args, "%s\"a\"", i ? "," : ""));
  must (wb_buf_append_str (&args, "]}"));
  expect_error (args.data, WB_E_INVALID, "at most", "more than 256 args");
  wb_buf_reset (&args);
  must (wb_buf_append_str (&args, "{\"language\":\"python\",\"code\":\"x\",\"args\":[\""));
  for (int i = 0; i < 5000; i++)
    must (wb_buf_append_str (&args, "a"));
  must (wb_buf_append_str (&args, "\"]}"));
  expect_error (args.data, WB_E_TOO_LARGE, "bytes", "one arg over 4096 bytes");
  wb_buf_free (&args);
}

static void
test_frame (void)
{
  wb_buf_t f = WB_BUF_INIT;
  static sched_frame_t fr;
  char *args[] = {"one", "", "two words"};

  must (sched_frame_build (NULL, "print(1)", 8, NULL, 0, NULL, 0, "in\0put", 6, &f));
  ok (f.len == 2 + 8 + 6 && memcmp (f.data, "8\nprint(1)in\0put", f.len) == 0,
      "without args the frame is <len>\\n<code><stdin>");
  ok (sched_frame_parse (f.data, f.len, &fr) == 1 && fr.code_off == 2 && fr.code_len == 8
          && fr.n_args == 0 && fr.stdin_off == 10,
      "frame parses back");
  ok (sched_frame_parse (f.data, 5, &fr) == 0, "a short frame asks for more");
  wb_buf_reset (&f);
  must (sched_frame_build (NULL, "x", 1, args, 3, NULL, 0, "IN", 2, &f));
  ok (f.len == 8 + 1 + 12 + 2 && memcmp (f.data, "1 3 0 9\nxonetwo wordsIN", f.len) == 0,
      "args: their lengths in the header, their bytes after the code");
  ok (sched_frame_parse (f.data, f.len, &fr) == 1 && fr.n_args == 3 && fr.arg_len[2] == 9
          && memcmp (f.data + fr.arg_off[2], "two words", 9) == 0 && fr.arg_len[1] == 0
          && memcmp (f.data + fr.stdin_off, "IN", 2) == 0,
      "args parse back, an empty one included");
  ok (sched_frame_parse (f.data, f.len - 3, &fr) == 0, "args cut short ask for more");
  ok (sched_frame_parse ("x\n", 2, &fr) == -1, "a non-digit length is malformed");
  ok (sched_frame_parse ("\n", 1, &fr) == -1, "an empty length is malformed");
  ok (sched_frame_parse ("1  2\n", 5, &fr) == -1, "two spaces are malformed");
  ok (sched_frame_parse ("1 2 \n", 5, &fr) == -1, "a trailing space is malformed");
  ok (sched_frame_parse ("99999999999999999999999\n", 24, &fr) == -1, "an absurd length");
  ok (sched_frame_parse ("12345", 5, &fr) == 0 && sched_frame_parse (NULL, 0, &fr) == 0,
      "no newline yet: incomplete");
  wb_buf_reset (&f);
  for (int i = 0; i < SCHED_FRAME_HEADER_MAX; i++)
    must (wb_buf_append (&f, "1", 1));
  ok (sched_frame_parse (f.data, f.len, &fr) == -1,
      "a header without newline past the cap is malformed");
  wb_buf_reset (&f);
  must (wb_buf_append (&f, "1", 1));
  for (int i = 0; i <= SCHED_MAX_ARGS; i++)
    must (wb_buf_append (&f, " 0", 2));
  must (wb_buf_append (&f, "\nx", 2));
  ok (sched_frame_parse (f.data, f.len, &fr) == -1, "more than SCHED_MAX_ARGS args are malformed");
  wb_buf_reset (&f);
  must (sched_frame_build (NULL, "", 0, NULL, 0, NULL, 0, "", 0, &f));
  ok (sched_frame_parse (f.data, f.len, &fr) == 1 && fr.code_len == 0 && fr.code_name_len == 0,
      "empty code");
  /* The program's own file name: first in the header and in the body. */
  wb_buf_reset (&f);
  ok (sched_frame_build ("my_cool_code.js", "x", 1, args, 1, NULL, 0, "IN", 2, &f) == 0
          && f.len == 8 + 15 + 1 + 3 + 2
          && memcmp (f.data, "n15 1 3\nmy_cool_code.jsxoneIN", f.len) == 0,
      "a name: n<length> first in the header, its bytes before the code's");
  ok (sched_frame_parse (f.data, f.len, &fr) == 1 && fr.code_name_len == 15
          && memcmp (f.data + fr.code_name_off, "my_cool_code.js", 15) == 0 && fr.code_len == 1
          && f.data[fr.code_off] == 'x' && fr.n_args == 1
          && memcmp (f.data + fr.arg_off[0], "one", 3) == 0
          && memcmp (f.data + fr.stdin_off, "IN", 2) == 0,
      "and parses back: name, code, args, stdin");
  ok (sched_frame_parse (f.data, 12, &fr) == 0, "a frame cut in the name asks for more");
  wb_buf_reset (&f);
  ok (sched_frame_build ("", "x", 1, NULL, 0, NULL, 0, "", 0, &f) < 0,
      "an empty name is not built");
  ok (sched_frame_parse ("n0 1\nx", 6, &fr) == -1, "a name of length 0 is malformed");
  ok (sched_frame_parse ("n256 1\n", 7, &fr) == -1, "a name past 255 bytes is malformed");
  ok (sched_frame_parse ("n1\nx", 4, &fr) == -1 && sched_frame_parse ("n 1\nx", 5, &fr) == -1
          && sched_frame_parse ("1 n1\nxy", 7, &fr) == -1
          && sched_frame_parse ("n1  1\nxy", 8, &fr) == -1,
      "a name without the code's length, without digits, after the code's length, or two spaces: "
      "malformed");
  wb_buf_free (&f);
}

/* "filename": the program's own file name, checked against its language. */
static void
test_filename (void)
{
  sched_request_t req;
  wb_err_t err = {0};

  ok (parse ("{\"language\":\"python\",\"code\":\"x\",\"filename\":\"solve.py\"}", &req, &err) == 0
          && req.filename && strcmp (req.filename, "solve.py") == 0,
      "a filename is kept: %s", err.msg);
  sched_request_clear (&req);
  ok (parse ("{\"language\":\"python\",\"code\":\"x\",\"filename\":null}", &req, &err) == 0
          && req.filename == NULL,
      "a null filename is none");
  sched_request_clear (&req);
  ok (parse ("{\"language\":\"python\",\"code\":\"x\"}", &req, &err) == 0 && req.filename == NULL,
      "no filename: the language's default");
  sched_request_clear (&req);
  ok (parse ("{\"language\":\"bash\",\"code\":\"x\",\"filename\":\"run "
             "me\",\"files\":[{\"name\":\"main.sh\","
             "\"content\":\"\"}]}",
             &req, &err)
          == 0,
      "bash takes any plain name; a given file may then be main.sh: %s", err.msg);
  sched_request_clear (&req);
  ok (parse ("{\"language\":\"c\",\"code\":\"x\",\"filename\":\"prog.c\"}", &req, &err) == 0,
      "c: prog.c");
  sched_request_clear (&req);
  ok (parse ("{\"language\":\"cpp\",\"code\":\"x\",\"filename\":\"sol.cc\"}", &req, &err) == 0,
      "cpp: any of its suffixes (.cc)");
  sched_request_clear (&req);
  ok (parse ("{\"language\":\"go\",\"code\":\"x\",\"filename\":\"hello.go\"}", &req, &err) == 0,
      "go: hello.go");
  sched_request_clear (&req);

  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"filename\":3}", WB_E_INVALID,
                "must be a string", "a filename that is not a string");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"filename\":\"a/b.py\"}", WB_E_INVALID,
                "plain file name", "a filename with /");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"filename\":\"\"}", WB_E_INVALID,
                "plain file name", "an empty filename");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"filename\":\"a\\nb\"}", WB_E_INVALID,
                "control", "a filename with a newline");
  expect_error ("{\"language\":\"javascript\",\"code\":\"x\",\"filename\":\".hidden.js\"}",
                WB_E_INVALID, "must not start with '.'", "a dot-file filename");
  expect_error ("{\"language\":\"bash\",\"code\":\"x\",\"filename\":\"-x\"}", WB_E_INVALID,
                "as an option", "a filename that would be an option");
  expect_error ("{\"language\":\"c\",\"code\":\"x\",\"filename\":\"prog.py\"}", WB_E_INVALID,
                "must end in .c for c", "c: a filename without .c");
  expect_error ("{\"language\":\"c\",\"code\":\"x\",\"filename\":\"c\"}", WB_E_INVALID,
                "must end in .c", "c: c");
  expect_error ("{\"language\":\"cpp\",\"code\":\"x\",\"filename\":\"a.c\"}", WB_E_INVALID,
                "one of .cpp, .cc, .cxx", "cpp: the suffixes are listed");
  expect_error ("{\"language\":\"go\",\"code\":\"x\",\"filename\":\"x_test.go\"}", WB_E_INVALID,
                "leaves out test files", "go: a test file's name, with the profile's reason");
  expect_error ("{\"language\":\"go\",\"code\":\"x\",\"filename\":\"_x.go\"}", WB_E_INVALID,
                "start with _", "go: a name go build ignores");
  expect_error ("{\"language\":\"java\",\"code\":\"x\",\"filename\":\"Main.java\"}", WB_E_INVALID,
                "javac's rule", "java: the class names the file");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"filename\":\"d.csv\",\"files\":[{"
                "\"name\":\"d.csv\","
                "\"content\":\"\"}]}",
                WB_E_INVALID, "the program's own filename", "a given file with the program's name");
  expect_error (
      "{\"language\":\"c\",\"code\":\"x\",\"files\":[{\"name\":\"main.c\",\"content\":\"\"}]}",
      WB_E_INVALID, "the name the code is written to",
      "without a filename, the default is still taken");
  ok (parse ("{\"language\":\"java\",\"code\":\"x\",\"files\":[{\"name\":\"Main.java\",\"content\":"
             "\"\"}]}",
             &req, &err)
          == 0,
      "java: a given Main.java is the init's to judge (the code's class names the code's file): %s",
      err.msg);
  sched_request_clear (&req);
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"file_name\":\"a.py\"}", WB_E_INVALID,
                "unknown field", "a misspelt filename is refused");
}

static void
test_config (void)
{
  sched_config_t cfg;
  wb_err_t err;
  must (sched_config_defaults (&cfg, &err));
  const char *good = "{\"listen\":[\"unix:/tmp/x.sock\",\"127.0.0.1:9\"],\"engine\":{\"endpoint\":"
                     "\"unix:///run/d.sock\"},\"max_concurrent\":4}";
  ok (sched_config_parse (&cfg, good, strlen (good), &err) == 0, "a config parses");
  ok (cfg.n_listen == 2 && strcmp (cfg.listen[1], "127.0.0.1:9") == 0, "listeners");
  ok (cfg.n_engines == 1 && strcmp (cfg.engines[0].name, "default") == 0,
      "\"engine\" is the engine named default");
  is_str (cfg.engines[0].endpoint, "unix:///run/d.sock", "engine endpoint");
  is_int (cfg.max_concurrent, 4, "max_concurrent");
  ok (sched_config_parse (&cfg, "{\"lisen\":[]}", 12, &err) < 0 && strstr (err.msg, "lisen"),
      "an unknown key is named");
  ok (sched_config_parse (&cfg, "{\"engine\":{\"endpoit\":\"x\"}}", 26, &err) < 0,
      "an unknown engine key is refused");
  ok (sched_config_parse (&cfg, "{\"max_concurrent\":0}", 20, &err) < 0, "out of range");
  sched_config_clear (&cfg);
}

static void
test_result_json (void)
{
  sched_result_t res;
  wb_buf_t out = WB_BUF_INIT;
  memset (&res, 0, sizeof res);
  snprintf (res.id, sizeof res.id, "00000000-0000-0000-0000-000000000000");
  res.language = "python";
  res.status = SCHED_ST_OK;
  must (wb_buf_append (&res.out, "h\xc3\xa9llo\n", 7));
  must (wb_buf_append (&res.err, "a\0\xff", 3));
  must (sched_result_json (&res, &out, NULL));
  ok (strstr (out.data, "\"stdout\":\"h\xc3\xa9llo\\n\",\"stdout_encoding\":\"utf-8\"") != NULL,
      "UTF-8 output stays text");
  ok (strstr (out.data, "\"stderr\":\"YQD/\",\"stderr_encoding\":\"base64\"") != NULL,
      "NUL or invalid UTF-8 goes base64, byte-exact");
  ok (strstr (out.data, "\"exit_code\":0") != NULL, "exit code");
  wb_buf_free (&out);
  wb_buf_free (&res.out);
  wb_buf_free (&res.err);
}

static void
test_files (void)
{
  sched_request_t req;
  wb_err_t err = {0};
  wb_buf_t f = WB_BUF_INIT, body = WB_BUF_INIT;
  sched_frame_t fr;
  char h1[65], h2[65];

  ok (parse ("{\"language\":\"python\",\"code\":\"x\",\"args\":[\"A\"],\"files\":[{\"name\":\"data."
             "csv\","
             "\"content\":\"a,b\\n1,2\\n\"},{\"name\":\"b\u00e9.bin\",\"content\":\"AP8=\","
             "\"encoding\":"
             "\"base64\"},{\"name\":\".env\",\"content\":\"\"}]}",
             &req, &err)
          == 0,
      "files parse: %s", err.msg);
  ok (req.n_files == 3 && strcmp (req.files[0].name, "data.csv") == 0 && req.files[0].len == 8
          && strcmp (req.files[1].name, "b\xc3\xa9.bin") == 0 && req.files[1].len == 2
          && memcmp (req.files[1].data, "\0\xff", 2) == 0 && req.files[2].len == 0
          && req.files_bytes == 10,
      "names, utf8 and base64 contents, an empty file");
  must (sched_frame_build (req.filename, req.code, req.code_len, req.args, req.n_args, req.files,
                           req.n_files, "IN", 2, &f));
  ok (f.len > 20 && memcmp (f.data, "1 1 f8:8 f7:2 f4:0\n", 19) == 0,
      "the frame's header names the files");
  ok (sched_frame_parse (f.data, f.len, &fr) == 1 && fr.n_args == 1 && fr.n_files == 3
          && fr.name_len[1] == 7 && memcmp (f.data + fr.name_off[1], "b\xc3\xa9.bin", 7) == 0
          && fr.file_len[1] == 2 && memcmp (f.data + fr.file_off[1], "\0\xff", 2) == 0
          && f.len - fr.stdin_off == 2 && memcmp (f.data + fr.stdin_off, "IN", 2) == 0,
      "and parses back: names, contents, then stdin");
  ok (sched_frame_parse (f.data, f.len - 3, &fr) == 0, "a frame cut in the files asks for more");
  ok (sched_frame_parse ("1 f1:1 2\nxab", 12, &fr) == -1, "an argument after a file is malformed");
  ok (sched_frame_parse ("1 f1\nx", 6, &fr) == -1 && sched_frame_parse ("1 f:1\nx", 7, &fr) == -1
          && sched_frame_parse ("1 g1:1\nx", 8, &fr) == -1,
      "a file field without both lengths is malformed");
  sched_files_sha256 (req.files, req.n_files, h1);
  free (req.files[2].data);
  req.files[2].data = strdup ("x");
  req.files[2].len = 1;
  wb_sha256_hex ("x", 1, req.files[2].sha256); /* as parsing a file sets it */
  sched_files_sha256 (req.files, req.n_files, h2);
  ok (strlen (h1) == 64 && strcmp (h1, h2) != 0, "the files' hash follows their contents");
  sched_request_clear (&req);

  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"files\":{}}", WB_E_INVALID, "array",
                "files not an array");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"../etc/"
                "passwd\",\"content\":\"\"}]}",
                WB_E_INVALID, "files[0].name", "a name with ../");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"..\",\"content\":\"\"}]}",
      WB_E_INVALID, "files[0].name", "a name ..");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"a\\nb\",\"content\":\"\"}]}",
      WB_E_INVALID, "control", "a name with a newline");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"a\\u0000b\","
                "\"content\":\"\"}]}",
                WB_E_INVALID, "NUL", "a name with NUL");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"\",\"content\":\"\"}]}",
      WB_E_INVALID, "files[0].name", "an empty name");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"a\",\"content\":\"\"},"
      "{\"name\":\"a\",\"content\":\"\"}]}",
      WB_E_INVALID, "repeats", "a name twice");
  expect_error ("{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"a\"}]}",
                WB_E_INVALID, "content", "a file without content");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"a\",\"content\":\"!\","
      "\"encoding\":\"base64\"}]}",
      WB_E_INVALID, "base64", "bad base64");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"a\",\"content\":\"\","
      "\"encoding\":\"hex\"}]}",
      WB_E_INVALID, "encoding", "an unknown encoding");
  expect_error (
      "{\"language\":\"python\",\"code\":\"x\",\"files\":[{\"name\":\"a\",\"content\":\"\","
      "\"mode\":420}]}",
      WB_E_INVALID, "unknown field", "an unknown field in a file");
  /* Too many, too big. */
  must (wb_buf_append_str (&body, "{\"language\":\"python\",\"code\":\"x\",\"files\":["));
  for (int i = 0; i <= SCHED_MAX_FILES; i++)
    must (wb_buf_printf (&body, "%s{\"name\":\"f%d\",\"content\":\"\"}", i ? "," : "", i));
  must (wb_buf_append_str (&body, "]}"));
  expect_error (body.data, WB_E_INVALID, "at most 64", "65 files");
  wb_buf_reset (&body);
  must (wb_buf_append_str (&body, "{\"language\":\"python\",\"code\":\"x\",\"files\":["));
  for (int i = 0; i < 3; i++)
    {
      must (wb_buf_printf (&body, "%s{\"name\":\"f%d\",\"content\":\"", i ? "," : "", i));
      for (int k = 0; k < 6 * 1024 * 1024; k++)
        must (wb_buf_append (&body, "a", 1));
      must (wb_buf_append_str (&body, "\"}"));
    }
  must (wb_buf_append_str (&body, "]}"));
  expect_error (body.data, WB_E_TOO_LARGE, "files hold more than", "18 MiB of files: 413");
  wb_buf_free (&body);
  wb_buf_free (&f);
}

/* Fields an API built itself (Piston, E2B): one field of a valid
 * request changed by how, then built. */
static int
build_with (void (*how) (sched_request_fields_t *f), sched_request_t *req, wb_err_t *err)
{
  sched_request_fields_t f = {.language = "python"};
  int rc;

  f.code = strdup ("print(1)");
  f.code_len = 8;
  if (how)
    how (&f);
  rc = sched_request_build (&f, set, NULL, req, err);
  ok (f.code == NULL && f.stdin_data == NULL && f.args == NULL && f.files == NULL
          && f.filename == NULL,
      "build took the fields' allocations (rc %d)", rc);
  return rc;
}

static void
huge_code (sched_request_fields_t *f)
{
  const prof_t *p = prof_find (set, "python");
  free (f->code);
  f->code_len = (size_t) p->max.code_bytes + 1;
  f->code = malloc (f->code_len + 1);
  memset (f->code, 'x', f->code_len);
  f->code[f->code_len] = '\0';
}

static void
nul_in_code (sched_request_fields_t *f)
{
  f->code[3] = '\0';
}

static void
own_file_name (sched_request_fields_t *f)
{
  f->files = calloc (1, sizeof *f->files);
  f->files[0].name = strdup (".warmbox-session");
  f->files[0].data = strdup ("x");
  f->files[0].len = 1;
  f->n_files = 1;
}

static void
a_file (sched_request_fields_t *f)
{
  f->files = calloc (1, sizeof *f->files);
  f->files[0].name = strdup ("data.txt");
  f->files[0].data = strdup ("abc");
  f->files[0].len = 3;
  f->n_files = 1;
}

static void
compile_limit (sched_request_fields_t *f)
{
  f->compile_timeout_ms = (sched_request_limit_t){true, 1000};
}

static void
timeout_past_max (sched_request_fields_t *f)
{
  f->timeout_ms = (sched_request_limit_t){true, 1e12};
}

static void
fraction (sched_request_fields_t *f)
{
  f->memory_mb = (sched_request_limit_t){true, 64.5};
}

static void
unknown_language (sched_request_fields_t *f)
{
  f->language = "cobol";
}

static void
long_arg (sched_request_fields_t *f)
{
  f->args = calloc (2, sizeof *f->args);
  f->args[0] = calloc (1, SCHED_MAX_ARG_BYTES + 2);
  memset (f->args[0], 'a', SCHED_MAX_ARG_BYTES + 1);
  f->n_args = 1;
}

/* sched_request_build: what another API built passes every check a /v1
 * body's does, and a refusal leaves nothing behind. */
static void
test_build (void)
{
  static const sched_request_t cleared;
  static const struct
  {
    void (*how) (sched_request_fields_t *f);
    wb_code_t code;
    const char *needle;
  } refused[] = {
      {huge_code, WB_E_TOO_LARGE, "code is"},
      {nul_in_code, WB_E_INVALID, "UTF-8"},
      {own_file_name, WB_E_INVALID, ".warmbox-"},
      {compile_limit, WB_E_INVALID, "no compile stage"},
      {timeout_past_max, WB_E_INVALID, "above this language's maximum"},
      {fraction, WB_E_INVALID, "whole number"},
      {unknown_language, WB_E_NOT_FOUND, "unknown language"},
      {long_arg, WB_E_TOO_LARGE, "args are limited"},
  };
  sched_request_t req;
  wb_err_t err;

  for (size_t i = 0; i < WB_ARRAY_SIZE (refused); i++)
    {
      memset (&err, 0, sizeof err);
      int rc = build_with (refused[i].how, &req, &err);
      if (!ok (rc < 0 && err.code == refused[i].code && strstr (err.msg, refused[i].needle),
               "built fields refused %zu: %s", i, err.msg))
        printf ("#   rc %d code %s\n", rc, wb_code_name (err.code));
      ok (memcmp (&req, &cleared, sizeof req) == 0, "refused %zu: the request is left cleared", i);
    }
  ok (build_with (a_file, &req, &err) == 0 && req.n_files == 1 && req.files_bytes == 3
          && strcmp (req.files[0].sha256,
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
                 == 0
          && req.limits.timeout_ms == req.profile->def.timeout_ms,
      "built fields with a file: its hash and the profile's defaults");
  sched_request_clear (&req);
}

int
main (void)
{
  wb_err_t err;
  if (prof_load_dir (WB_DEFAULT_PROFILES_DIR, &set, &err) < 0)
    {
      printf ("Bail out! %s\n", err.msg);
      return 1;
    }
  test_valid ();
  test_invalid ();
  test_frame ();
  test_filename ();
  test_files ();
  test_config ();
  test_result_json ();
  test_build ();
  prof_set_free (set);
  return tap_done ();
}

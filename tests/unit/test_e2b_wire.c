/* The E2B SDK's wire formats (api/e2b_wire.h), byte for byte: envd's
 * paths as session file names, Connect's envelopes, multipart uploads,
 * ASCII-only JSON strings and UTF-8 chunk boundaries, the /execute NDJSON
 * and process.Process/Start streams, display records and the Start
 * message's script. */
#include <cjson/cJSON.h>

#include "api/e2b_wire.h"
#include "tap.h"

/* ---- paths ------------------------------------------------------------- */

static void
path_is (const char *path, const char *want)
{
  char name[256] = "untouched";
  bool home = true;
  wb_err_t err = {0};
  int rc = e2b_path_name (path, name, &home, &err);
  if (!ok (rc == 0 && !home && strcmp (name, want) == 0, "path %s is file %s", path, want))
    printf ("#   rc %d home %d name \"%s\" msg %s\n", rc, home, name, err.msg);
}

static void
path_home (const char *path)
{
  char name[256] = "untouched";
  bool home = false;
  wb_err_t err = {0};
  int rc = e2b_path_name (path, name, &home, &err);
  if (!ok (rc == 0 && home && name[0] == '\0', "path \"%s\" is the home", path ? path : "(null)"))
    printf ("#   rc %d home %d name \"%s\" msg %s\n", rc, home, name, err.msg);
}

static void
path_refused (const char *path)
{
  char name[256];
  bool home = true;
  wb_err_t err = {0};
  int rc = e2b_path_name (path, name, &home, &err);
  char shown[80];
  snprintf (shown, sizeof shown, "%s", path);
  for (char *c = shown; *c; c++)
    if ((unsigned char) *c < 0x20)
      *c = '?';
  if (!ok (rc < 0 && err.code == WB_E_INVALID && !home && name[0] == '\0', "path %s is refused",
           shown))
    printf ("#   rc %d code %s name \"%s\"\n", rc, wb_code_name (err.code), name);
}

static void
test_paths (void)
{
  char long_name[300];

  path_is ("a.txt", "a.txt");
  path_is ("./a.txt", "a.txt");
  path_is ("/home/user/a.txt", "a.txt");
  /* Repeated slashes and ./ collapse, as a shell's path would. */
  path_is ("/home/user//a.txt", "a.txt");
  path_is ("/home/user/./a.txt", "a.txt");
  path_is (".//a.txt", "a.txt");
  /* A trailing slash is dropped (the name is the file's). */
  path_is ("a.txt/", "a.txt");
  path_is ("/home/user/caf\xc3\xa9 1.csv", "caf\xc3\xa9 1.csv");
  path_is (".bashrc", ".bashrc");

  path_home ("");
  path_home (NULL);
  path_home (".");
  path_home ("./");
  path_home ("/home/user");
  path_home ("/home/user/");
  path_home ("/home/user/.");
  path_home ("/home/user//");

  path_refused ("/etc/passwd");
  path_refused ("../x");
  path_refused ("..");
  path_refused ("/home/user/..");
  path_refused ("/home/user/../x");
  path_refused ("/home/user/sub/x");
  path_refused ("sub/x");
  path_refused ("/home/userx/a");
  path_refused ("/home");
  path_refused ("/tmp/a.txt");
  path_refused (".warmbox-session");
  path_refused ("/home/user/.warmbox-notebook");
  path_refused ("a\nb");
  path_refused ("bad\xff");

  memset (long_name, 'n', 255);
  long_name[255] = '\0';
  path_is (long_name, long_name);
  long_name[255] = 'n';
  long_name[256] = '\0';
  path_refused (long_name);
}

/* ---- envelopes --------------------------------------------------------- */

static void
envelope_refused (const char *body, size_t len, const char *what)
{
  const char *msg = NULL;
  size_t msg_len = 0;
  wb_err_t err = {0};
  int rc = e2b_envelope_parse (body, len, &msg, &msg_len, &err);
  ok (rc < 0 && err.code == WB_E_INVALID && msg == NULL, "envelope refused: %s", what);
}

static void
test_envelopes (void)
{
  wb_buf_t b = WB_BUF_INIT;
  const char *msg = NULL;
  size_t msg_len = 0;
  wb_err_t err = {0};
  const char *json = "{\"process\":{\"cmd\":\"ls\"}}";

  must (e2b_envelope_append (&b, 0, json, strlen (json)));
  ok (b.len == 5 + strlen (json) && memcmp (b.data, "\x00\x00\x00\x00\x18", 5) == 0,
      "append: flags 0, the length big-endian (24)");
  ok (e2b_envelope_parse (b.data, b.len, &msg, &msg_len, &err) == 0 && msg == b.data + 5
          && msg_len == strlen (json) && memcmp (msg, json, msg_len) == 0,
      "parse gives the message back, in place");
  wb_buf_reset (&b);
  must (e2b_envelope_append (&b, 2, "{}", 2));
  ok (b.len == 7 && memcmp (b.data, "\x02\x00\x00\x00\x02{}", 7) == 0, "an end-stream envelope");
  envelope_refused (b.data, b.len, "flags 2 (end-stream) in a request");
  wb_buf_reset (&b);
  must (e2b_envelope_append (&b, 1, "{}", 2));
  envelope_refused (b.data, b.len, "flags 1 (compressed)");
  b.data[0] = 0x80;
  envelope_refused (b.data, b.len, "flags 0x80");
  wb_buf_reset (&b);
  must (e2b_envelope_append (&b, 0, "", 0));
  ok (e2b_envelope_parse (b.data, b.len, &msg, &msg_len, &err) == 0 && msg_len == 0,
      "an empty message is one");
  envelope_refused ("\x00\x00\x00\x00\x03{}", 7, "a length past the body");
  envelope_refused ("\x00\x00\x00\x00\x01{}", 7, "trailing bytes");
  envelope_refused ("\x00\x00\x00\x00", 4, "shorter than the prefix");
  envelope_refused ("", 0, "empty");
  envelope_refused ("\x00\xff\xff\xff\xff{}", 7, "a length near 4 GiB");
  wb_buf_free (&b);
}

/* ---- multipart --------------------------------------------------------- */

#define SDK_BOUNDARY "----formdata-undici-032193354428"
#define SDK_CTYPE "multipart/form-data; boundary=" SDK_BOUNDARY

static void
test_multipart (void)
{
  e2b_part_t parts[E2B_MULTIPART_MAX];
  size_t n = 99;
  wb_err_t err = {0};
  /* What the JS SDK's files.write sends (undici's FormData). */
  static const char sdk[]
      = "--" SDK_BOUNDARY "\r\n"
        "Content-Disposition: form-data; name=\"file\"; filename=\"/home/user/a.txt\"\r\n"
        "Content-Type: application/octet-stream\r\n"
        "\r\n"
        "hello\r\n\r\nwor\x00ld\r\n"
        "--" SDK_BOUNDARY "--\r\n";
  size_t sdk_len = sizeof sdk - 1;

  int rc = e2b_multipart_parse (SDK_CTYPE, sdk, sdk_len, parts, E2B_MULTIPART_MAX, &n, &err);
  if (!ok (rc == 0 && n == 1, "the SDK's upload is one part"))
    printf ("#   rc %d n %zu msg %s\n", rc, n, err.msg);
  if (rc == 0 && n == 1)
    {
      ok (parts[0].field_len == 4 && memcmp (parts[0].field, "file", 4) == 0, "field \"file\"");
      ok (parts[0].filename && parts[0].filename_len == 16
              && memcmp (parts[0].filename, "/home/user/a.txt", 16) == 0,
          "filename /home/user/a.txt");
      ok (parts[0].len == 15 && memcmp (parts[0].data, "hello\r\n\r\nwor\x00ld", 15) == 0,
          "data: exactly the bytes (CRLFs and a NUL inside kept, the delimiter's CRLF not)");
      ok (parts[0].data > sdk && parts[0].data + parts[0].len < sdk + sdk_len,
          "the data points into the body");
    }

  static const char two[] = "preamble\r\n--XyZ\r\n"
                            "content-disposition: form-data; name=a; filename=\"x.txt\"\r\n\r\n"
                            "1\r\n"
                            "--XyZ\r\n"
                            "Content-Disposition: form-data; name=\"b\"\r\n\r\n"
                            "\r\n"
                            "--XyZ--";
  rc = e2b_multipart_parse ("Multipart/Form-Data; boundary=\"XyZ\"", two, sizeof two - 1, parts,
                            E2B_MULTIPART_MAX, &n, &err);
  ok (rc == 0 && n == 2, "two parts (a quoted boundary, a preamble, header names of any case)");
  if (rc == 0 && n == 2)
    {
      ok (parts[0].field_len == 1 && parts[0].field[0] == 'a' && parts[0].filename_len == 5
              && memcmp (parts[0].filename, "x.txt", 5) == 0 && parts[0].len == 1
              && parts[0].data[0] == '1',
          "the first: an unquoted name, a file name, one byte");
      ok (parts[1].field_len == 1 && parts[1].field[0] == 'b' && parts[1].filename == NULL
              && parts[1].len == 0,
          "the second: no filename (NULL), empty");
    }
  rc = e2b_multipart_parse ("multipart/form-data; boundary=XyZ", two, sizeof two - 1, parts, 1, &n,
                            &err);
  ok (rc < 0 && err.code == WB_E_INVALID && strstr (err.msg, "at most 1"), "past max: refused");

  rc = e2b_multipart_parse ("multipart/form-data; boundary=XyZ", "--XyZ--\r\n", 9, parts,
                            E2B_MULTIPART_MAX, &n, &err);
  ok (rc == 0 && n == 0, "only the closing delimiter: no part (the route refuses that)");

  rc = e2b_multipart_parse ("multipart/form-data", sdk, sdk_len, parts, E2B_MULTIPART_MAX, &n,
                            &err);
  ok (rc < 0 && err.code == WB_E_INVALID && n == 0, "no boundary parameter: refused");
  rc = e2b_multipart_parse ("multipart/form-data; boundary=", sdk, sdk_len, parts,
                            E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID, "an empty boundary: refused");
  rc = e2b_multipart_parse ("application/octet-stream; boundary=" SDK_BOUNDARY, sdk, sdk_len, parts,
                            E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID, "another content type: refused");
  rc = e2b_multipart_parse (NULL, sdk, sdk_len, parts, E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID, "no content type: refused");
  rc = e2b_multipart_parse ("multipart/form-data; boundary=other", sdk, sdk_len, parts,
                            E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID && strstr (err.msg, "no part"),
      "a boundary the body does not hold: refused");

  /* Cut before the delimiter after its data. */
  size_t cut = (size_t) (strstr (sdk, "wor") - sdk);
  rc = e2b_multipart_parse (SDK_CTYPE, sdk, cut, parts, E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID && strstr (err.msg, "does not end"),
      "an unterminated part: refused");
  cut = (size_t) (strstr (sdk, "Content-Type") - sdk);
  rc = e2b_multipart_parse (SDK_CTYPE, sdk, cut, parts, E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID && strstr (err.msg, "headers do not end"),
      "headers cut: refused");
  /* The last part's delimiter with nothing after it (no "--", no CRLF). */
  static const char open_end[] = "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n"
                                 "data\r\n--XyZ";
  rc = e2b_multipart_parse ("multipart/form-data; boundary=XyZ", open_end, sizeof open_end - 1,
                            parts, E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID, "no closing delimiter: refused");
  /* A parameter's look-alike inside another's quoted value is not it. */
  static const char lookalike[]
      = "--XyZ\r\nContent-Disposition: form-data; name=\"a filename=evil\"; filename=\"good\"\r\n"
        "\r\nd\r\n--XyZ--";
  rc = e2b_multipart_parse ("multipart/form-data; boundary=XyZ", lookalike, sizeof lookalike - 1,
                            parts, E2B_MULTIPART_MAX, &n, &err);
  ok (rc == 0 && n == 1 && parts[0].field_len == 15
          && memcmp (parts[0].field, "a filename=evil", 15) == 0 && parts[0].filename_len == 4
          && memcmp (parts[0].filename, "good", 4) == 0,
      "filename= inside name's quotes is name's: the file is \"good\"");
  static const char nameless[] = "--XyZ\r\nContent-Type: text/plain\r\n\r\nd\r\n--XyZ--";
  rc = e2b_multipart_parse ("multipart/form-data; boundary=XyZ", nameless, sizeof nameless - 1,
                            parts, E2B_MULTIPART_MAX, &n, &err);
  ok (rc < 0 && err.code == WB_E_INVALID && strstr (err.msg, "no form-data name"),
      "a part without Content-Disposition's name: refused");
}

/* ---- ASCII JSON and UTF-8 boundaries ------------------------------------ */

static void
ascii_is (const char *s, size_t len, const char *want, const char *what)
{
  wb_buf_t out = WB_BUF_INIT;
  must (e2b_json_ascii (&out, s, len));
  is_str (out.data, want, "json_ascii: %s", what);
  wb_buf_free (&out);
}

static void
test_json_ascii (void)
{
  ascii_is ("", 0, "\"\"", "empty");
  ascii_is ("caf\xc3\xa9", 5, "\"caf\\u00e9\"", "\xc3\xa9 -> \\u00e9");
  ascii_is ("\xe2\x82\xac", 3, "\"\\u20ac\"", "a 3-byte character");
  ascii_is ("\xf0\x9f\x98\x80", 4, "\"\\ud83d\\ude00\"", "an emoji -> a surrogate pair");
  ascii_is ("a\xff"
            "b",
            3, "\"a\\ufffdb\"", "an invalid byte -> \\ufffd");
  ascii_is ("\xc3", 1, "\"\\ufffd\"", "a cut character -> \\ufffd");
  ascii_is ("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"", "a surrogate's UTF-8: each byte");
  ascii_is ("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"", "an overlong form: each byte");
  ascii_is ("\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "past U+10FFFF");
  ascii_is ("q\"b\\s\n", 6, "\"q\\\"b\\\\s\\n\"", "quote, backslash, newline escaped");
  ascii_is ("\t\r", 2, "\"\\t\\r\"", "tab and carriage return");
  ascii_is ("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"", "controls and DEL as \\u00XX");
  ascii_is ("a\0b", 3, "\"a\\u0000b\"", "NUL as \\u0000");
  ascii_is ("/<>", 3, "\"/<>\"", "printable ASCII as it is");
}

static void
test_utf8_whole (void)
{
  is_int (e2b_utf8_whole ("ab\xc3", 3), 2, "ab + half of \xc3\xa9: 2");
  is_int (e2b_utf8_whole ("ab\xc3\xa9", 4), 4, "ab\xc3\xa9: 4");
  is_int (e2b_utf8_whole ("\xf0\x9f\x98", 3), 0, "three bytes of an emoji: 0");
  is_int (e2b_utf8_whole ("x\xf0\x9f\x98\x80", 5), 5, "x + an emoji: 5");
  is_int (e2b_utf8_whole ("x\xe2\x82", 3), 1, "two bytes of \xe2\x82\xac: 1");
  is_int (e2b_utf8_whole ("", 0), 0, "empty: 0");
  is_int (e2b_utf8_whole ("abc", 3), 3, "ASCII: all");
  is_int (e2b_utf8_whole ("ab\xff", 3), 3, "0xff leads nothing: kept (it is U+FFFD now)");
  is_int (e2b_utf8_whole ("ab\xf8", 3), 3, "0xf8 leads nothing: kept");
  is_int (e2b_utf8_whole ("ab\xc0", 3), 3, "0xc0 leads nothing: kept");
  is_int (e2b_utf8_whole ("\x80\x80\x80\x80", 4), 4, "stray continuations: kept");
  is_int (e2b_utf8_whole ("\xc3\xa9\x80", 3), 3, "a character and a stray continuation: kept");
}

/* ---- the streams ------------------------------------------------------- */

/* The n-th line of s (0 on), without its newline, into line. */
static bool
nth_line (const char *s, int n, char *line, size_t size)
{
  for (; n > 0 && s; n--)
    s = strchr (s, '\n') ? strchr (s, '\n') + 1 : NULL;
  if (s == NULL || *s == '\0')
    return false;
  size_t len = strchr (s, '\n') ? (size_t) (strchr (s, '\n') - s) : strlen (s);
  snprintf (line, size, "%.*s", (int) len, s);
  return true;
}

static int
count_lines (const char *s)
{
  int n = 0;
  for (; s && *s; s++)
    n += *s == '\n';
  return n;
}

/* A stdout/stderr line up to its timestamp (which varies). */
static bool
line_starts (const char *line, const char *want)
{
  size_t len = strlen (line);
  return strncmp (line, want, strlen (want)) == 0
         && strncmp (line + strlen (want), ",\"timestamp\":\"", 14) == 0 && len >= 3
         && strcmp (line + len - 3, "Z\"}") == 0;
}

static void
test_execute_stream (void)
{
  e2b_stream_t st = {.kind = E2B_EXECUTE};
  wb_buf_t out = WB_BUF_INIT;
  sched_result_t res;
  char l[1024];

  must (e2b_stream_start (&st, &out));
  ok (out.len == 0, "/execute: nothing at the start");
  must (e2b_stream_chunk (&st, ENG_STREAM_STDOUT, "h\xc3", 2, &out));
  must (e2b_stream_chunk (&st, ENG_STREAM_STDOUT, "\xa9llo", 4, &out));
  ok (count_lines (out.data) == 2, "two chunks, two lines");
  ok (nth_line (out.data, 0, l, sizeof l) && line_starts (l, "{\"type\":\"stdout\",\"text\":\"h\""),
      "the first: h (the cut \xc3 held back): %s", l);
  ok (nth_line (out.data, 1, l, sizeof l)
          && line_starts (l, "{\"type\":\"stdout\",\"text\":\"\\u00e9llo\""),
      "the second: \\u00e9llo (carried whole): %s", l);
  ok (strstr (out.data, "\\ufffd") == NULL, "no U+FFFD anywhere");

  /* stderr's cut is its own; one still cut at the end is sent as it is. */
  wb_buf_reset (&out);
  must (e2b_stream_chunk (&st, ENG_STREAM_STDERR, "e\xe2\x82", 3, &out));
  must (e2b_stream_chunk (&st, ENG_STREAM_STDOUT, "\xf0\x9f", 2, &out));
  ok (count_lines (out.data) == 1 && nth_line (out.data, 0, l, sizeof l)
          && line_starts (l, "{\"type\":\"stderr\",\"text\":\"e\""),
      "stderr's cut held, stdout's whole chunk held: %s", l);
  must (e2b_stream_chunk (&st, ENG_STREAM_STDERR, "\xac", 1, &out));
  ok (count_lines (out.data) == 2 && nth_line (out.data, 1, l, sizeof l)
          && line_starts (l, "{\"type\":\"stderr\",\"text\":\"\\u20ac\""),
      "stderr completed: \\u20ac");
  memset (&res, 0, sizeof res);
  wb_buf_reset (&out);
  must (e2b_stream_finish (&st, &res, NULL, NULL, &out));
  ok (count_lines (out.data) == 2 && nth_line (out.data, 0, l, sizeof l)
          && line_starts (l, "{\"type\":\"stdout\",\"text\":\"\\ufffd\\ufffd\"")
          && nth_line (out.data, 1, l, sizeof l)
          && strcmp (l, "{\"type\":\"end_of_execution\"}") == 0,
      "finish: what was still cut as U+FFFDs, then end_of_execution");
  ok (st.tail_len[0] == 0 && st.tail_len[1] == 0, "nothing held after finish");

  /* A notebook cell: the display's records, then the end. */
  e2b_stream_t nb = {.kind = E2B_EXECUTE, .notebook = true};
  memset (&res, 0, sizeof res);
  const char *rec = "{\"type\":\"result\",\"text\":\"3\",\"is_main_result\":true}";
  must (wb_buf_printf (&res.session_display, "%s\nnot json\n", rec));
  wb_buf_reset (&out);
  must (e2b_stream_finish (&nb, &res, NULL, NULL, &out));
  ok (count_lines (out.data) == 2 && nth_line (out.data, 0, l, sizeof l) && strcmp (l, rec) == 0
          && nth_line (out.data, 1, l, sizeof l)
          && strcmp (l, "{\"type\":\"end_of_execution\"}") == 0,
      "notebook, status ok: the result line as written, then end_of_execution");
  wb_buf_free (&res.session_display);

  /* A notebook whose display holds an error: that is the error. */
  memset (&res, 0, sizeof res);
  res.exit_code = 1;
  must (
      wb_buf_append_str (&res.session_display,
                         "{\"type\":\"error\",\"name\":\"ZeroDivisionError\",\"value\":\"x\"}\n"));
  wb_buf_reset (&out);
  must (e2b_stream_finish (&nb, &res, NULL, NULL, &out));
  ok (count_lines (out.data) == 2 && strstr (out.data, "ZeroDivisionError")
          && strstr (out.data, "\"name\":\"Error\"") == NULL,
      "a display error record stands for the failure (no second error)");
  wb_buf_free (&res.session_display);

  /* No display, exit 1: stderr's last line names the error. */
  e2b_stream_t js = {.kind = E2B_EXECUTE};
  memset (&res, 0, sizeof res);
  res.exit_code = 1;
  must (wb_buf_append_str (&res.err, "Traceback...\nValueError: bad\n"));
  wb_buf_reset (&out);
  must (e2b_stream_finish (&js, &res, NULL, NULL, &out));
  is_str (out.data,
          "{\"type\":\"error\",\"name\":\"ValueError\",\"value\":\"bad\",\"traceback\":"
          "\"Traceback...\\nValueError: bad\\n\"}\n{\"type\":\"end_of_execution\"}\n",
          "exit 1 with a traceback: error ValueError, value bad, the traceback whole");
  wb_buf_reset (&res.err);
  must (wb_buf_append_str (&res.err, "something went wrong\n"));
  wb_buf_reset (&out);
  must (e2b_stream_finish (&js, &res, NULL, NULL, &out));
  ok (strstr (out.data, "\"name\":\"Error\",\"value\":\"something went wrong\"") != NULL,
      "a last line without NAME: is the value of an Error");
  wb_buf_free (&res.err);
  res.exit_code = 2;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&js, &res, NULL, NULL, &out));
  ok (strstr (out.data, "\"name\":\"Error\",\"value\":\"the program exited with status 2\"")
          != NULL,
      "no stderr: the exit status says it");
  res.exit_code = -1;
  res.status = SCHED_ST_TIMEOUT;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&js, &res, NULL, NULL, &out));
  ok (strncmp (out.data, "{\"type\":\"error\",\"name\":\"TimeoutError\",", 37) == 0,
      "a timeout: TimeoutError");
  res.status = SCHED_ST_OK;
  res.exit_code = 0;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&js, &res, NULL, NULL, &out));
  is_str (out.data, "{\"type\":\"end_of_execution\"}\n", "exit 0, no display: only the end");

  /* Refused after the stream began; warnings as stderr notes. */
  wb_err_t err = {0};
  wb_error (&err, WB_E_SESSION_EXPIRED, "the sandbox is gone");
  wb_buf_reset (&out);
  must (e2b_stream_finish (&js, NULL, NULL, &err, &out));
  is_str (out.data,
          "{\"type\":\"error\",\"name\":\"SandboxGone\",\"value\":\"the sandbox is gone\","
          "\"traceback\":\"\"}\n{\"type\":\"end_of_execution\"}\n",
          "no result, the session gone: SandboxGone");
  session_outcome_t so = {0};
  char *warnings[] = {(char *) "x was not carried"};
  so.warnings = warnings;
  so.n_warnings = 1;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&js, &res, &so, NULL, &out));
  ok (count_lines (out.data) == 2 && nth_line (out.data, 0, l, sizeof l)
          && line_starts (l, "{\"type\":\"stderr\",\"text\":\"warmbox: x was not carried\\n\""),
      "a warning: a stderr line: %s", l);
  wb_buf_free (&out);
}

/* The envelopes of s: flags and messages (NUL-terminated copies). */
typedef struct env_msg
{
  unsigned flags;
  char msg[512];
} env_msg_t;

static int
split_envelopes (const wb_buf_t *b, env_msg_t *m, int max)
{
  const unsigned char *u = (const unsigned char *) b->data;
  size_t off = 0;
  int n = 0;
  while (off + 5 <= b->len && n < max)
    {
      size_t len = ((size_t) u[off + 1] << 24) | ((size_t) u[off + 2] << 16)
                   | ((size_t) u[off + 3] << 8) | u[off + 4];
      if (len > b->len - off - 5 || len >= sizeof m[n].msg)
        return -1;
      m[n].flags = u[off];
      memcpy (m[n].msg, b->data + off + 5, len);
      m[n].msg[len] = '\0';
      off += 5 + len;
      n++;
    }
  return off == b->len ? n : -1;
}

static void
test_process_stream (void)
{
  e2b_stream_t st = {.kind = E2B_PROCESS, .pid = 42};
  wb_buf_t out = WB_BUF_INIT;
  env_msg_t m[8];
  sched_result_t res;
  int n;

  must (e2b_stream_start (&st, &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 1 && m[0].flags == 0 && strcmp (m[0].msg, "{\"event\":{\"start\":{\"pid\":42}}}") == 0,
      "start: one envelope with the pid");
  wb_buf_reset (&out);
  must (e2b_stream_chunk (&st, ENG_STREAM_STDOUT, "hi", 2, &out));
  must (e2b_stream_chunk (&st, ENG_STREAM_STDERR, "\xc3", 1, &out));
  must (e2b_stream_chunk (&st, ENG_STREAM_STDOUT, "", 0, &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 2 && m[0].flags == 0
          && strcmp (m[0].msg, "{\"event\":{\"data\":{\"stdout\":\"aGk=\"}}}") == 0
          && strcmp (m[1].msg, "{\"event\":{\"data\":{\"stderr\":\"ww==\"}}}") == 0,
      "chunks: base64 data, bytes as they are (a cut character too); an empty chunk sends nothing");

  memset (&res, 0, sizeof res);
  res.exit_code = 3;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&st, &res, NULL, NULL, &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 2 && m[0].flags == 0
          && strcmp (m[0].msg, "{\"event\":{\"end\":{\"exitCode\":3,\"exited\":true,\"status\":"
                               "\"exit status 3\",\"error\":\"exit status 3\"}}}")
                 == 0
          && m[1].flags == 2 && strcmp (m[1].msg, "{}") == 0,
      "exit 3: end with exitCode 3 and error \"exit status 3\", then a flag-2 {}");
  res.exit_code = 0;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&st, &res, NULL, NULL, &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 2
          && strcmp (m[0].msg, "{\"event\":{\"end\":{\"exitCode\":0,\"exited\":true,\"status\":"
                               "\"exit status 0\"}}}")
                 == 0
          && m[1].flags == 2,
      "exit 0: end without an error");
  res.status = SCHED_ST_TIMEOUT;
  res.exit_code = -1;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&st, &res, NULL, NULL, &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 1 && m[0].flags == 2
          && strncmp (m[0].msg, "{\"error\":{\"code\":\"deadline_exceeded\",\"message\":\"", 48)
                 == 0,
      "a timeout: one flag-2 envelope, deadline_exceeded: %s", n > 0 ? m[0].msg : "");
  res.status = SCHED_ST_OOM;
  wb_buf_reset (&out);
  must (e2b_stream_finish (&st, &res, NULL, NULL, &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 2 && strstr (m[0].msg, "\"exitCode\":-1,\"exited\":false,\"status\":\"signal: killed\"")
          && strstr (m[0].msg, "memory limit") && m[1].flags == 2,
      "out of memory: killed, exitCode -1");
  wb_err_t err = {0};
  wb_error (&err, WB_E_INVALID, "bad \"thing\"");
  wb_buf_reset (&out);
  must (e2b_stream_finish (&st, NULL, NULL, &err, &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 1 && m[0].flags == 2
          && strcmp (
                 m[0].msg,
                 "{\"error\":{\"code\":\"invalid_argument\",\"message\":\"bad \\\"thing\\\"\"}}")
                 == 0,
      "refused: invalid_argument, the message escaped");
  wb_buf_reset (&out);
  must (e2b_stream_note (&st, "left out", &out));
  n = split_envelopes (&out, m, 8);
  ok (n == 1
          && strcmp (m[0].msg, "{\"event\":{\"data\":{\"stderr\":\"d2FybWJveDogbGVmdCBvdXQK\"}}}")
                 == 0,
      "a note: stderr data \"warmbox: left out\\n\"");
  wb_buf_free (&out);
}

/* ---- display records --------------------------------------------------- */

static void
test_display (void)
{
  wb_buf_t out = WB_BUF_INIT;
  int errors = -1;
  const char *res = "{\"type\":\"result\",\"png\":\"iVBORw0KGgo=\",\"is_main_result\":true}";
  const char *err = "{\"type\": \"error\", \"name\": \"ValueError\", \"value\": \"\\u00e9\"}";
  wb_buf_t in = WB_BUF_INIT;

  must (wb_buf_printf (&in,
                       "%s\n"
                       "junk\n"
                       "\n"
                       "{\"type\":\"stdout\",\"text\":\"x\"}\n"
                       "[{\"type\":\"result\"}]\n"
                       "{\"type\":1}\n"
                       "{\"type\":\"result\",\"text\":\"caf\xc3\xa9\"}\n"
                       "{\"type\":\"result\",\"text\":\"a\tb\"}\n"
                       "{\"type\":\"result\"} trailing\n"
                       "{\"type\":\"result\"}}\n"
                       "%s",
                       res, err));
  must (e2b_display_lines (in.data, in.len, &out, &errors));
  wb_buf_t want = WB_BUF_INIT;
  must (wb_buf_printf (&want, "%s\n%s\n", res, err));
  is_str (out.data, want.data,
          "a result and an error kept as written; junk, other types, non-ASCII, controls and "
          "trailing bytes dropped");
  is_int (errors, 1, "one error record");
  wb_buf_reset (&out);
  must (e2b_display_lines ("{\"type\":\"result\"}   ", 20, &out, &errors));
  is_str (out.data, "{\"type\":\"result\"}   \n", "trailing spaces are JSON's: kept");
  is_int (errors, 0, "no error record");
  /* Numbers and escapes cJSON takes and JSON.parse does not: the SDK
   * would throw. */
  static const char *lenient[]
      = {"{\"type\":\"result\",\"x\":01}",          "{\"type\":\"result\",\"x\":1.}",
         "{\"type\":\"result\",\"x\":-.5}",         "{\"type\":\"error\",\"x\":[1,-01]}",
         "{\"type\":\"result\",\"x\":1e}",          "{\"type\":\"error\",\"value\":\"\\u0`1e9\"}",
         "{\"type\":\"error\",\"value\":\"\\u12\"}"};
  for (size_t i = 0; i < sizeof lenient / sizeof lenient[0]; i++)
    {
      wb_buf_reset (&out);
      must (e2b_display_lines (lenient[i], strlen (lenient[i]), &out, &errors));
      ok (out.len == 0 && errors == 0, "a number or escape JSON.parse refuses: dropped (%s)",
          lenient[i]);
    }
  const char *strict = "{\"type\":\"result\",\"x\":-0.5e+10,\"y\":[0,10,1E3,-0],\"z\":\"01 \\\" 1. "
                       "\\u00e9\\\\u\"}";
  wb_buf_reset (&out);
  must (e2b_display_lines (strict, strlen (strict), &out, &errors));
  ok (out.len == strlen (strict) + 1 && memcmp (out.data, strict, strlen (strict)) == 0,
      "JSON's numbers (and number-like strings) kept: %s", strict);
  wb_buf_reset (&out);
  must (e2b_display_lines ("", 0, &out, &errors));
  ok (out.len == 0 && errors == 0, "nothing: nothing");
  wb_buf_free (&out);
  wb_buf_free (&want);
  wb_buf_free (&in);
}

/* ---- process scripts --------------------------------------------------- */

static int
script_of (const char *json, const char *env_json, wb_buf_t *script, wb_err_t *err)
{
  cJSON *start = cJSON_Parse (json);
  cJSON *env = env_json ? cJSON_Parse (env_json) : NULL;
  uint32_t hint = 7;
  wb_buf_reset (script);
  memset (err, 0, sizeof *err);
  int rc = start ? e2b_process_script (start, env, script, &hint, err) : -2;
  cJSON_Delete (start);
  cJSON_Delete (env);
  return rc;
}

static void
script_is (const char *json, const char *env_json, const char *want, const char *what)
{
  wb_buf_t script = WB_BUF_INIT;
  wb_err_t err;
  int rc = script_of (json, env_json, &script, &err);
  if (!ok (rc == 0 && script.data && strcmp (script.data, want) == 0, "script: %s", what))
    printf ("#   rc %d msg %s\n#   got:\n%s\n#   want:\n%s\n", rc, err.msg,
            script.data ? script.data : "", want);
  wb_buf_free (&script);
}

static void
script_refused (const char *json, wb_code_t code, const char *what)
{
  wb_buf_t script = WB_BUF_INIT;
  wb_err_t err;
  int rc = script_of (json, NULL, &script, &err);
  if (!ok (rc == -1 && err.code == code, "script refused: %s", what))
    printf ("#   rc %d code %s msg %s\n", rc, wb_code_name (err.code), err.msg);
  wb_buf_free (&script);
}

#define CD "cd /home/user 2>/dev/null || cd /tmp\n"

static void
test_process_script (void)
{
  script_is (
      "{\"process\":{\"cmd\":\"/bin/bash\",\"args\":[\"-l\",\"-c\",\"ls\"]},\"stdin\":false}", NULL,
      CD "ls\n", "bash -l -c ls: cd home, then the string");
  script_is ("{\"process\":{\"cmd\":\"/bin/bash\",\"args\":[\"-l\",\"-c\",\"ls\"],\"envs\":{\"A\":"
             "\"1\",\"Q\":\"it's\"}},\"stdin\":false}",
             NULL, "export A='1'\nexport Q='it'\\''s'\n" CD "ls\n",
             "envs exported first, a quote in a value escaped");
  script_is (
      "{\"process\":{\"cmd\":\"bash\",\"args\":[\"-c\",\"echo $HOME\"],\"envs\":{\"B\":\"2\"}}}",
      "{\"HOME\":\"/home/user\",\"_X\":\"a b\"}",
      "export HOME='/home/user'\nexport _X='a b'\nexport B='2'\n" CD "echo $HOME\n",
      "the sandbox's envVars before the call's");
  script_is ("{\"process\":{\"cmd\":\"sh\",\"args\":[\"-lc\",\"pwd\"],\"cwd\":\"/home/user\"}}",
             NULL, CD "pwd\n", "sh -lc; cwd the home");
  script_is (
      "{\"process\":{\"cmd\":\"/bin/bash\",\"args\":[\"-l\",\"-c\",\"ls\"],\"cwd\":\"/tmp\"},"
      "\"pty\":null}",
      NULL, CD "ls\n", "cwd /tmp (the home is /tmp); a null pty is none");
  script_is ("{\"process\":{\"cmd\":\"python3\",\"args\":[\"-c\",\"print('hi')\",\"\"]}}", NULL,
             CD "exec 'python3' '-c' 'print('\\''hi'\\'')' ''\n",
             "another command: exec, each word quoted");
  script_is ("{\"process\":{\"cmd\":\"ls\"}}", NULL, CD "exec 'ls'\n", "no args");
  script_is ("{\"process\":{\"cmd\":\"ls\",\"args\":null,\"envs\":null}}", NULL, CD "exec 'ls'\n",
             "null args and envs");
  /* bash words that are not just -c STRING run as they are. */
  script_is ("{\"process\":{\"cmd\":\"/bin/bash\",\"args\":[\"--norc\",\"-c\",\"echo hi\"]}}", NULL,
             CD "exec '/bin/bash' '--norc' '-c' 'echo hi'\n",
             "bash --norc -c: exec (a long option is not -c)");
  script_is ("{\"process\":{\"cmd\":\"bash\",\"args\":[\"x.sh\",\"-c\",\"y\"]}}", NULL,
             CD "exec 'bash' 'x.sh' '-c' 'y'\n", "bash FILE -c y: -c is the script's");
  script_is ("{\"process\":{\"cmd\":\"bash\",\"args\":[\"-c\",\"echo $1\",\"_\",\"arg\"]}}", NULL,
             CD "exec 'bash' '-c' 'echo $1' '_' 'arg'\n", "bash -c STRING $0 $1: kept");
  script_is ("{\"process\":{\"cmd\":\"bash\",\"args\":[\"-o\",\"pipefail\",\"-c\",\"ls\"]}}", NULL,
             CD "exec 'bash' '-o' 'pipefail' '-c' 'ls'\n", "bash -o OPT -c: exec");
  script_is ("{\"process\":{\"cmd\":\"bash\",\"args\":[\"-e\",\"-x\"]}}", NULL,
             CD "exec 'bash' '-e' '-x'\n", "bash without -c: exec");
  script_is ("{\"process\":{\"cmd\":\"/usr/bin/zsh\",\"args\":[\"-c\",\"ls\"]}}", NULL,
             CD "exec '/usr/bin/zsh' '-c' 'ls'\n", "another shell: exec");

  script_refused (
      "{\"process\":{\"cmd\":\"/bin/bash\",\"args\":[\"-l\"]},\"pty\":{\"size\":{\"rows\":"
      "24,\"cols\":80}}}",
      WB_E_UNSUPPORTED, "a pty");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"envs\":{\"A-B\":\"1\"}}}", WB_E_INVALID,
                  "an env name with '-'");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"envs\":{\"1A\":\"1\"}}}", WB_E_INVALID,
                  "an env name starting with a digit");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"envs\":{\"\":\"1\"}}}", WB_E_INVALID,
                  "an empty env name");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"envs\":{\"A\":1}}}", WB_E_INVALID,
                  "an env value that is not a string");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"envs\":[\"A=1\"]}}", WB_E_INVALID,
                  "envs not an object");
  script_refused ("{\"process\":{\"args\":[\"-c\",\"ls\"]}}", WB_E_INVALID, "no cmd");
  script_refused ("{\"process\":{\"cmd\":\"\"}}", WB_E_INVALID, "an empty cmd");
  script_refused ("{\"cmd\":\"ls\"}", WB_E_INVALID, "no process");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"args\":\"-l\"}}", WB_E_INVALID, "args a string");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"args\":[\"-l\",2]}}", WB_E_INVALID,
                  "args with a number");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"cwd\":\"/etc\"}}", WB_E_INVALID, "cwd /etc");
  script_refused ("{\"process\":{\"cmd\":\"ls\",\"cwd\":\"/home/user/sub\"}}", WB_E_INVALID,
                  "cwd a folder under the home");
}

int
main (void)
{
  test_paths ();
  test_envelopes ();
  test_multipart ();
  test_json_ascii ();
  test_utf8_whole ();
  test_execute_stream ();
  test_process_stream ();
  test_display ();
  test_process_script ();
  return tap_done ();
}

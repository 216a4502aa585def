/* Shared helpers: buffers, JSON strings, UTF-8, base64, SHA-256, errors. */
#include "tap.h"
#include "warmbox/wb.h"
#include <sys/prctl.h>
#include <sys/resource.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void
test_buf (void)
{
  wb_buf_t b = WB_BUF_INIT;
  ok (wb_buf_append (&b, "abc", 3) == 0 && b.len == 3 && b.data[3] == '\0', "append keeps NUL");
  must (wb_buf_printf (&b, "-%d-", 42));
  is_str (b.data, "abc-42-", "printf appends");
  wb_buf_consume (&b, 2);
  is_str (b.data, "c-42-", "consume drops the head");
  char *s = wb_buf_steal (&b);
  ok (s && strcmp (s, "c-42-") == 0 && b.data == NULL && b.len == 0, "steal empties the buffer");
  free (s);
  s = wb_buf_steal (&b);
  ok (s && s[0] == '\0', "steal of an empty buffer gives an empty string");
  free (s);
  for (int i = 0; i < 100000; i++)
    must (wb_buf_append (&b, "x", 1));
  is_int (b.len, 100000, "grows to 100000 bytes");
  wb_buf_free (&b);
}

static void
test_json (void)
{
  wb_buf_t b = WB_BUF_INIT;
  const char in[] = "a\"b\\c\n\t\x01\x7f\0z\xc3\xa9";
  must (wb_json_append_string (&b, in, sizeof in - 1));
  is_str (b.data, "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\\u0000z\xc3\xa9\"",
          "escapes quotes, controls, NUL");
  wb_buf_free (&b);
}

static void
test_utf8 (void)
{
  ok (wb_utf8_valid ("plain", 5), "ASCII is UTF-8");
  ok (wb_utf8_valid ("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9), "2-, 3- and 4-byte sequences");
  ok (!wb_utf8_valid ("\xff", 1), "0xff is not UTF-8");
  ok (!wb_utf8_valid ("\xc3", 1), "truncated sequence");
  ok (!wb_utf8_valid ("\xc0\xaf", 2), "overlong slash");
  ok (!wb_utf8_valid ("\xed\xa0\x80", 3), "UTF-16 surrogate");
  ok (!wb_utf8_valid ("\xf4\x90\x80\x80", 4), "above U+10FFFF");
  ok (wb_utf8_valid ("a\0b", 3), "NUL is valid UTF-8 (callers check it apart)");
}

static void
test_utf8_sanitize (void)
{
  wb_buf_t b = WB_BUF_INIT;
  size_t n = wb_utf8_sanitize (&b,
                               "a\xff"
                               "b\xc3\xa9",
                               5, 5, false);
  ok (n == 5 && b.len == 7
          && memcmp (b.data,
                     "a\xef\xbf\xbd"
                     "b\xc3\xa9",
                     7)
                 == 0,
      "an invalid byte becomes U+FFFD, valid characters stay");
  wb_buf_reset (&b);
  n = wb_utf8_sanitize (&b, "ab\xc3\xa9", 4, 3, false);
  ok (n == 2 && b.len == 2, "the cut falls before a character that would not fit");
  wb_buf_reset (&b);
  n = wb_utf8_sanitize (&b, "x\0y", 3, 3, true);
  ok (n == 3 && b.len == 4 && memcmp (b.data, "x\\0y", 4) == 0, "NUL made visible on request");
  wb_buf_reset (&b);
  n = wb_utf8_sanitize (&b, "\xed\xa0\x80", 3, 3, false);
  ok (n == 3 && b.len == 9, "a surrogate is three invalid bytes");
  wb_buf_free (&b);
}

static void
test_hex (void)
{
  wb_buf_t b = WB_BUF_INIT;
  ok (wb_hex_decode (&b, "00fFa1", 6) == 0 && b.len == 3 && memcmp (b.data, "\x00\xff\xa1", 3) == 0,
      "hex decodes, either case");
  wb_buf_reset (&b);
  ok (wb_hex_decode (&b, "abc", 3) < 0, "odd length refused");
  ok (wb_hex_decode (&b, " 1", 2) < 0 && wb_hex_decode (&b, "0x", 2) < 0, "non-digits refused");
  wb_buf_free (&b);
}

static void
test_base64 (void)
{
  const char *vec[][2] = {{"", ""},
                          {"f", "Zg=="},
                          {"fo", "Zm8="},
                          {"foo", "Zm9v"},
                          {"foob", "Zm9vYg=="},
                          {"fooba", "Zm9vYmE="},
                          {"foobar", "Zm9vYmFy"}};
  for (size_t i = 0; i < WB_ARRAY_SIZE (vec); i++)
    {
      wb_buf_t e = WB_BUF_INIT, d = WB_BUF_INIT;
      must (wb_base64_encode (&e, vec[i][0], strlen (vec[i][0])));
      is_str (e.data ? e.data : "", vec[i][1], "base64(\"%s\")", vec[i][0]);
      ok (wb_base64_decode (&d, vec[i][1], strlen (vec[i][1])) == 0 && d.len == strlen (vec[i][0])
              && memcmp (d.data ? d.data : "", vec[i][0], d.len) == 0,
          "decode \"%s\"", vec[i][1]);
      wb_buf_free (&e);
      wb_buf_free (&d);
    }
  unsigned char all[256];
  for (int i = 0; i < 256; i++)
    all[i] = (unsigned char) i;
  wb_buf_t e = WB_BUF_INIT, d = WB_BUF_INIT;
  must (wb_base64_encode (&e, all, sizeof all));
  must (wb_base64_decode (&d, e.data, e.len));
  ok (d.len == 256 && memcmp (d.data, all, 256) == 0, "every byte value round-trips");
  wb_buf_reset (&d);
  ok (wb_base64_decode (&d, "Zm9", 3) < 0, "length not a multiple of 4 refused");
  ok (wb_base64_decode (&d, "Zm=v", 4) < 0, "data after padding refused");
  ok (wb_base64_decode (&d, "Z!9v", 4) < 0, "bad character refused");
  wb_buf_free (&e);
  wb_buf_free (&d);
}

static void
test_sha_err (void)
{
  char hex[65];
  wb_sha256_hex ("abc", 3, hex);
  is_str (hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256(abc)");
  wb_err_t err;
  ok (wb_error (&err, WB_E_INVALID, "bad %s", "thing") == -1, "wb_error returns -1");
  wb_err_wrap (&err, "while %s", "parsing");
  is_str (err.msg, "while parsing: bad thing", "wrap prefixes context");
  is_int (wb_code_http_status (WB_E_TOO_LARGE), 413, "too large is 413");
  is_int (wb_code_http_status (WB_E_ENGINE_DOWN), 503, "engine down is 503");
  char r1[33], r2[33];
  ok (wb_random_hex (r1, 16) == 0 && wb_random_hex (r2, 16) == 0 && strcmp (r1, r2) != 0
          && strlen (r1) == 32,
      "random ids differ");
}

/* Who can change a folder (Podman's seccomp_dir): it and every folder
 * above it. */
static void
test_dir_trusted (void)
{
  char tmpbase[] = "/tmp/warmbox-test-wb-XXXXXX", base[64], path[128], file[160], link[160];
  char real[512];
  wb_err_t err;

  if (mkdtemp (tmpbase) == NULL)
    {
      ok (false, "a temporary folder");
      return;
    }
  chmod (tmpbase, 0755);
  ok (wb_dir_trusted (tmpbase, real, sizeof real, &err) < 0
          && strstr (err.msg, "/tmp can be written by anyone"),
      "a folder under /tmp: not trusted, sticky or not (%s)", err.msg);
  rmdir (tmpbase);
  if (geteuid () != 0)
    {
      ok (true, "# SKIP the rest needs a folder only root can change (/var/lib)");
      return;
    }
  snprintf (base, sizeof base, "/var/lib/warmbox-test-wb-%d", (int) getpid ());
  mkdir (base, 0755);
  chmod (base, 0755);
  ok (wb_dir_trusted (base, real, sizeof real, &err) == 0 && strcmp (real, base) == 0,
      "a 0755 folder of root's under /var/lib: trusted");
  snprintf (path, sizeof path, "%s/inner", base);
  mkdir (path, 0700);
  ok (wb_dir_trusted (path, real, sizeof real, &err) == 0, "a 0700 folder below it: trusted");
  chmod (path, 0777);
  ok (wb_dir_trusted (path, real, sizeof real, &err) < 0 && strstr (err.msg, "anyone")
          && strstr (err.msg, "0777"),
      "writable by anyone: not trusted (%s)", err.msg);
  chmod (path, 0775);
  ok (wb_dir_trusted (path, real, sizeof real, &err) < 0 && strstr (err.msg, "its group"),
      "writable by its group: not (%s)", err.msg);
  chmod (path, 01777);
  ok (wb_dir_trusted (path, real, sizeof real, &err) < 0, "world-writable and sticky: not");
  chmod (path, 0755);
  chmod (base, 0777);
  ok (wb_dir_trusted (path, real, sizeof real, &err) < 0 && strstr (err.msg, base) != NULL,
      "a folder above it writable by anyone: not (%s)", err.msg);
  chmod (base, 0755);
  ok (chown (path, 65534, 65534) == 0 && wb_dir_trusted (path, real, sizeof real, &err) < 0
          && strstr (err.msg, "owned by uid 65534"),
      "owned by another user: not (%s)", err.msg);
  ok (chown (path, 0, 0) == 0, "(owned by root again)");
  /* A link is resolved: what is checked and returned is its target. */
  snprintf (link, sizeof link, "%s/link", base);
  ok (symlink (path, link) == 0 && wb_dir_trusted (link, real, sizeof real, &err) == 0
          && strcmp (real, path) == 0,
      "a symbolic link: its target is checked and given back (%s)", real);
  unlink (link);
  snprintf (file, sizeof file, "%s/f", path);
  close (open (file, O_CREAT | O_WRONLY, 0600));
  ok (wb_dir_trusted (file, real, sizeof real, &err) < 0 && strstr (err.msg, "not a folder"),
      "a file: not a folder");
  ok (wb_dir_trusted ("/nonexistent/warmbox", real, sizeof real, &err) < 0,
      "a missing folder: an error");
  unlink (file);
  rmdir (path);
  rmdir (base);
}

/* warmboxd and warmbox-oci call it first thing: a process started with
 * `ulimit -c unlimited` ends with no core limit and not dumpable. */
static void
test_no_core_dumps (void)
{
  struct rlimit lim;
  wb_err_t err;

  if (getrlimit (RLIMIT_CORE, &lim) == 0)
    {
      lim.rlim_cur = lim.rlim_max; /* as high as this test may go */
      (void) setrlimit (RLIMIT_CORE, &lim);
    }
  ok (prctl (PR_SET_DUMPABLE, 1, 0, 0, 0) == 0 && prctl (PR_GET_DUMPABLE, 0, 0, 0, 0) == 1,
      "before: dumpable");
  ok (wb_no_core_dumps (&err) == 0, "wb_no_core_dumps succeeds");
  ok (prctl (PR_GET_DUMPABLE, 0, 0, 0, 0) == 0, "after: not dumpable (PR_GET_DUMPABLE 0)");
  ok (getrlimit (RLIMIT_CORE, &lim) == 0 && lim.rlim_cur == 0 && lim.rlim_max == 0,
      "after: RLIMIT_CORE 0, soft and hard (a child cannot raise it)");
}

int
main (void)
{
  test_buf ();
  test_json ();
  test_utf8 ();
  test_utf8_sanitize ();
  test_hex ();
  test_base64 ();
  test_sha_err ();
  test_dir_trusted ();
  test_no_core_dumps ();
  return tap_done ();
}

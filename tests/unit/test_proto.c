/* Engine wire formats: the hijack response head and the 8-byte-header
 * multiplexed stream, fed in every possible split. */
#include "tap.h"

#include "warmbox/engine.h"
#include <string.h>

typedef struct sink
{
  wb_buf_t out, err;
} sink_t;

static void
collect (void *arg, int stream, const char *data, size_t len)
{
  sink_t *s = arg;
  must (wb_buf_append (stream == ENG_STREAM_STDERR ? &s->err : &s->out, data, len));
}

static size_t
frame (unsigned char *dst, int type, const char *data, uint32_t len)
{
  dst[0] = (unsigned char) type;
  dst[1] = dst[2] = dst[3] = 0;
  dst[4] = (unsigned char) (len >> 24);
  dst[5] = (unsigned char) (len >> 16);
  dst[6] = (unsigned char) (len >> 8);
  dst[7] = (unsigned char) len;
  memcpy (dst + 8, data, len);
  return 8 + len;
}

static void
test_hijack (void)
{
  const char ok101[]
      = "HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\n"
        "Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n\x01\0\0\0";
  int status = 0;
  size_t head = 0;
  is_int (eng_hijack_parse_head (ok101, sizeof ok101 - 1, &status, &head), 1, "101 head parses");
  is_int (status, 101, "status 101");
  is_int (head, sizeof ok101 - 1 - 4, "bytes past the head are left as stream data");
  int partial_ok = 1;
  for (size_t cut = 0; cut < sizeof ok101 - 1 - 4; cut++)
    if (eng_hijack_parse_head (ok101, cut, &status, &head) != 0)
      partial_ok = 0;
  ok (partial_ok, "every prefix of the head asks for more bytes");
  const char e404[]
      = "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n\r\n{\"message\":\"x\"}";
  ok (eng_hijack_parse_head (e404, sizeof e404 - 1, &status, &head) == 1 && status == 404,
      "an error status is reported");
  ok (eng_hijack_parse_head ("SSH-2.0-x\r\n\r\n", 13, &status, &head) == -1, "not HTTP");
  ok (eng_hijack_parse_head ("HTTP/1.1 1x1 U\r\n\r\n", 18, &status, &head) == -1,
      "bad status digits");
  ok (eng_hijack_parse_head ("HTTP/1.1 099 U\r\n\r\n", 18, &status, &head) == -1,
      "status below 100");
  static char huge[20000];
  memcpy (huge, "HTTP/1.1 101 U\r\n", 16);
  memset (huge + 16, 'a', sizeof huge - 16);
  ok (eng_hijack_parse_head (huge, sizeof huge, &status, &head) == -1,
      "a head over 16 KiB is refused");
}

static void
test_demux (void)
{
  unsigned char stream[256];
  size_t n = 0;
  n += frame (stream + n, 1, "hello ", 6);
  n += frame (stream + n, 2, "oops\0\xff", 6);
  n += frame (stream + n, 1, "", 0);
  n += frame (stream + n, 1, "world", 5);

  int all_ok = 1;
  for (size_t a = 0; a <= n; a++)
    for (size_t b = a; b <= n; b++)
      {
        eng_demux_t d;
        sink_t s = {WB_BUF_INIT, WB_BUF_INIT};
        eng_demux_init (&d);
        must (eng_demux_feed (&d, (char *) stream, a, collect, &s));
        must (eng_demux_feed (&d, (char *) stream + a, b - a, collect, &s));
        must (eng_demux_feed (&d, (char *) stream + b, n - b, collect, &s));
        if (s.out.len != 11 || memcmp (s.out.data, "hello world", 11) != 0 || s.err.len != 6
            || memcmp (s.err.data, "oops\0\xff", 6) != 0 || !eng_demux_idle (&d))
          all_ok = 0;
        wb_buf_free (&s.out);
        wb_buf_free (&s.err);
      }
  ok (all_ok, "every split into three feeds gives the same streams, byte-exact");

  eng_demux_t d;
  sink_t s = {WB_BUF_INIT, WB_BUF_INIT};
  eng_demux_init (&d);
  unsigned char bad[8] = {3, 0, 0, 0, 0, 0, 0, 1};
  ok (eng_demux_feed (&d, (char *) bad, 8, collect, &s) == -1, "stream type 3 is refused");
  eng_demux_init (&d);
  must (eng_demux_feed (&d, (char *) stream, 10, collect, &s));
  ok (!eng_demux_idle (&d), "stopping inside a frame is not idle");
  wb_buf_free (&s.out);
  wb_buf_free (&s.err);
}

typedef struct file
{
  const char *data;
  size_t size;
} file_t;

static ssize_t
file_read_at (void *arg, void *buf, size_t count, uint64_t offset)
{
  file_t *f = arg;
  if (offset >= f->size)
    return 0;
  if (count > f->size - offset)
    count = f->size - offset;
  memcpy (buf, f->data + offset, count);
  return (ssize_t) count;
}

#define ARCHIVE_ID "sha256:9d99a75171aea000c711b34c0e5e3f28d3d537dd99d110eafbfbc2bd8e52c2bf"

/* eng_archive_check on a file of tests/fuzz/corpus/archive (its images'
 * config is {"architecture":"amd64","os":"linux"}, of ARCHIVE_ID). */
static int
archive (const char *name, const char *tag, wb_err_t *err)
{
  char path[512], buf[4096];
  wb_buf_t data = WB_BUF_INIT;
  FILE *fp;
  file_t f;
  size_t n;
  int rc;

  snprintf (path, sizeof path, "%s/../tests/fuzz/corpus/archive/%s", WB_DEFAULT_PROFILES_DIR, name);
  if ((fp = fopen (path, "rb")) == NULL)
    return -3;
  while ((n = fread (buf, 1, sizeof buf, fp)) > 0)
    must (wb_buf_append (&data, buf, n));
  fclose (fp);
  f.data = data.data;
  f.size = data.len;
  memset (err, 0, sizeof *err);
  rc = eng_archive_check (file_read_at, &f, ARCHIVE_ID, tag, err);
  wb_buf_free (&data);
  return rc;
}

/* Issue 12: an archive one engine sent another is loaded only when it is
 * the one image asked for (its config's digest), tagged at most as asked,
 * in docker save's own layout read the same way by every loader. */
static void
test_archive (void)
{
  static const struct
  {
    const char *file, *says;
  } refused[] = {
      {"moves-another-tag", "warmbox/python"},
      {"two-images", "2 images"},
      {"config-not-the-id", "config is sha256:"},
      {"oci-layout", "index.json"},
      {"manifest-twice", "twice"},
      {"dot-slash-manifest", "./manifest.json"},
      {"pax-header", "of type '"},
      {"case-twin-keys", "twice"},
      {"truncated", "tar"},
      {"repositories-other-tag", "repositories"},
  };
  wb_err_t err;

  is_int (archive ("docker-save-one-image", "warmbox/bash:latest", &err), 0,
          "docker save of one image, its one tag: accepted (%s)", err.msg);
  is_int (archive ("podman-save", "warmbox/bash:latest", &err), 0,
          "Podman's save (localhost/ spelled out): accepted (%s)", err.msg);
  ok (archive ("docker-save-one-image", "warmbox/python:latest", &err) == -1,
      "the right image under another tag: refused");
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    ok (archive (refused[i].file, "warmbox/bash:latest", &err) == -1
            && strstr (err.msg, refused[i].says),
        "%s: refused (%s)", refused[i].file, err.msg);
}

/* warmbox-oci's run events (docs/architecture.md, "The helper's run"). */
static void
test_run_events (void)
{
  static const struct
  {
    const char *line;
    eng_run_event_kind_t kind;
    int code;
    bool oom;
    const char *why;
  } cases[] = {
      {"started", ENG_RUN_STARTED, 0, false, ""},
      {"not-started its init ended", ENG_RUN_NOT_STARTED, 0, false, "its init ended"},
      {"not-started", ENG_RUN_NOT_STARTED, 0, false, ""},
      {"start-failed runsc start failed", ENG_RUN_START_FAILED, 0, false, "runsc start failed"},
      {"exit 0 0", ENG_RUN_EXIT, 0, false, ""},
      {"exit 137 1", ENG_RUN_EXIT, 137, true, ""},
      {"exit 255 0", ENG_RUN_EXIT, 255, false, ""},
      {"exit 256 0", ENG_RUN_BAD, 0, false, ""},
      {"exit -1 0", ENG_RUN_BAD, 0, false, ""},
      {"exit 1 2", ENG_RUN_BAD, 0, false, ""},
      {"exit 1 0 ", ENG_RUN_BAD, 0, false, ""},
      {"exit 1", ENG_RUN_BAD, 0, false, ""},
      {"exit  1 0", ENG_RUN_BAD, 0, false, ""},
      {"exit 0001 0", ENG_RUN_BAD, 0, false, ""},
      {"started ", ENG_RUN_OTHER, 0, false, ""},
      {"not-startedx", ENG_RUN_OTHER, 0, false, ""},
      {"usage 1 2", ENG_RUN_OTHER, 0, false, ""},
      {"", ENG_RUN_OTHER, 0, false, ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      eng_run_event_t ev;
      eng_run_event_kind_t k = eng_run_event_parse (cases[i].line, &ev);
      ok (k == cases[i].kind && ev.kind == k && ev.exit_code == cases[i].code
              && ev.oom == cases[i].oom && strcmp (ev.why, cases[i].why) == 0,
          "run event \"%s\": kind %d, exit %d, oom %d, why \"%s\"", cases[i].line, (int) k,
          ev.exit_code, ev.oom, ev.why);
    }
}

int
main (void)
{
  test_hijack ();
  test_demux ();
  test_run_events ();
  test_archive ();
  return tap_done ();
}

/* Fuzz the image archive checks: input is a tar (what an engine sent as
 * docker save): eng_tar_member and eng_archive_check on it, and the
 * manifest check on its manifest.json and on the input itself. */
#include "warmbox/engine.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef struct mem
{
  const uint8_t *data;
  size_t size;
} mem_t;

static ssize_t
mem_read_at (void *arg, void *buf, size_t count, uint64_t offset)
{
  mem_t *m = arg;

  if (offset >= m->size)
    return 0;
  if (count > m->size - offset)
    count = (size_t) (m->size - offset);
  memcpy (buf, m->data + offset, count);
  return (ssize_t) count;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char id[]
      = "sha256:9d99a75171aea000c711b34c0e5e3f28d3d537dd99d110eafbfbc2bd8e52c2bf";
  mem_t m = {data, size};
  char out[4096];
  size_t len = 0;
  wb_err_t err;
  int r = eng_tar_member (mem_read_at, &m, "manifest.json", out, sizeof out, &len);

  if (r == 1)
    {
      if (len > sizeof out)
        abort ();
      if (eng_archive_manifest_check (out, len, id, "warmbox/bash:latest", &err) < 0
          && err.msg[0] == '\0')
        abort (); /* a refusal says why */
    }
  if (eng_archive_manifest_check ((const char *) data, size, id, "warmbox/bash:latest", &err) < 0
      && err.msg[0] == '\0')
    abort ();
  m = (mem_t){data, size};
  if (eng_archive_check (mem_read_at, &m, id, "warmbox/bash:latest", &err) < 0
      && err.msg[0] == '\0')
    abort (); /* a refusal says why */
  return 0;
}

/* Fuzz the stdin frame parser, and check build -> parse round trips
 * (the program's name, code, args, files, stdin). */
#include "api/request.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static sched_frame_t fr;
  char *args[4];
  char storage[4][16];
  wb_buf_t f = WB_BUF_INIT;
  size_t cut = size ? data[0] % (size + 1) : 0, n_args = size > 1 ? data[1] % 5 : 0;
  int r = sched_frame_parse ((const char *) data, size, &fr);

  if (r == 1)
    {
      if (fr.code_off > size || fr.code_len > size - fr.code_off || fr.stdin_off > size)
        abort ();
      for (size_t k = 0; k < fr.n_args; k++)
        if (fr.arg_off[k] > size || fr.arg_len[k] > size - fr.arg_off[k])
          abort ();
    }
  for (size_t k = 0; k < n_args; k++)
    {
      size_t l = k + 2 < size ? data[k + 2] % 16 : 0;
      memset (storage[k], 'a' + (int) k, l);
      storage[k][l] = '\0';
      args[k] = storage[k];
    }
  /* Up to two files, named after the args, holding the last bytes. */
  sched_file_t files[2];
  size_t n_files = size > 2 ? data[2] % 3 : 0;
  for (size_t k = 0; k < n_files; k++)
    {
      files[k].name = (char *) (k ? "b.csv" : "a");
      files[k].data = (char *) data + cut;
      files[k].len = (size - cut) / (k + 1);
    }
  if (r == 1)
    for (size_t k = 0; k < fr.n_files; k++)
      if (fr.name_off[k] > size || fr.name_len[k] > size - fr.name_off[k] || fr.file_off[k] > size
          || fr.file_len[k] > size - fr.file_off[k])
        abort ();
  /* A program name one time in three. */
  const char *name = size > 3 && data[3] % 3 == 0 ? "my_cool_code.js" : NULL;
  if (r == 1
      && (fr.code_name_off > size || fr.code_name_len > size - fr.code_name_off
          || fr.code_name_len > 255
          || (fr.code_name_len && fr.code_name_off + fr.code_name_len > fr.code_off)))
    abort ();
  if (sched_frame_build (name, (const char *) data, cut, args, n_args, files, n_files,
                         (const char *) data + cut, size - cut, &f)
          < 0
      || sched_frame_parse (f.data, f.len, &fr) != 1 || fr.code_len != cut || fr.n_args != n_args
      || fr.n_files != n_files || fr.code_name_len != (name ? strlen (name) : 0)
      || (name && memcmp (f.data + fr.code_name_off, name, fr.code_name_len) != 0)
      || memcmp (f.data + fr.code_off, data, cut) != 0 || f.len - fr.stdin_off != size - cut
      || memcmp (f.data + fr.stdin_off, data + cut, size - cut) != 0)
    abort ();
  for (size_t k = 0; k < n_args; k++)
    if (fr.arg_len[k] != strlen (args[k])
        || memcmp (f.data + fr.arg_off[k], args[k], fr.arg_len[k]) != 0)
      abort ();
  for (size_t k = 0; k < n_files; k++)
    if (fr.name_len[k] != strlen (files[k].name)
        || memcmp (f.data + fr.name_off[k], files[k].name, fr.name_len[k])
        || fr.file_len[k] != files[k].len
        || memcmp (f.data + fr.file_off[k], files[k].data, files[k].len))
      abort ();
  wb_buf_free (&f);
  return 0;
}

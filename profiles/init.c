/* profiles/init.c: /warmbox/init, the first program of every sandbox's
 * argv and the sandbox's PID 1 (no docker-init above it), built static
 * into each image by build-image.sh.
 *
 * As PID 1 of the sandbox's pid namespace it is out of the program's
 * reach: the kernel drops every signal a process of the namespace sends
 * it unless it handles that signal, and it handles none but SIGALRM,
 * which counts only once the program's deadline has passed by the clock
 * (on_alarm).  So kill(-1,
 * SIGKILL), kill(1, SIGSTOP) and the like leave it reporting the
 * program's own end.  It reaps every orphan of the namespace, as
 * docker-init did.
 *
 *   /warmbox/init BOOTSTRAP ARGV...
 *   /warmbox/init --source NAME [--java] [--compile N WORD...] -- PROGRAM ARGV...
 *
 * In the second form there is no bootstrap: the init reads the frame
 * itself (read_frame: the code into NAME, or into the file name the frame
 * gives the program, which then also replaces the word NAME in both
 * commands; the given files beside it; the arguments after PROGRAM ARGV),
 * and with --compile runs the N-word compiler first, within the limits its
 * first line carries ("... <compile timeout ms> <compile output bytes>
 * <run timeout ms>"): the program runs only when the compiler exited 0,
 * and is then held to its own timeout.  With --java the file is named
 * after the code's public class and the class to run is found in the code
 * (java_scan.h; read_frame's comment says how).  The trailer then has a
 * "compile" section before "files", and "timeout" before "usage" when the
 * init stopped the program (profiles/README.md).
 *
 * It reads one line from stdin,
 *
 *   "w1 <nonce> <files max> <files bytes> <inputs>[ s<state max>]\n"
 *
 * (the nonce is the daemon's, 32 hex digits, fresh for each execution; the
 * numbers bound the files returned and count the input files, and may be
 * absent: no files then; " s<state max>", last, marks an execution of a
 * session, whose trailer then has a "session" section: write_session),
 * then one line per input file, "<sha256 hex>
 * <name>\n" (the files the bootstrap will write from the frame), runs the
 * bootstrap as its child with the rest of stdin, reaps everything
 * the program leaves behind (it is a subreaper; once the bootstrap has
 * exited, what is left is killed), and appends to stderr, after the
 * program's last byte, a trailer:
 *
 *   "\x1ewarmbox-trailer <nonce>\n"
 *   "files <listed> <omitted>\n"
 *   "file <name length> <size> <content length> <sha256 hex>\n" <name> <content>
 *                                               (once per listed file)
 *   "session ..."  (a session's execution only: write_session)
 *   "usage <peak RSS KiB> <user us> <system us>\n"
 *   "end <nonce>\n"
 *
 * The end line makes a trailer that lost bytes on the way (a failed write
 * stops all further writes) unreadable rather than a shorter one.
 *
 * Files: the regular files under the working directory that the program
 * made or changed (an input file whose content is still what was sent is
 * left out), sorted by path; not symbolic links, not devices or FIFOs, not
 * dot-files or what is under dot-folders (caches).  The first <files max>
 * are listed with their size and SHA-256, with their content while it fits
 * in <files bytes> altogether (content length 0 otherwise, for a non-empty
 * file); the rest are counted as omitted, and so are files that can't be
 * read, whose names are not plain UTF-8 or whose paths pass 1023 bytes, and
 * files past 512 MiB of hashing altogether (sparse files cost nothing to
 * make).  The walk stops at 16 levels and 100,000 entries (the count is
 * then a lower bound); it keeps only the smallest paths, so its memory is
 * bounded.  It collects files only once nothing of the program runs: as a
 * subreaper, when wait4 finds no child left; where the kernel refuses that
 * (gVisor), when kill(-1) finds no process left (PID 1 reaps the orphans),
 * within 2 s, else no files.  The walk and hashing happen within the execution's deadline.
 *
 * Usage is measured by the kernel (wait4's rusage: the peak is the largest
 * single process's, the times are summed over every process reaped).  Then
 * it exits as the bootstrap did (128 + the signal when one killed it).
 *
 * The program cannot forge the trailer: the nonce was read before the
 * bootstrap started, exec left no copy of it in the program's memory, and
 * this process is not dumpable, so a program of the same uid cannot read
 * it from /proc.  If the sandbox is killed (timeout, output limit), no
 * trailer is written and the daemon reports no figures and no files; a
 * program the kernel killed for memory is reaped like any other, and
 * reported.
 *
 * The figures are a lower bound the program can lower, not forge upward:
 * the kernel adds a child's times and peak to its parent's only when the
 * parent waits for it, so children reaped unwaited (SIGCHLD ignored) are
 * not counted, and the peak is the largest single process's.
 *
 * Exit 125 (as the bootstraps) when the first line is not there.  Uses
 * only system calls every profile's allowlist already has (read, write,
 * prctl, getpid, rt_sigaction, clone, setpgid, execve, wait4, kill, fcntl, openat, getdents64,
 * newfstatat, fstat, close, brk, mmap, nanosleep, exit_group). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "java_scan.h"

#define NONCE_LEN 32
#define WALK_MAX_ENTRIES 100000 /* directory entries looked at, at most */
#define WALK_MAX_DEPTH 16
#define PATH_MAX_LEN 1024
#define INPUTS_MAX 64
#define INPUT_NAME_MAX 255
#define SESSION_STATE_MAX (1ull << 30) /* past any state the daemon keeps */
#define SESSION_NOTES_MAX 4096
#define SESSION_DISPLAY_MAX (8 * 1024 * 1024 + 4096) /* exec/request.h's SCHED_DISPLAY_MAX */

typedef struct
{
  char sha256[65];
  char name[INPUT_NAME_MAX + 1];
} input_t;

typedef struct
{
  unsigned long long timeout_ms;   /* 0: no compile stage */
  unsigned long long output_bytes; /* per stream, kept; the rest is read and dropped */
  unsigned long long run_timeout_ms;
} stage_limits_t;

static input_t inputs[INPUTS_MAX + 1]; /* the files, and a source file (--source) */
static size_t n_inputs;

static bool
write_all (int fd, const void *buf, size_t n)
{
  const char *p = buf;

  while (n > 0)
    {
      ssize_t w = write (fd, p, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return false;
      p += w;
      n -= (size_t) w;
    }
  return true;
}

static int
fail (const char *msg)
{
  write_all (2, "warmbox: ", 9);
  write_all (2, msg, strlen (msg));
  write_all (2, "\n", 1);
  return 125;
}

/* ---- SHA-256 (FIPS 180-4) -------------------------------------------- */

typedef struct
{
  uint32_t h[8];
  uint64_t len;
  unsigned char buf[64];
  size_t n;
} sha256_t;

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
sha256_block (sha256_t *c, const unsigned char *p)
{
  uint32_t w[64], a, b, d, e, f, g, h, cc, t1, t2;

  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16 | (uint32_t) p[4 * i + 2] << 8
           | p[4 * i + 3];
  for (int i = 16; i < 64; i++)
    w[i] = (ROR (w[i - 2], 17) ^ ROR (w[i - 2], 19) ^ (w[i - 2] >> 10)) + w[i - 7]
           + (ROR (w[i - 15], 7) ^ ROR (w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
  a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4], f = c->h[5], g = c->h[6],
  h = c->h[7];
  for (int i = 0; i < 64; i++)
    {
      t1 = h + (ROR (e, 6) ^ ROR (e, 11) ^ ROR (e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      t2 = (ROR (a, 2) ^ ROR (a, 13) ^ ROR (a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
      h = g, g = f, f = e, e = d + t1, d = cc, cc = b, b = a, a = t1 + t2;
    }
  c->h[0] += a, c->h[1] += b, c->h[2] += cc, c->h[3] += d;
  c->h[4] += e, c->h[5] += f, c->h[6] += g, c->h[7] += h;
}

static void
sha256_init (sha256_t *c)
{
  static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy (c->h, h0, sizeof h0);
  c->len = 0;
  c->n = 0;
}

static void
sha256_update (sha256_t *c, const void *data, size_t n)
{
  const unsigned char *p = data;

  c->len += n;
  while (n > 0)
    {
      size_t take = 64 - c->n < n ? 64 - c->n : n;
      memcpy (c->buf + c->n, p, take);
      c->n += take, p += take, n -= take;
      if (c->n == 64)
        {
          sha256_block (c, c->buf);
          c->n = 0;
        }
    }
}

static void
sha256_hex (sha256_t *c, char out[65])
{
  static const char hex[] = "0123456789abcdef";
  uint64_t bits = c->len * 8;
  unsigned char pad = 0x80, zero = 0, len[8];

  sha256_update (c, &pad, 1);
  while (c->n != 56)
    sha256_update (c, &zero, 1);
  for (int i = 0; i < 8; i++)
    len[i] = (unsigned char) (bits >> (56 - 8 * i));
  sha256_update (c, len, 8);
  for (int i = 0; i < 32; i++)
    {
      unsigned char byte = (unsigned char) (c->h[i / 4] >> (24 - 8 * (i % 4)));
      out[2 * i] = hex[byte >> 4];
      out[2 * i + 1] = hex[byte & 15];
    }
  out[64] = '\0';
}

/* ---- the first line ---------------------------------------------------- */

static bool
parse_number (const char **p, const char *end, unsigned long long *out)
{
  unsigned long long v = 0;
  const char *q = *p;

  if (q == end || *q < '0' || *q > '9')
    return false;
  while (q < end && *q >= '0' && *q <= '9' && v < 1ull << 40)
    v = v * 10 + (unsigned long long) (*q++ - '0');
  *out = v;
  *p = q;
  return true;
}

/* One line into line (size bytes at most, with its newline), a byte at a
 * time: not one byte past it.  Its length, or 0. */
static size_t
read_line (char *line, size_t size)
{
  size_t n = 0;

  while (n < size)
    {
      ssize_t r = read (0, line + n, 1);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return 0;
      n++;
      if (line[n - 1] == '\n')
        return n;
    }
  return 0;
}

static bool
is_hex (const char *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
      return false;
  return true;
}

/* A session's execution (the first line's " s<state max>"): its state's
 * bound in bytes; 0: not a session. */
static unsigned long long session_state_max;
/* " m" on the first line: write the run mark before the program starts,
 * whatever the profile (a compiled one's comes after its compile). */
static bool run_mark_asked;

/* " m", if it comes next. */
static bool
parse_mark (const char **p, const char *end)
{
  const char *q = *p;
  if (end - q < 2 || q[0] != ' ' || q[1] != 'm' || (end - q > 2 && q[2] != ' '))
    return false;
  *p = q + 2;
  run_mark_asked = true;
  return true;
}

/* " s<number>" at *p, the line's last field: the session's state bound. */
static bool
parse_session (const char **p, const char *end)
{
  const char *q = *p;
  if (end - q < 3 || q[0] != ' ' || q[1] != 's')
    return false;
  q += 2;
  if (!parse_number (&q, end, &session_state_max) || q != end || session_state_max == 0)
    return false;
  *p = q;
  return true;
}

/* "w1 <nonce>[ <files max> <files bytes> <inputs>[ <compile limits>][ m][ s<state max>]]\n",
 * then the inputs' lines. */
static int
read_first_lines (char nonce[NONCE_LEN + 1], unsigned long long *files_max,
                  unsigned long long *files_bytes, stage_limits_t *stages)
{
  /* Room for every field at its widest: six numbers of up to 20 digits
   * (files, compile limits), " m", " s" and a seventh, each with its
   * space (171 bytes). */
  char line[3 + NONCE_LEN + 192];
  size_t n = read_line (line, sizeof line);
  unsigned long long inputs_n = 0;
  const char *p, *end;

  if (n < 3 + NONCE_LEN + 1 || memcmp (line, "w1 ", 3) != 0)
    return -1;
  if (!is_hex (line + 3, NONCE_LEN))
    return -1;
  memcpy (nonce, line + 3, NONCE_LEN);
  nonce[NONCE_LEN] = '\0';
  p = line + 3 + NONCE_LEN;
  end = line + n - 1;
  *files_max = *files_bytes = 0;
  if (p != end
      && !(*p++ == ' ' && parse_number (&p, end, files_max) && p < end && *p++ == ' '
           && parse_number (&p, end, files_bytes) && p < end && *p++ == ' '
           && parse_number (&p, end, &inputs_n) && inputs_n <= INPUTS_MAX + 1))
    return -1;
  /* The stages' limits, for a profile with a compile stage. */
  memset (stages, 0, sizeof *stages);
  session_state_max = 0;
  run_mark_asked = false;
  if (p != end && !parse_mark (&p, end) && !parse_session (&p, end)
      && !(*p++ == ' ' && parse_number (&p, end, &stages->timeout_ms) && p < end && *p++ == ' '
           && parse_number (&p, end, &stages->output_bytes) && p < end && *p++ == ' '
           && parse_number (&p, end, &stages->run_timeout_ms)))
    return -1;
  if (p != end && !run_mark_asked)
    (void) parse_mark (&p, end);
  if (p != end && !parse_session (&p, end))
    return -1;
  if (session_state_max > SESSION_STATE_MAX)
    session_state_max = SESSION_STATE_MAX;
  /* What the daemon sends is far below these; a line past them is not
   * trusted with the init's memory or its arithmetic. */
  if (stages->output_bytes > 16ull * 1024 * 1024)
    stages->output_bytes = 16ull * 1024 * 1024;
  if (stages->timeout_ms > 86400000ull)
    stages->timeout_ms = 86400000ull;
  if (stages->run_timeout_ms > 86400000ull)
    stages->run_timeout_ms = 86400000ull;
  explicit_bzero (line, sizeof line);
  for (n_inputs = 0; n_inputs < inputs_n; n_inputs++)
    {
      char in[64 + 1 + INPUT_NAME_MAX + 1];
      size_t len = read_line (in, sizeof in);
      if (len < 64 + 1 + 1 + 1 || !is_hex (in, 64) || in[64] != ' ')
        return -1;
      memcpy (inputs[n_inputs].sha256, in, 64);
      inputs[n_inputs].sha256[64] = '\0';
      memcpy (inputs[n_inputs].name, in + 65, len - 66);
      inputs[n_inputs].name[len - 66] = '\0';
    }
  return 0;
}

/* ---- files out --------------------------------------------------------- */

/* Hashing reads every byte of every listed file: sparse files make that
 * free to ask for, so it is bounded (the tmpfs itself holds far less). */
#define HASH_BUDGET (512ull * 1024 * 1024)
#define INPUT_MAX_BYTES (16ull * 1024 * 1024) /* the daemon's cap on input files */

#define KEEP_MAX 128 /* candidate paths kept, the smallest */

typedef struct
{
  char *keep[KEEP_MAX]; /* the smallest paths seen, sorted */
  size_t n_keep, keep_max;
  size_t seen;    /* regular files seen that could be listed */
  size_t omitted; /* files seen and not listable (bad name, too deep a path) */
  size_t entries; /* looked at, against WALK_MAX_ENTRIES */
} walk_t;

static unsigned long long hash_left = HASH_BUDGET;

/* A name fit for the result: UTF-8 as the daemon checks it (no overlong
 * forms, no surrogates, nothing past U+10FFFF), no control characters. */
static bool
plain_utf8 (const unsigned char *s)
{
  while (*s)
    {
      unsigned char c = *s;
      uint32_t cp;
      int need;

      if (c < 0x80)
        {
          if (c < 0x20 || c == 0x7f)
            return false;
          s++;
          continue;
        }
      if (c >= 0xc2 && c <= 0xdf)
        need = 1, cp = c & 0x1f;
      else if (c >= 0xe0 && c <= 0xef)
        need = 2, cp = c & 0x0f;
      else if (c >= 0xf0 && c <= 0xf4)
        need = 3, cp = c & 0x07;
      else
        return false;
      for (int k = 1; k <= need; k++)
        {
          if ((s[k] & 0xc0) != 0x80)
            return false;
          cp = (cp << 6) | (s[k] & 0x3f);
        }
      if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff))
          || (cp >= 0xd800 && cp <= 0xdfff))
        return false;
      s += need + 1;
    }
  return true;
}

/* The SHA-256 of an open file, read to its end; false on a read error or
 * when it would pass what is left of the hashing budget. */
static bool
hash_fd (int fd, unsigned long long size, char hex[65])
{
  unsigned char chunk[65536];
  sha256_t sha;

  if (size > hash_left)
    return false;
  sha256_init (&sha);
  for (;;)
    {
      ssize_t r = read (fd, chunk, sizeof chunk);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        return false;
      if (r == 0)
        break;
      if ((unsigned long long) r > hash_left)
        return false;
      hash_left -= (unsigned long long) r;
      sha256_update (&sha, chunk, (size_t) r);
    }
  sha256_hex (&sha, hex);
  return true;
}

/* Is name (in the working directory, at dfd, of size bytes) an input
 * file, unchanged? */
static bool
unchanged_input (int dfd, const char *name, unsigned long long size)
{
  for (size_t i = 0; i < n_inputs; i++)
    if (strcmp (inputs[i].name, name) == 0)
      {
        int fd;
        char hex[65];
        bool same;
        if (size > INPUT_MAX_BYTES) /* grown past what any input can be */
          return false;
        fd = openat (dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        same = fd >= 0 && hash_fd (fd, size, hex) && strcmp (hex, inputs[i].sha256) == 0;
        if (fd >= 0)
          close (fd);
        return same;
      }
  return false;
}

/* Keep path if it is among the keep_max smallest seen so far (memory stays
 * bounded however many files there are). */
static void
keep_path (walk_t *w, const char *path)
{
  size_t at;

  w->seen++;
  if (w->n_keep == w->keep_max && strcmp (path, w->keep[w->n_keep - 1]) >= 0)
    return;
  for (at = w->n_keep; at > 0 && strcmp (w->keep[at - 1], path) > 0; at--)
    ;
  char *copy = strdup (path);
  if (copy == NULL)
    return;
  if (w->n_keep == w->keep_max)
    free (w->keep[--w->n_keep]);
  memmove (w->keep + at + 1, w->keep + at, (w->n_keep - at) * sizeof *w->keep);
  w->keep[at] = copy;
  w->n_keep++;
}

static void
walk (walk_t *w, int dfd, const char *prefix, int depth)
{
  DIR *d = fdopendir (dfd);
  struct dirent *e;

  if (d == NULL)
    {
      close (dfd);
      return;
    }
  while ((e = readdir (d)) != NULL && w->entries < WALK_MAX_ENTRIES)
    {
      char path[PATH_MAX_LEN];
      struct stat st;

      w->entries++;
      if (e->d_name[0] == '.') /* ".", "..", and dot-files: caches */
        continue;
      if (fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        continue;
      bool fits = snprintf (path, sizeof path, "%s%s", prefix, e->d_name) < (int) sizeof path - 1;
      if (S_ISDIR (st.st_mode) && depth < WALK_MAX_DEPTH && fits)
        {
          int sub = openat (dirfd (d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (sub >= 0)
            {
              strcat (path, "/");
              walk (w, sub, path, depth + 1);
            }
          continue;
        }
      /* Symbolic links, devices, FIFOs and sockets are never read. */
      if (!S_ISREG (st.st_mode))
        continue;
      if (!fits || !plain_utf8 ((const unsigned char *) path))
        {
          w->omitted++;
          continue;
        }
      if (depth == 0 && unchanged_input (dirfd (d), e->d_name, (unsigned long long) st.st_size))
        continue;
      keep_path (w, path);
    }
  closedir (d);
}

/* Write all of buf to stderr; once a write failed nothing more is written
 * (a trailer with a hole in it must not be read as a shorter one; the
 * daemon drops a trailer without its end line). */
static bool stderr_broken;

static void
put (const void *buf, size_t n)
{
  if (!stderr_broken)
    stderr_broken = !write_all (2, buf, n);
}

/* One listed file's record, content included when it fits in *budget.
 * False when it can't be read or hashed after all (it is then counted
 * omitted, and nothing was written). */
static bool
write_file_record (const char *path, unsigned long long *budget)
{
  int fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  char head[200], hex[65];
  unsigned char chunk[65536];
  char *content = NULL;
  unsigned long long size = 0;
  sha256_t sha;
  bool with_content;

  if (fd < 0)
    return false;
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || (unsigned long long) st.st_size > hash_left)
    {
      close (fd);
      return false;
    }
  with_content = (unsigned long long) st.st_size <= *budget
                 && (content = malloc (st.st_size ? (size_t) st.st_size : 1)) != NULL;
  sha256_init (&sha);
  for (;;)
    {
      ssize_t r = read (fd, chunk, sizeof chunk);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0 || (unsigned long long) r > hash_left)
        {
          free (content);
          close (fd);
          return false;
        }
      if (r == 0)
        break;
      hash_left -= (unsigned long long) r;
      sha256_update (&sha, chunk, (size_t) r);
      if (with_content && size + (unsigned long long) r <= (unsigned long long) st.st_size)
        memcpy (content + size, chunk, (size_t) r);
      size += (unsigned long long) r;
    }
  close (fd);
  sha256_hex (&sha, hex);
  /* Nothing of the program runs any more; a size that changed anyway means
   * no content, never a wrong one. */
  if (size != (unsigned long long) st.st_size)
    with_content = false;
  snprintf (head, sizeof head, "file %zu %llu %llu %s\n", strlen (path), size,
            with_content ? size : 0, hex);
  put (head, strlen (head));
  put (path, strlen (path));
  if (with_content)
    {
      put (content, (size_t) size);
      *budget -= size;
    }
  free (content);
  return true;
}

/* The files section of the trailer.  Records are built before the count
 * is known, so they go to a second pass: readable ones first make up the
 * count, a file that can't be read or hashed is omitted and the next
 * takes its place. */
static void
write_files (unsigned long long files_max, unsigned long long files_bytes, bool collect)
{
  walk_t w = {.keep_max = files_max < KEEP_MAX / 2 ? (size_t) files_max * 2 : KEEP_MAX};
  int dfd = collect && files_max > 0 ? open (".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  size_t listed = 0, omitted;
  const char *ok[KEEP_MAX];
  char line[96];

  if (dfd >= 0)
    walk (&w, dfd, "", 0);
  /* Decide which can be listed: open, regular, within the hash budget
   * (the records' own hashing spends it; this only looks). */
  unsigned long long left = hash_left;
  for (size_t i = 0; i < w.n_keep && listed < files_max; i++)
    {
      struct stat st;
      int fd = open (w.keep[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (fd >= 0 && fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
          && (unsigned long long) st.st_size <= left)
        {
          left -= (unsigned long long) st.st_size;
          ok[listed++] = w.keep[i];
        }
      if (fd >= 0)
        close (fd);
    }
  omitted = w.omitted + (w.seen - listed);
  snprintf (line, sizeof line, "files %zu %zu\n", listed, omitted);
  put (line, strlen (line));
  for (size_t i = 0; i < listed; i++)
    if (!write_file_record (ok[i], &files_bytes))
      {
        /* Unreadable between the look and now: an empty record keeps the
         * count (the hash of nothing; the daemon lists it with size 0). */
        char head[200];
        snprintf (head, sizeof head,
                  "file %zu 0 0 "
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n",
                  strlen (ok[i]));
        put (head, strlen (head));
        put (ok[i], strlen (ok[i]));
      }
  for (size_t i = 0; i < w.n_keep; i++)
    free (w.keep[i]);
}

static bool read_exact (int fd, void *buf, size_t n);

/* A regular file name of the working directory (at dfd), whole, when its
 * size is at most max: 1 with *data (malloc'd) and *len; 0 when there is
 * none (or it is not a regular file); -1 when it is bigger (*len its
 * size) or can't be read. */
static int
read_small_file (int dfd, const char *name, unsigned long long max, char **data,
                 unsigned long long *len)
{
  int fd = openat (dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  int rc = -1;

  *data = NULL;
  *len = 0;
  if (fd < 0)
    return errno == ENOENT || errno == ELOOP ? 0 : -1;
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      return 0;
    }
  *len = (unsigned long long) st.st_size;
  if (*len <= max && (*data = malloc (*len ? (size_t) *len : 1)) != NULL
      && read_exact (fd, *data, (size_t) *len))
    rc = 1;
  else
    {
      free (*data);
      *data = NULL;
    }
  close (fd);
  return rc;
}

/* The session section of the trailer (a session's execution only):
 *
 *   "session <gone> <has state: 0, 1, 2> <state size> <state length> <notes length>"
 *   " <display length>\n"
 *   "gone <name length>\n<name>"            (once per input file no longer there)
 *   <state> <notes> <display>
 *
 * The state is the working directory's .warmbox-state as the program's
 * bootstrap left it (has state 0: none), whole while it is at most the
 * first line's bound, else length 0 with its size; the notes are
 * .warmbox-notes (what the bootstrap could not carry, at most 4 KiB); the
 * display is .warmbox-display, a notebook cell's records (the figures, the
 * last expression's value, the error: JSON lines), whole up to 8 MiB, else
 * none.
 * Both are the sandbox's words: the daemon keeps the state as opaque
 * bytes and shows the notes to the client as warnings.  Collected only
 * once nothing of the program runs (collect); otherwise has state is 2. */
static void
write_session (bool collect)
{
  int dfd = collect ? open (".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  char *state = NULL, *notes = NULL, *display = NULL, line[200];
  unsigned long long state_size = 0, notes_len = 0, display_len = 0;
  int has_state = 0;
  size_t gone = 0;
  bool is_gone[INPUTS_MAX + 1] = {false};

  bool dfd_opened = dfd >= 0;
  if (dfd >= 0)
    {
      struct stat st;
      has_state = read_small_file (dfd, ".warmbox-state", session_state_max, &state, &state_size);
      if (read_small_file (dfd, ".warmbox-notes", SESSION_NOTES_MAX, &notes, &notes_len) != 1)
        notes_len = 0;
      /* Only a notebook call's (its .warmbox-notebook among the inputs). */
      bool notebook = false;
      for (size_t i = 0; i < n_inputs; i++)
        notebook = notebook || strcmp (inputs[i].name, ".warmbox-notebook") == 0;
      if (!notebook
          || read_small_file (dfd, ".warmbox-display", SESSION_DISPLAY_MAX, &display, &display_len)
                 != 1)
        display_len = 0;
      for (size_t i = 0; i < n_inputs; i++)
        if (fstatat (dfd, inputs[i].name, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
          {
            is_gone[i] = true;
            gone++;
          }
      close (dfd);
    }
  /* has state: 0 the bootstrap left none, 1 here it is (or its size, past
   * the bound), 2 not collected (something of the program may still have
   * been writing): the daemon keeps the session's last state for 0 and 2. */
  snprintf (line, sizeof line, "session %zu %d %llu %llu %llu %llu\n", gone,
            dfd_opened ? has_state != 0 : 2, state_size, has_state == 1 ? state_size : 0, notes_len,
            display_len);
  put (line, strlen (line));
  for (size_t i = 0; i < n_inputs; i++)
    if (is_gone[i])
      {
        snprintf (line, sizeof line, "gone %zu\n", strlen (inputs[i].name));
        put (line, strlen (line));
        put (inputs[i].name, strlen (inputs[i].name));
      }
  if (has_state == 1)
    put (state, (size_t) state_size);
  if (notes_len)
    put (notes, (size_t) notes_len);
  if (display_len)
    put (display, (size_t) display_len);
  free (state);
  free (notes);
  free (display);
}

/* ---- the frame and the compile stage (--source) ----------------------- */

/* With --source the init reads the input frame itself (profiles whose
 * program is not an interpreter with a bootstrap of its own: compiled
 * languages, the shell):
 *
 *   "[n<name length> ]<code length>[ <arg length>...][ f<name length>:<size>...]\n"
 *   [<name>] <code> <args...> (<name> <content>)... <stdin...>
 *
 * The code goes to the source file, the files beside it, both with
 * O_CREAT|O_EXCL|O_NOFOLLOW in the working directory; the arguments are
 * appended to the program's argv; the rest of stdin is the program's,
 * never read here (one byte at a time up to the header's end, exact
 * lengths after).
 *
 * The source file is NAME, or the name the frame gives the program (the
 * client's own file name, checked by the daemon); then every word of the
 * compiler's and of the program's command that is NAME becomes that name,
 * so the compiler's messages, __FILE__ and $0 say what the client sent.
 *
 * With --java the file is named as javac wants (java_scan.h): after the
 * code's public top-level class, else the class with the main method, and
 * the .java files given with it are compiled with it; the program's
 * command word that is NAME without ".java" (the class to run) becomes the
 * binary name of the class with the main method, in the code or else in
 * the first given .java file that has one.  When none has one, or a given
 * file already has the code's file name, the compile stage fails with a
 * sentence saying so (source_plan_t). */
#define FRAME_HEADER_MAX 8192
#define FRAME_CODE_MAX (64ull * 1024 * 1024)
#define FRAME_ARGS_MAX 256
#define FRAME_ARGS_BYTES (64ull * 1024) /* all the arguments together, as the daemon's cap */
#define FRAME_FILES_MAX INPUTS_MAX

/* What read_frame found out for the compile stage (--java). */
typedef struct
{
  const char *refusal; /* the stage fails with this sentence, nothing compiled */
  const char *no_main; /* a compile that succeeds fails with this sentence */
} source_plan_t;

static bool
read_exact (int fd, void *buf, size_t n)
{
  char *p = buf;

  while (n > 0)
    {
      ssize_t r = read (fd, p, n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return false;
      p += r;
      n -= (size_t) r;
    }
  return true;
}

static bool
plain_name (const char *name, size_t len)
{
  if (len == 0 || len > INPUT_NAME_MAX || (len == 1 && name[0] == '.')
      || (len == 2 && name[0] == '.' && name[1] == '.'))
    return false;
  for (size_t i = 0; i < len; i++)
    if (name[i] == '/' || name[i] == '\0')
      return false;
  return true;
}

/* Copy size bytes of stdin into a new file name (mode 0644); its SHA-256
 * into hex when hex is not NULL. */
static bool
write_new_file (const char *name, unsigned long long size, char hex[65])
{
  int fd = open (name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  unsigned char chunk[65536];
  sha256_t sha;
  bool ok = fd >= 0;

  sha256_init (&sha);
  while (size > 0)
    {
      size_t take = size < sizeof chunk ? (size_t) size : sizeof chunk;
      if (!read_exact (0, chunk, take))
        {
          ok = false;
          break;
        }
      sha256_update (&sha, chunk, take);
      if (ok && !write_all (fd, chunk, take))
        ok = false; /* keep reading: the rest of stdin is the program's */
      size -= take;
    }
  if (fd >= 0 && close (fd) < 0)
    ok = false;
  if (hex)
    sha256_hex (&sha, hex);
  explicit_bzero (chunk, sizeof chunk);
  return ok;
}

/* Every word of argv (n words at most, up to a NULL) that is from becomes
 * to. */
static void
replace_words (char **argv, size_t n, const char *from, char *to)
{
  for (size_t i = 0; i < n && argv[i]; i++)
    if (strcmp (argv[i], from) == 0)
      argv[i] = to;
}

static bool
ends_with (const char *s, const char *suffix)
{
  size_t n = strlen (s), k = strlen (suffix);

  return n >= k && strcmp (s + n - k, suffix) == 0;
}

/* The class to run from the Java unit u: "package.Class" into fqn. */
static bool
java_main_name (const java_unit_t *u, char *fqn, size_t size)
{
  if (u->main_type[0] == '\0')
    return false;
  return (size_t) snprintf (fqn, size, "%s%s%s", u->package, u->package[0] ? "." : "", u->main_type)
         < size;
}

/* Scan a given file (name, in the working directory) for a main class. */
static bool
java_main_in_file (const char *name, char *fqn, size_t size)
{
  int fd = open (name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  char *text = NULL;
  bool found = false;
  java_unit_t u;

  if (fd < 0)
    return false;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
      && (unsigned long long) st.st_size <= INPUT_MAX_BYTES
      && (text = malloc (st.st_size ? (size_t) st.st_size : 1)) != NULL
      && read_exact (fd, text, (size_t) st.st_size))
    {
      java_scan (text, (size_t) st.st_size, &u);
      found = java_main_name (&u, fqn, size);
    }
  free (text);
  close (fd);
  return found;
}

/* --java, once the frame is read: the code (in memory) into the file its
 * public class names, the given .java files into the compiler's command,
 * the class to run into the program's (profiles/README.md, Java).  -1 with
 * msg when the file can't be written. */
static int
java_prepare (const char *code, size_t code_len, const char *source,
              char given[][INPUT_NAME_MAX + 1], size_t n_given, char ***compile, char **run,
              size_t n_run, source_plan_t *plan, const char **msg)
{
  static char file[INPUT_NAME_MAX + 1], fqn[JAVA_PACKAGE_MAX + JAVA_NAME_MAX + 2],
      stem[INPUT_NAME_MAX + 1], refusal[2 * INPUT_NAME_MAX + 200];
  size_t n_compile = 0, n_java = 0;
  java_unit_t u;
  sha256_t sha;
  char **words;
  int fd;

  java_scan (code, code_len, &u);
  if (u.file_type[0])
    snprintf (file, sizeof file, "%s.java", u.file_type);
  else
    snprintf (file, sizeof file, "%s", source);
  *msg = "cannot write the source file";
  fd = open (file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST)
    {
      if (u.file_type[0])
        snprintf (refusal, sizeof refusal,
                  "warmbox: the code's %s class %s must be in %s (javac's rule), and a file given "
                  "with the code "
                  "already has that name\n",
                  u.public_type[0] ? "public" : "main", u.file_type, file);
      else
        snprintf (
            refusal, sizeof refusal,
            "warmbox: the code goes in %s, and a file given with the code already has that name\n",
            file);
      plan->refusal = refusal;
      return 0;
    }
  if (fd < 0 || !write_all (fd, code, code_len) || close (fd) < 0)
    return -1;
  /* The source is an input like the files: returned only if it changed. */
  sha256_init (&sha);
  sha256_update (&sha, code, code_len);
  sha256_hex (&sha, inputs[n_inputs].sha256);
  strcpy (inputs[n_inputs++].name, file);

  if (!java_main_name (&u, fqn, sizeof fqn))
    {
      bool found = false;
      for (size_t i = 0; i < n_given && !found; i++)
        if (ends_with (given[i], ".java"))
          found = java_main_in_file (given[i], fqn, sizeof fqn);
      if (!found)
        plan->no_main
            = u.too_long
                  ? "warmbox: no class to run: a class or package name in the code is too long\n"
                  : "warmbox: no class to run: no top-level class in the code (or in a .java file "
                    "given with it) declares a method public static void main(String[] args)\n";
    }
  /* The compiler's command: the code's file for NAME, the given .java
   * files after it. */
  for (size_t i = 0; i < n_given; i++)
    n_java += ends_with (given[i], ".java");
  while ((*compile)[n_compile])
    n_compile++;
  *msg = "out of memory";
  if ((words = calloc (n_compile + n_java + 1, sizeof *words)) == NULL)
    return -1;
  memcpy (words, *compile, n_compile * sizeof *words);
  replace_words (words, n_compile, source, file);
  /* As "./NAME": a given file's name is the client's, and javac would read
   * "-J..." as an option and "@..." as a file of them. */
  for (size_t i = 0; i < n_given; i++)
    if (ends_with (given[i], ".java"))
      {
        size_t len = strlen (given[i]);
        char *path = malloc (len + 3);
        if (path == NULL)
          return -1;
        memcpy (path, "./", 2);
        memcpy (path + 2, given[i], len + 1);
        words[n_compile++] = path;
      }
  *compile = words;
  /* The program's command: the class for NAME's stem. */
  snprintf (stem, sizeof stem, "%s", source);
  if (ends_with (stem, ".java") && !plan->no_main)
    {
      stem[strlen (stem) - 5] = '\0';
      replace_words (run, n_run, stem, fqn);
    }
  return 0;
}

/* Read the frame, write the source and the files, and make the commands:
 * *run (n_run words) with the arguments after it, *compile (NULL, or a
 * NULL-terminated command) with the source's name in it.  -1 with msg set
 * when the frame is malformed or a file can't be written. */
static int
read_frame (const char *source, bool java, char ***compile, char ***run, size_t n_run,
            source_plan_t *plan, const char **msg)
{
  char header[FRAME_HEADER_MAX];
  static char name[INPUT_NAME_MAX + 1], given[FRAME_FILES_MAX][INPUT_NAME_MAX + 1];
  size_t n = read_line (header, sizeof header), n_args = 0, n_files = 0;
  unsigned long long args_total = 0, code_len, program_name_len = 0, arg_len[FRAME_ARGS_MAX],
                     name_len[FRAME_FILES_MAX], size[FRAME_FILES_MAX];
  const char *p = header, *end = header + n - 1;
  char **argv, *code = NULL;

  *msg = "malformed input frame";
  memset (plan, 0, sizeof *plan);
  if (n == 0)
    return -1;
  /* The program's own file name first, when the client gave one. */
  if (p < end && *p == 'n')
    {
      p++;
      if (!parse_number (&p, end, &program_name_len) || program_name_len == 0
          || program_name_len > INPUT_NAME_MAX || p == end || *p++ != ' ')
        return -1;
    }
  if (!parse_number (&p, end, &code_len) || code_len > FRAME_CODE_MAX)
    return -1;
  while (p < end)
    {
      if (*p++ != ' ')
        return -1;
      if (p < end && *p == 'f')
        {
          p++;
          if (n_files == FRAME_FILES_MAX || !parse_number (&p, end, &name_len[n_files]) || p == end
              || *p++ != ':' || !parse_number (&p, end, &size[n_files])
              || name_len[n_files] > INPUT_NAME_MAX || size[n_files] > INPUT_MAX_BYTES)
            return -1;
          n_files++;
        }
      else if (n_files > 0 || n_args == FRAME_ARGS_MAX || !parse_number (&p, end, &arg_len[n_args])
               || arg_len[n_args] > FRAME_ARGS_BYTES
               || (args_total += arg_len[n_args]) > FRAME_ARGS_BYTES)
        return -1;
      else
        n_args++;
    }
  if (n_inputs >= INPUTS_MAX + 1 || strlen (source) > INPUT_NAME_MAX)
    return -1;
  if (program_name_len)
    {
      /* Checked by the daemon; again here, so that nothing but a plain
       * file of the working directory, and no option of the command it
       * goes into, can come of it. */
      *msg = "input frame ended early";
      if (!read_exact (0, name, (size_t) program_name_len))
        return -1;
      name[program_name_len] = '\0';
      *msg = java ? "a Java program's file is named after its class, not by the frame"
                  : "the program's file name in the frame is not a plain name";
      if (java || !plain_name (name, (size_t) program_name_len) || name[0] == '.' || name[0] == '-'
          || name[0] == '@')
        return -1;
    }
  else
    strcpy (name, source);
  if (java)
    {
      /* Its file name is in the code: read it whole first. */
      *msg = "out of memory";
      if ((code = malloc (code_len ? (size_t) code_len : 1)) == NULL)
        return -1;
      *msg = "input frame ended early";
      if (!read_exact (0, code, (size_t) code_len))
        return -1;
    }
  else
    {
      /* The source is an input like the files: returned only if it changed. */
      *msg = "cannot write the source file";
      if (!write_new_file (name, code_len, inputs[n_inputs].sha256))
        return -1;
      strcpy (inputs[n_inputs++].name, name);
    }
  *msg = "out of memory";
  if ((argv = calloc (n_run + n_args + 1, sizeof *argv)) == NULL)
    return -1;
  memcpy (argv, *run, n_run * sizeof *argv);
  for (size_t i = 0; i < n_args; i++)
    {
      *msg = "out of memory";
      if ((argv[n_run + i] = calloc (1, (size_t) arg_len[i] + 1)) == NULL)
        return -1;
      *msg = "input frame ended early";
      if (!read_exact (0, argv[n_run + i], (size_t) arg_len[i]))
        return -1;
    }
  for (size_t i = 0; i < n_files; i++)
    {
      *msg = "input frame ended early";
      if (!read_exact (0, given[i], (size_t) name_len[i]))
        return -1;
      given[i][name_len[i]] = '\0';
      *msg = "a file name in the frame is not a plain name";
      if (!plain_name (given[i], (size_t) name_len[i]))
        return -1;
      *msg = "cannot write a given file";
      if (!write_new_file (given[i], size[i], NULL))
        return -1;
    }
  *run = argv;
  if (java)
    {
      int rc = java_prepare (code, (size_t) code_len, source, given, n_files, compile, argv, n_run,
                             plan, msg);
      explicit_bzero (code, (size_t) code_len);
      free (code);
      return rc;
    }
  /* The program's file name in the commands: the compiler's words only
   * (never an argument of the program). */
  if (*compile)
    replace_words (*compile, SIZE_MAX, source, name);
  replace_words (argv, n_run, source, name);
  return 0;
}

static long long
now_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (long long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

typedef struct
{
  int status;  /* wait status; meaningful unless failed */
  bool failed; /* the compiler could not be started */
  bool timed_out;
  bool truncated; /* output past the bound was dropped */
  long long duration_us;
  char *out, *err; /* what it wrote, up to the bound each */
  size_t out_len, err_len;
  /* The order in which the two were read, as segments (stream, length) of
   * what was kept, consecutive reads of one stream joined: each one
   * LEB128 number, length << 1 | (1 for stderr), so never more bytes than
   * the output it describes (exec/order.h reads it). */
  unsigned char *order;
  size_t order_len;
  size_t seg_len; /* the open segment, not in order yet */
  int seg_stream;
  bool order_lost; /* no memory for it: the trailer then has none */
} compile_report_t;

/* Close the open segment into rep->order. */
static void
close_segment (compile_report_t *rep)
{
  unsigned long long v
      = (unsigned long long) rep->seg_len << 1 | (unsigned long long) rep->seg_stream;
  unsigned char *grown;

  if (rep->seg_len == 0 || rep->order_lost)
    return;
  rep->seg_len = 0;
  if ((grown = realloc (rep->order, rep->order_len + 10)) == NULL)
    {
      rep->order_lost = true;
      return;
    }
  rep->order = grown;
  do
    {
      unsigned char byte = v & 0x7f;
      v >>= 7;
      rep->order[rep->order_len++] = byte | (v ? 0x80 : 0);
    }
  while (v);
}

/* n more bytes of stream (0 stdout, 1 stderr) were kept. */
static void
record_order (compile_report_t *rep, int stream, size_t n)
{
  if (n == 0)
    return;
  if (rep->seg_len && rep->seg_stream != stream)
    close_segment (rep);
  rep->seg_stream = stream;
  rep->seg_len += n;
}

/* Keep what fits of r bytes in *buf (bound bytes at most); how many. */
static size_t
keep_output (char **buf, size_t *len, const char *data, size_t r, unsigned long long bound,
             bool *truncated)
{
  size_t room = *len < bound ? (size_t) (bound - *len) : 0;
  size_t take = r < room ? r : room;

  if (take < r)
    *truncated = true;
  if (take == 0)
    return 0;
  char *grown = realloc (*buf, *len + take);
  if (grown == NULL)
    {
      *truncated = true;
      return 0;
    }
  memcpy (grown + *len, data, take);
  *buf = grown;
  *len += take;
  return take;
}

/* Run the compiler (argv) to its end or its timeout, in a process group
 * of its own, stdin /dev/null (the program's stdin is not its), stdout and
 * stderr into the report.  Everything of the group is killed and reaped
 * before the program starts: its processes are not the program's. */
static void
run_compile (char **argv, const stage_limits_t *lim, compile_report_t *rep)
{
  int out[2], err[2];
  pid_t child;
  long long start = now_us (), deadline = start + (long long) lim->timeout_ms * 1000;

  memset (rep, 0, sizeof *rep);
  if (pipe2 (out, O_CLOEXEC) < 0 || pipe2 (err, O_CLOEXEC) < 0 || (child = fork ()) < 0)
    {
      rep->failed = true;
      return;
    }
  if (child == 0)
    {
      int null = open ("/dev/null", O_RDONLY | O_CLOEXEC);
      setpgid (0, 0);
      if (null < 0 || dup2 (null, 0) < 0 || dup2 (out[1], 1) < 0 || dup2 (err[1], 2) < 0)
        _exit (127);
      execv (argv[0], argv);
      _exit (127);
    }
  setpgid (child, child); /* both sides: no race with the kill below */
  close (out[1]);
  close (err[1]);
  struct pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  while (fds[0].fd >= 0 || fds[1].fd >= 0)
    {
      long long left = deadline - now_us ();
      char chunk[16384];
      if (left <= 0)
        {
          rep->timed_out = true;
          break;
        }
      int r = poll (fds, 2, (int) (left / 1000 + 1));
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        break;
      for (int i = 0; i < 2; i++)
        {
          if (fds[i].fd < 0 || fds[i].revents == 0)
            continue;
          ssize_t got = read (fds[i].fd, chunk, sizeof chunk);
          if (got < 0 && errno == EINTR)
            continue;
          if (got <= 0)
            {
              close (fds[i].fd);
              fds[i].fd = -1;
              continue;
            }
          /* Both readable in one poll: stdout is read first (the order
           * is the order of the reads, as the engine's is of its chunks). */
          if (i == 0)
            record_order (rep, 0,
                          keep_output (&rep->out, &rep->out_len, chunk, (size_t) got,
                                       lim->output_bytes, &rep->truncated));
          else
            record_order (rep, 1,
                          keep_output (&rep->err, &rep->err_len, chunk, (size_t) got,
                                       lim->output_bytes, &rep->truncated));
        }
    }
  /* Both pipes closed: a compiler may still be at work without them (it
   * closed its output), so it has until the deadline to exit. */
  bool reaped = false;
  while (!rep->timed_out && !reaped)
    {
      pid_t w = waitpid (child, &rep->status, WNOHANG | __WALL);
      struct timespec pause = {0, 10 * 1000 * 1000};
      if (w == child)
        reaped = true;
      else if (w < 0 && errno != EINTR)
        break;
      else if (now_us () >= deadline)
        rep->timed_out = true;
      else if (w == 0)
        syscall (SYS_nanosleep, &pause, NULL); /* in every allowlist (clock_nanosleep is not) */
    }
  /* Then its whole group goes, whatever it left running, and is reaped
   * here (what left the group is ended by the caller). */
  kill (-child, SIGKILL);
  if (!reaped)
    kill (child, SIGKILL); /* in case it left its group */
  for (int i = 0; i < 2; i++)
    if (fds[i].fd >= 0)
      close (fds[i].fd);
  while (!reaped)
    {
      pid_t w = waitpid (child, &rep->status, __WALL);
      if (w == child)
        reaped = true;
      else if (w < 0 && errno != EINTR)
        break;
    }
  if (!reaped)
    rep->failed = true; /* no status to go by: not a success */
  for (;;)
    {
      pid_t gone = waitpid (-child, NULL, __WALL);
      if (gone < 0 && errno == EINTR)
        continue;
      if (gone < 0)
        break;
    }
  rep->duration_us = now_us () - start;
  close_segment (rep);
  if (reaped && WIFEXITED (rep->status) && WEXITSTATUS (rep->status) == 127 && rep->out_len == 0
      && rep->err_len == 0)
    rep->failed = true;
}

/* "compile <exit> <signal> <timed out> <truncated> <duration us> <stdout length> <stderr length>
 * <order length>\n", then both outputs and their order. */
static void
write_compile_report (const compile_report_t *rep)
{
  char line[160];
  int code = rep->failed ? 127 : WIFEXITED (rep->status) ? WEXITSTATUS (rep->status) : -1;
  int sig = !rep->failed && WIFSIGNALED (rep->status) ? WTERMSIG (rep->status) : 0;

  size_t order_len = rep->order_lost ? 0 : rep->order_len;

  /* Without memory for the order, none (0 is a valid order only for no
   * output): the daemon then has stdout, then stderr. */
  if (rep->order_lost && rep->out_len + rep->err_len)
    snprintf (line, sizeof line, "compile %d %d %d %d %lld %zu %zu\n", code < 0 ? 0 : code, sig,
              rep->timed_out ? 1 : 0, rep->truncated ? 1 : 0, rep->duration_us, rep->out_len,
              rep->err_len);
  else
    snprintf (line, sizeof line, "compile %d %d %d %d %lld %zu %zu %zu\n", code < 0 ? 0 : code, sig,
              rep->timed_out ? 1 : 0, rep->truncated ? 1 : 0, rep->duration_us, rep->out_len,
              rep->err_len, order_len);
  put (line, strlen (line));
  put (rep->out ? rep->out : "", rep->out_len);
  put (rep->err ? rep->err : "", rep->err_len);
  put (rep->order ? rep->order : (const unsigned char *) "", order_len);
}

/* A compile that succeeded fails after all, exit 1, with sentence after
 * its stderr (kept within bound: the sentence first). */
static void
fail_compile_with (compile_report_t *rep, const char *sentence, unsigned long long bound)
{
  size_t add = strlen (sentence), keep = rep->err_len;
  char *err;

  if (bound < add)
    bound = add;
  if (keep > bound - add)
    {
      keep = (size_t) (bound - add);
      rep->truncated = true;
    }
  /* malloc, not realloc: a grown block may need mremap, which not every
   * allowlist has. */
  if ((err = malloc (keep + add)) != NULL)
    {
      memcpy (err, rep->err ? rep->err : "", keep);
      memcpy (err + keep, sentence, add);
      free (rep->err);
      /* The order must describe what is sent: the sentence comes last;
       * stderr cut short leaves the order unknowable (none is sent). */
      if (keep < rep->err_len)
        rep->order_lost = true;
      rep->err = err;
      rep->err_len = keep + add;
      record_order (rep, 1, add);
      close_segment (rep);
    }
  rep->status = W_EXITCODE (1, 0);
}

static bool
compile_succeeded (const compile_report_t *rep)
{
  return !rep->failed && !rep->timed_out && WIFEXITED (rep->status)
         && WEXITSTATUS (rep->status) == 0;
}

/* SIGALRM at the program's own deadline (after a compile stage the daemon's
 * covers both stages; this one holds the program to its own timeout).
 * A SIGALRM counts only once the deadline is reached by the clock: one the
 * program sends (kill, sigqueue, tgkill) before it ends nothing, and one
 * that swallowed the kernel's (a pending signal is not queued twice) is
 * followed by the timer's next, 50 ms on. */
static volatile sig_atomic_t run_deadline_passed;
static long long run_deadline_us; /* set before the timer; 0: none */

static void
on_alarm (int sig)
{
  (void) sig;
  if (run_deadline_us && now_us () >= run_deadline_us)
    run_deadline_passed = 1;
}

/* The run mark: the program starts now, and the daemon times it from here
 * (its deadline no longer counts the sandbox's own start, however slow a
 * loaded engine made it).  First on stderr, before any byte of the
 * program's, so written even when the nonce could not be kept secret: the
 * daemon takes it only as stderr's first bytes, which no program writes. */
static void
mark_run (const char *nonce)
{
  char out[64];
  snprintf (out, sizeof out, "\x1ewarmbox-run %s\n", nonce);
  put (out, strlen (out));
}

/* End every process but us and PID 1 (the trace: none but our own
 * children's groups are ours to end), reap them, and where we are no
 * subreaper wait up to 2 s for kill to find none.  True when nothing is
 * left that could still write a file. */
static bool
end_all (bool trace, bool reaper)
{
  if (!trace)
    kill (-1, SIGKILL);
  for (;;)
    {
      /* (traced on the host nothing is killed: only what is gone is reaped) */
      pid_t gone = waitpid (-1, NULL, __WALL | (trace ? WNOHANG : 0));
      if (gone == 0)
        break;
      if (gone < 0 && errno == EINTR)
        continue;
      if (gone < 0)
        break;
    }
  for (int i = 0; !trace && !reaper && i < 200; i++)
    {
      struct timespec pause = {0, 10 * 1000 * 1000};
      if (kill (-1, SIGKILL) < 0 && errno == ESRCH)
        return true;
      syscall (SYS_nanosleep, &pause, NULL);
    }
  return reaper || trace;
}

/* argv: BOOTSTRAP ARGV... (the bootstrap reads the frame), or
 * --source NAME [--java] [--compile N WORD...] -- PROGRAM ARGV... (the
 * init reads it; --java needs a compile stage).  The run's argv into *run
 * (NULL-terminated). */
static int
parse_argv (int argc, char **argv, const char **source, bool *java, char ***compile, char ***run,
            size_t *n_run)
{
  int i = 1;

  *source = NULL;
  *java = false;
  *compile = NULL;
  if (i < argc && strcmp (argv[i], "--source") == 0)
    {
      if (i + 1 >= argc)
        return -1;
      *source = argv[i + 1];
      i += 2;
      if (i < argc && strcmp (argv[i], "--java") == 0)
        {
          *java = true;
          i++;
        }
      if (i < argc && strcmp (argv[i], "--compile") == 0)
        {
          char *end;
          long n = i + 1 < argc ? strtol (argv[i + 1], &end, 10) : 0;
          if (i + 1 >= argc || *end != '\0' || n < 1 || n > argc - i - 2)
            return -1;
          if ((*compile = calloc ((size_t) n + 1, sizeof **compile)) == NULL)
            return -1;
          memcpy (*compile, argv + i + 2, (size_t) n * sizeof **compile);
          i += 2 + (int) n;
        }
      if (i >= argc || strcmp (argv[i], "--") != 0 || (*java && *compile == NULL))
        return -1;
      i++;
    }
  if (i >= argc)
    return -1;
  *run = argv + i;
  *n_run = (size_t) (argc - i);
  return 0;
}

int
main (int argc, char **argv)
{
  char nonce[NONCE_LEN + 1], out[160];
  unsigned long long files_max = 0, files_bytes = 0;
  long peak_kib = 0, user_us = 0, sys_us = 0;
  int status = 0, code = 125;
  bool trace = getenv ("WARMBOX_INIT_TRACE") != NULL, run_program = true, run_timed_out = false;
  bool compile_clean = true; /* nothing of the compile stage is left */
  long long run_start_us = 0;
  pid_t child = -1, pid, group = 0;
  struct rusage ru;
  const char *source, *msg;
  char **compile, **run;
  size_t n_run;
  bool java;
  stage_limits_t stages;
  source_plan_t plan = {0};
  compile_report_t rep = {0};

  if (parse_argv (argc, argv, &source, &java, &compile, &run, &n_run) < 0)
    return fail (
        "init: usage: init [--source NAME [--java] [--compile N WORD...] --] PROGRAM ARGV...");
  /* Before the nonce is read: from here /proc/<this pid>/mem and the like
   * are closed to processes of the same uid.  Where that cannot be done no
   * trailer is written (a nonce the program could read proves nothing).
   * Subreaper: orphans come to us, so their times count, and once wait4
   * finds no child left nothing of the program runs; without it (a kernel
   * that lacks it) they go to PID 1, are not counted, and no files are
   * collected (a killed process might still be writing one). */
  bool secret = prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) == 0;
  /* PID 1 (the sandbox's init, as it runs there) reaps every orphan of
   * its namespace whatever the kernel says of subreapers (gVisor refuses
   * them). */
  bool reaper = prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 || getpid () == 1;
  if (read_first_lines (nonce, &files_max, &files_bytes, &stages) < 0)
    return fail ("malformed input frame");
  if (source && read_frame (source, java, &compile, &run, n_run, &plan, &msg) < 0)
    return fail (msg);
  if (compile && stages.timeout_ms == 0)
    return fail ("init: a compile stage needs its limits on the first line");
  if (compile && plan.refusal)
    {
      /* Nothing to compile (--java: the code's file can't have its name):
       * the stage fails as a compiler would, with the reason. */
      rep.status = W_EXITCODE (1, 0);
      rep.err = (char *) plan.refusal;
      rep.err_len = strlen (plan.refusal);
      record_order (&rep, 1, rep.err_len);
      close_segment (&rep);
      run_program = false;
    }
  else if (compile)
    {
      run_compile (compile, &stages, &rep);
      run_program = compile_succeeded (&rep);
      if (run_program && plan.no_main)
        {
          /* Compiled, but nothing to run (--java): a failed stage, the
           * reason after what the compiler said. */
          fail_compile_with (&rep, plan.no_main, stages.output_bytes);
          run_program = false;
        }
      /* Nothing of the compiler may live on into the program's time (a
       * process that left its group): ended and reaped here. */
      compile_clean = end_all (trace, reaper);
    }
  if (compile)
    code = rep.failed               ? 127
           : WIFEXITED (rep.status) ? WEXITSTATUS (rep.status)
                                    : 128 + WTERMSIG (rep.status);
  if (run_program)
    {
      /* The program's own deadline, once compiled (profiles/README.md):
       * SIGALRM, again every 50 ms until it is seen, in case one falls
       * between two waits. */
      if (compile && stages.run_timeout_ms > 0)
        {
          struct sigaction sa = {0};
          struct itimerval it = {{0, 50 * 1000},
                                 {(time_t) (stages.run_timeout_ms / 1000),
                                  (suseconds_t) (stages.run_timeout_ms % 1000) * 1000}};
          sa.sa_handler = on_alarm; /* no SA_RESTART: wait4 returns EINTR */
          sigaction (SIGALRM, &sa, NULL);
          mark_run (nonce);
          run_deadline_us = now_us () + (long long) stages.run_timeout_ms * 1000;
          setitimer (ITIMER_REAL, &it, NULL);
        }
      else if (run_mark_asked)
        mark_run (nonce);
      run_start_us = now_us ();
      child = fork ();
      if (child < 0)
        return fail ("init: cannot fork");
      if (child == 0)
        {
          explicit_bzero (nonce, sizeof nonce);
          setpgid (0, 0);
          execv (run[0], run);
          _exit (fail (source ? "init: cannot run the program" : "init: cannot run the bootstrap"));
        }
    }
  /* Reap until the bootstrap has exited, then end what it left, and reap
   * that too, so every process's times are counted. */
  for (;;)
    {
      if (run_deadline_passed && !run_timed_out && child != -1)
        {
          /* The deadline: unless the program has just exited (then it is
           * reaped as such), everything but us goes (the program's group
           * when traced). */
          pid = wait4 (child, &status, WNOHANG | __WALL, &ru);
          /* Exited, and in time: unless we see the deadline this late
           * (only a stopped init does: the program may have stopped us
           * and run on), then it ran past it all the same. */
          if (pid == child
              && now_us () - run_start_us > (long long) stages.run_timeout_ms * 1000 + 200000)
            run_timed_out = true;
          if (pid == child)
            goto reaped;
          kill (trace ? -child : -1, SIGKILL);
          run_timed_out = true;
        }
      pid = wait4 (-1, &status, __WALL, &ru);
      if (pid < 0 && errno == EINTR)
        continue;
      if (pid < 0)
        break;
    reaped:
      user_us += ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec;
      sys_us += ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec;
      if (ru.ru_maxrss > peak_kib)
        peak_kib = ru.ru_maxrss;
      if (pid == child)
        {
          struct itimerval off = {{0, 0}, {0, 0}};
          code = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
          if (compile)
            setitimer (ITIMER_REAL, &off, NULL);
          /* What the program left running: in the sandbox's pid namespace
           * every process but PID 1 and us; under derive-seccomp.py's
           * trace, on the host, only the program's process group. */
          kill (trace ? -pid : -1, SIGKILL);
          group = pid;
          child = -1;
        }
    }
  if (child != -1)
    return fail ("init: lost the bootstrap");
  /* Not a subreaper (gVisor refuses it): the orphans went to PID 1, which
   * reaps them.  Files are read only once none of them is left: SIGKILL
   * again (a fork may have raced the first) until kill finds no process,
   * for at most 2 s. */
  for (int i = 0; run_program && !reaper && i < 200; i++)
    {
      struct timespec pause = {0, 10 * 1000 * 1000};
      if (kill (trace ? -group : -1, SIGKILL) < 0 && errno == ESRCH)
        reaper = true;
      else
        syscall (SYS_nanosleep, &pause, NULL); /* in every allowlist (clock_nanosleep is not) */
    }
  if (secret)
    {
      /* The program may have left the shared pipe non-blocking, or in
       * packet mode (O_DIRECT: a reader with a small buffer would lose the
       * rest of each write): every process of it is gone now, so nothing
       * races this. */
      int fl = fcntl (2, F_GETFL);
      if (fl >= 0 && (fl & (O_NONBLOCK | O_DIRECT)))
        fcntl (2, F_SETFL, fl & ~(O_NONBLOCK | O_DIRECT));
      snprintf (out, sizeof out, "\x1ewarmbox-trailer %s\n", nonce);
      put (out, strlen (out));
      if (compile)
        write_compile_report (&rep);
      /* Files only once nothing that could still write one is left: after
       * the program, as settled below; after a failed compile, end_all's. */
      write_files (files_max, files_bytes, run_program ? reaper : compile_clean);
      if (session_state_max)
        write_session (run_program ? reaper : compile_clean);
      if (run_timed_out)
        put ("timeout\n", 8);
      snprintf (out, sizeof out, "usage %ld %ld %ld\nend %s\n", peak_kib, user_us, sys_us, nonce);
      put (out, strlen (out));
    }
  return code;
}

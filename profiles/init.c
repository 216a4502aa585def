/* profiles/init.c: /warmbox/init, the first program of every sandbox's
 * argv (under docker-init), built static into each image by build-image.sh.
 *
 *   /warmbox/init BOOTSTRAP ARGV...
 *
 * It reads one line from stdin, "w1 <nonce>\n" (the daemon's, 32 hex
 * digits, fresh for each execution), runs the bootstrap as its child with
 * the rest of stdin, reaps everything the program leaves behind (it is a
 * subreaper; once the bootstrap has exited, what is left is killed), and
 * appends to stderr, after the program's last byte,
 *
 *   "\x1ewarmbox-usage <nonce> <peak RSS KiB> <user us> <system us>\n"
 *
 * measured by the kernel (wait4's rusage: the peak is the largest single
 * process's, the times are summed over every process reaped).  Then it
 * exits as the bootstrap did (128 + the signal when one killed it).
 *
 * The program cannot forge the line: the nonce was read before the
 * bootstrap started, exec left no copy of it in the program's memory, and
 * this process is not dumpable, so a program of the same uid cannot read
 * it from /proc.  If the sandbox is killed (timeout, output limit), no line
 * is written and the daemon reports no figures; a program the kernel killed
 * for memory is reaped like any other, and reported.
 *
 * The figures are a lower bound the program can lower, not forge upward:
 * the kernel adds a child's times and peak to its parent's only when the
 * parent waits for it, so children reaped unwaited (SIGCHLD ignored) are
 * not counted, and the peak is the largest single process's.
 *
 * Exit 125 (as the bootstraps) when the first line is not there.  Uses
 * only system calls every profile's allowlist already has (read, write,
 * prctl, clone, setpgid, execve, wait4, kill, fcntl, exit_group). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define NONCE_LEN 32

static void
write_all (int fd, const char *p, size_t n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, p, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return;
      p += w;
      n -= (size_t) w;
    }
}

static int
fail (const char *msg)
{
  write_all (2, "warmbox: ", 9);
  write_all (2, msg, strlen (msg));
  write_all (2, "\n", 1);
  return 125;
}

/* "w1 <nonce>\n", read a byte at a time: not one byte past it. */
static int
read_nonce (char nonce[NONCE_LEN + 1])
{
  char line[3 + NONCE_LEN + 1];
  size_t n = 0;

  while (n < sizeof line)
    {
      ssize_t r = read (0, line + n, 1);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return -1;
      n++;
      if (line[n - 1] == '\n')
        break;
    }
  if (n != sizeof line || memcmp (line, "w1 ", 3) != 0 || line[n - 1] != '\n')
    return -1;
  for (size_t i = 0; i < NONCE_LEN; i++)
    {
      char c = line[3 + i];
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
        return -1;
      nonce[i] = c;
    }
  nonce[NONCE_LEN] = '\0';
  explicit_bzero (line, sizeof line);
  return 0;
}

int
main (int argc, char **argv)
{
  char nonce[NONCE_LEN + 1], out[160];
  long peak_kib = 0, user_us = 0, sys_us = 0;
  int status = 0, code = 125;
  bool trace = getenv ("WARMBOX_INIT_TRACE") != NULL;
  pid_t child, pid;
  struct rusage ru;

  if (argc < 2)
    return fail ("init: no program to run");
  /* Before the nonce is read: from here /proc/<this pid>/mem and the like
   * are closed to processes of the same uid.  Where that cannot be done no
   * usage line is written (a nonce the program could read proves nothing).
   * Subreaper: orphans come to us, so their times count; without it (a
   * kernel that lacks it) they go to PID 1 and are not counted. */
  bool secret = prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) == 0;
  prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  if (read_nonce (nonce) < 0)
    return fail ("malformed input frame");
  child = fork ();
  if (child < 0)
    return fail ("init: cannot fork");
  if (child == 0)
    {
      explicit_bzero (nonce, sizeof nonce);
      setpgid (0, 0);
      execv (argv[1], argv + 1);
      _exit (fail ("init: cannot run the bootstrap"));
    }
  /* Reap until the bootstrap has exited, then end what it left, and reap
   * that too, so every process's times are counted. */
  for (;;)
    {
      pid = wait4 (-1, &status, 0, &ru);
      if (pid < 0 && errno == EINTR)
        continue;
      if (pid < 0)
        break;
      user_us += ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec;
      sys_us += ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec;
      if (ru.ru_maxrss > peak_kib)
        peak_kib = ru.ru_maxrss;
      if (pid == child)
        {
          code = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
          /* What the program left running: in the sandbox's pid namespace
           * every process but PID 1 and us; under derive-seccomp.py's
           * trace, on the host, only the program's process group. */
          kill (trace ? -pid : -1, SIGKILL);
          child = -1;
        }
    }
  if (child != -1)
    return fail ("init: lost the bootstrap");
  if (secret)
    {
      /* The program may have left the shared pipe non-blocking: every
       * process of it is gone now, so nothing races this. */
      int fl = fcntl (2, F_GETFL);
      if (fl >= 0 && (fl & O_NONBLOCK))
        fcntl (2, F_SETFL, fl & ~O_NONBLOCK);
      snprintf (out, sizeof out, "\x1ewarmbox-usage %s %ld %ld %ld\n", nonce, peak_kib, user_us, sys_us);
      write_all (2, out, strlen (out));
    }
  return code;
}

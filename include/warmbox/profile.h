/* profiles: per-language execution profiles and the hardened container spec.
 *
 * A profile folder (profiles/<language>/) holds profile.json (image, argv,
 * runtime, user, default and maximum limits) and the seccomp allowlist its
 * "seccomp" key names.  Loading checks every syscall name with libseccomp, so
 * a typo stops the daemon at start-up instead of weakening a sandbox.
 *
 * The profile hash is the SHA-256 of the profile file's bytes followed by the
 * seccomp file's bytes: editing either one changes the pool key.
 *
 * A profile says what runs and within which limits; the container body
 * built from it is the sandbox module's (sandbox.h).
 */
#ifndef WARMBOX_PROFILE_H
#define WARMBOX_PROFILE_H

#include "warmbox/wb.h"

typedef struct prof_limits
{
  uint32_t timeout_ms;   /* wall clock, enforced by the daemon with SIGKILL */
  uint32_t memory_mb;    /* Memory == MemorySwap */
  double cpus;           /* NanoCpus = cpus * 1e9 */
  uint32_t pids;         /* PidsLimit, and the nproc ulimit */
  uint32_t tmpfs_mb;     /* size of the noexec /tmp */
  uint64_t output_bytes; /* per stream; past it the container is killed */
  uint64_t code_bytes;   /* largest accepted code */
  uint64_t stdin_bytes;  /* largest accepted stdin */
  uint32_t nofile;       /* RLIMIT_NOFILE */
  uint32_t fsize_mb;     /* RLIMIT_FSIZE */
  /* A profile with a compile stage (prof_t.compile_argv) only; 0 otherwise. */
  uint32_t compile_timeout_ms;   /* the compiler's wall clock, before timeout_ms starts */
  uint32_t compile_memory_mb;    /* the sandbox's memory while it compiles (see prof_memory_mb) */
  uint64_t compile_output_bytes; /* per stream of the compiler's output, kept; the rest dropped */
  uint32_t build_mb;             /* the exec tmpfs at /build the compiler writes to (0: none) */
} prof_limits_t;

#define PROF_MAX_ALIASES 8
#define PROF_MAX_NAME_RULES 8

/* A file name the program's file may not have, and why (profile.json's
 * "filename.refuse"). */
typedef struct prof_name_rule
{
  char *pattern; /* fnmatch(3), no flags */
  char *reason;  /* said in the 400 */
} prof_name_rule_t;

typedef struct prof
{
  char *language;                  /* "python" */
  char *aliases[PROF_MAX_ALIASES]; /* other names (Piston clients say "py", "node") */
  size_t n_aliases;
  char *version; /* interpreter version, informational */
  char *image;   /* image reference, e.g. "warmbox/python:latest" */
  char *runtime; /* "runc", "runsc", ... */
  char **argv;   /* NULL-terminated; the bootstrap reading the frame, or (with
                    source) /warmbox/init and the program's command */
  size_t argc;
  /* "source": the file the code is written to, in the working directory,
   * by /warmbox/init itself (profiles/init.c --source), for a program
   * that is not an interpreter with a bootstrap: a compiler's input, the
   * shell's script.  NULL: argv[1] is a bootstrap that reads the frame. */
  char *source;
  /* "program_file" (a profile with a bootstrap, so without source): the
   * file the bootstrap writes the code to in the working directory before
   * it runs it, where multiprocessing's spawn, a program that runs its own
   * file again, or a worker thread on __filename read it; a request's
   * "filename" takes its place.  The daemon lists it to the init as an
   * input, so it comes back only when the program changed it.  NULL: the
   * code is never a file. */
  char *program_file;
  /* "session_state" (a profile with a bootstrap): in a session's
   * execution the bootstrap is given the session's last state as the
   * frame's file .warmbox-session and leaves the next one in
   * .warmbox-state (profiles/README.md); the daemon keeps it as opaque
   * bytes (exec/session.h).  false: a session carries only its files. */
  bool session_state;
  /* "compile": {"argv": [...]}: run in the same container before the
   * program, within the compile_* limits; the program runs only when it
   * exits 0.  NULL-terminated; NULL without a compile stage. */
  char **compile_argv;
  size_t compile_argc;
  /* "source_rule": "java": /warmbox/init names the source file after the
   * code's public class and runs the class with the main method
   * (profiles/init.c --java); a request can't name it.  Needs source and
   * compile. */
  bool java_source;
  /* "filename": what a request's name for the program's file must end
   * with (one of suffixes, when there are any: compilers pick the
   * language by it) and must not match (refused, with its reason). */
  char *name_suffixes[PROF_MAX_NAME_RULES];
  size_t n_name_suffixes;
  prof_name_rule_t name_refused[PROF_MAX_NAME_RULES];
  size_t n_name_refused;
  char **env; /* "NAME=value" added to the sandbox's environment (env) */
  size_t n_env;
  char *seccomp_json; /* the allowlist, compact JSON, inlined into SecurityOpt */
  char hash[65];      /* SHA-256 of profile.json bytes + seccomp bytes */
  prof_limits_t def;  /* applied to fields a request leaves out */
  prof_limits_t max;  /* a request above any of these is refused */
} prof_t;

typedef struct prof_set
{
  prof_t **items;
  size_t n;
} prof_set_t;

/* Parse a profile from memory (no I/O): json is profile.json, seccomp the
 * allowlist it names.  On error returns -1, *out untouched, err says which
 * key or syscall is wrong.  The caller owns *out (prof_free). */
WB_MUST_CHECK int prof_parse (const char *json, size_t json_len, const char *seccomp,
                              size_t seccomp_len, prof_t **out, wb_err_t *err);
/* Read dir/profile.json and the seccomp file it names (relative to dir). */
WB_MUST_CHECK int prof_load_file (const char *dir, prof_t **out, wb_err_t *err);
/* Load every dir/<name>/profile.json.  Fails on the first bad profile, with
 * the file in the message; an empty folder is an error too. */
WB_MUST_CHECK int prof_load_dir (const char *dir, prof_set_t **out, wb_err_t *err);
void prof_free (prof_t *p);
void prof_set_free (prof_set_t *set);
/* The profile for a language, or NULL.  Can't fail. */
const prof_t *prof_find (const prof_set_t *set, const char *language);
/* The same, matching a profile's aliases too. */
const prof_t *prof_find_alias (const prof_set_t *set, const char *name);

/* warmbox's init (profiles/init.c): the first word of every shipped
 * profile's argv, which reads the nonce line and reports the program's
 * end in a trailer. */
#define PROF_INIT_PATH "/warmbox/init"
/* Does p's argv start with warmbox's init?  Then the init is the
 * sandbox's PID 1 (out of the program's reach: no docker-init above it);
 * else the engine's init (HostConfig.Init) reaps for the argv.  Can't
 * fail. */
bool prof_runs_warmbox_init (const prof_t *p);

/* The sandbox's memory limit for limits lim: memory_mb, or compile_memory_mb
 * when the profile compiles and that is larger (a cgroup's limit can't
 * change between the stages from inside).  Can't fail. */
uint32_t prof_memory_mb (const prof_t *p, const prof_limits_t *lim);

/* Check a seccomp JSON document: known actions, every syscall name resolved
 * by libseccomp for the host architecture.  -1 with the name in err. */
WB_MUST_CHECK int prof_seccomp_check (const char *json, size_t len, wb_err_t *err);

#endif

/* Profiles: loading, seccomp name checks and policy.  The container body
 * built from a profile is tested in test_sandbox.c. */
#include "tap.h"
#include "warmbox/profile.h"

static const char *minimal_seccomp
    = "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\",\"write\"],"
      "\"action\":\"SCMP_ACT_ALLOW\"}]}";

static const char *minimal_profile
    = "{\"language\":\"py\",\"version\":\"1\",\"image\":\"img:1\",\"argv\":[\"/x\"],"
      "\"seccomp\":\"s.json\",\"limits\":{"
      "\"default\":{\"timeout_ms\":1000,\"memory_mb\":64,\"cpus\":1,\"pids\":16,\"tmpfs_mb\":8,"
      "\"output_bytes\":100,\"code_bytes\":100,\"stdin_bytes\":100,\"nofile\":64,\"fsize_mb\":1},"
      "\"max\":{\"timeout_ms\":2000,\"memory_mb\":128,\"cpus\":2,\"pids\":32,\"tmpfs_mb\":16,"
      "\"output_bytes\":200,\"code_bytes\":200,\"stdin_bytes\":200,\"nofile\":128,\"fsize_mb\":2}}"
      "}";

static void
test_seccomp_check (void)
{
  wb_err_t err;
  ok (prof_seccomp_check (minimal_seccomp, strlen (minimal_seccomp), &err) == 0,
      "a small allowlist passes");
  const char *typo
      = "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\",\"wrte\"],"
        "\"action\":\"SCMP_ACT_ALLOW\"}]}";
  ok (prof_seccomp_check (typo, strlen (typo), &err) < 0 && strstr (err.msg, "wrte"),
      "an unknown syscall is named in the error");
  const char *allow = "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"read\"],"
                      "\"action\":\"SCMP_ACT_ERRNO\"}]}";
  ok (prof_seccomp_check (allow, strlen (allow), &err) < 0, "a default-allow profile is refused");
  const char *badact = "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],"
                       "\"action\":\"ALLOW_ALL\"}]}";
  ok (prof_seccomp_check (badact, strlen (badact), &err) < 0, "an unknown action is refused");
}

static int
check_rules (const char *rules, wb_err_t *err)
{
  char doc[1024];
  snprintf (doc, sizeof doc,
            "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],"
            "\"action\":\"SCMP_ACT_ALLOW\"},%s]}",
            rules);
  return prof_seccomp_check (doc, strlen (doc), err);
}

#define ALLOW(name, args) "{\"names\":[\"" name "\"],\"action\":\"SCMP_ACT_ALLOW\"" args "}"
#define ARG(i, op, v, v2)                                                                          \
  "{\"index\":" #i ",\"op\":\"" op "\",\"value\":" #v ",\"valueTwo\":" #v2 "}"

static void
test_seccomp_policy (void)
{
  static const char *never[] = {"ptrace",
                                "mount",
                                "umount2",
                                "unshare",
                                "setns",
                                "keyctl",
                                "add_key",
                                "request_key",
                                "bpf",
                                "perf_event_open",
                                "io_uring_setup",
                                "io_uring_enter",
                                "io_uring_register",
                                "userfaultfd",
                                "kexec_load",
                                "kexec_file_load",
                                "init_module",
                                "finit_module",
                                "delete_module",
                                "reboot",
                                "swapon",
                                "swapoff",
                                "clone3"};
  wb_err_t err;
  char rule[256];
  int refused = 0;

  for (size_t i = 0; i < WB_ARRAY_SIZE (never); i++)
    {
      snprintf (rule, sizeof rule, "{\"names\":[\"%s\"],\"action\":\"SCMP_ACT_ALLOW\"}", never[i]);
      if (check_rules (rule, &err) < 0 && strstr (err.msg, never[i]) && strstr (err.msg, "never"))
        refused++;
      else
        printf ("# %s was accepted\n", never[i]);
    }
  ok (refused == (int) WB_ARRAY_SIZE (never),
      "every forbidden call is refused in an allow rule (%d)", refused);
  snprintf (rule, sizeof rule, "{\"names\":[\"ptrace\"],\"action\":\"SCMP_ACT_LOG\"}");
  ok (check_rules (rule, &err) < 0, "... and in a log rule (log lets the call through)");
  ok (check_rules ("{\"names\":[\"ptrace\",\"mount\"],\"action\":\"SCMP_ACT_ERRNO\"}", &err) == 0,
      "denying them explicitly is fine");
  ok (check_rules ("{\"names\":[\"clone3\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":38}", &err)
          == 0,
      "clone3 -> ENOSYS is fine");

  ok (check_rules (ALLOW ("clone", ""), &err) < 0 && strstr (err.msg, "namespace"),
      "clone without the namespace-flag condition is refused");
  ok (check_rules (ALLOW ("clone", ",\"args\":[" ARG (0, "SCMP_CMP_MASKED_EQ", 268435456, 0) "]"),
                   &err)
          < 0,
      "clone masking only CLONE_NEWUSER is refused");
  ok (check_rules (ALLOW ("clone", ",\"args\":[" ARG (0, "SCMP_CMP_MASKED_EQ", 2114060288, 0) "]"),
                   &err)
          == 0,
      "clone without any namespace flag is allowed");

  ok (check_rules (ALLOW ("socket", ""), &err) < 0 && strstr (err.msg, "raw"),
      "socket without conditions is refused");
  ok (check_rules (ALLOW ("socket", ",\"args\":[" ARG (0, "SCMP_CMP_EQ", 17, 0) "]"), &err) < 0,
      "AF_PACKET sockets are refused");
  ok (check_rules (ALLOW ("socket", ",\"args\":[" ARG (0, "SCMP_CMP_EQ", 16, 0) "]"), &err) < 0,
      "netlink sockets are refused");
  ok (check_rules (ALLOW ("socket", ",\"args\":[" ARG (0, "SCMP_CMP_EQ", 2, 0) "]"), &err) < 0,
      "AF_INET without a type condition is refused (raw sockets)");
  ok (check_rules (ALLOW ("socket", ",\"args\":[" ARG (0, "SCMP_CMP_EQ", 2, 0) "," ARG (
                                        1, "SCMP_CMP_MASKED_EQ", 15, 3) "]"),
                   &err)
          < 0,
      "AF_INET SOCK_RAW is refused");
  ok (check_rules (ALLOW ("socket", ",\"args\":[" ARG (0, "SCMP_CMP_EQ", 10, 0) "," ARG (
                                        1, "SCMP_CMP_MASKED_EQ", 15, 1) "]"),
                   &err)
          == 0,
      "AF_INET6 SOCK_STREAM is allowed");
  ok (check_rules (ALLOW ("socket", ",\"args\":[" ARG (0, "SCMP_CMP_EQ", 1, 0) "]"), &err) == 0,
      "AF_UNIX is allowed");
}

static void
test_parse (void)
{
  prof_t *p = NULL;
  wb_err_t err;
  ok (prof_parse (minimal_profile, strlen (minimal_profile), minimal_seccomp,
                  strlen (minimal_seccomp), &p, &err)
          == 0,
      "minimal profile parses");
  if (p)
    {
      is_str (p->runtime, "runc", "runtime defaults to runc");
      is_int (p->max.memory_mb, 128, "max memory read");
      is_int (strlen (p->hash), 64, "hash is hex SHA-256");
      prof_t *q = NULL;
      char other[2048];
      snprintf (other, sizeof other, "%s ", minimal_profile);
      must (
          prof_parse (other, strlen (other), minimal_seccomp, strlen (minimal_seccomp), &q, &err));
      ok (q && strcmp (p->hash, q->hash) != 0, "any byte of change changes the hash");
      prof_free (q);
    }
  prof_free (p);
  char bad[2048];
  const char *from = "\"default\":{\"timeout_ms\":1000";
  const char *at = strstr (minimal_profile, from);
  snprintf (bad, sizeof bad, "%.*s\"default\":{\"timeout_ms\":5000%s", (int) (at - minimal_profile),
            minimal_profile, at + strlen (from));
  p = NULL;
  ok (prof_parse (bad, strlen (bad), minimal_seccomp, strlen (minimal_seccomp), &p, &err) < 0
          && strstr (err.msg, "timeout_ms"),
      "a default above its max is refused");
  ok (prof_parse ("[]", 2, minimal_seccomp, strlen (minimal_seccomp), &p, &err) < 0,
      "not an object");

  /* "env": NAME=value, each once, not the daemon's own or the inits'. */
  static const struct
  {
    const char *env;
    bool good;
  } envs[] = {{"[\"MPLBACKEND=Agg\",\"A_1=x=y\",\"E=\"]", true},
              {"[\"PATH=/bin\"]", false},
              {"[\"HOME=/\"]", false},
              {"[\"WARMBOX_INIT_TRACE=1\"]", false},
              {"[\"TINI_SUBREAPER=1\"]", false},
              {"[\"A=1\",\"A=2\"]", false},
              {"[\"1A=x\"]", false},
              {"[\"=x\"]", false},
              {"[\"NOEQUALS\"]", false},
              {"[\"A-B=x\"]", false},
              {"[1]", false},
              {"\"A=1\"", false}};
  for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++)
    {
      char with[4096];
      p = NULL;
      snprintf (with, sizeof with, "{\"env\":%s,%s", envs[i].env, minimal_profile + 1);
      int rc
          = prof_parse (with, strlen (with), minimal_seccomp, strlen (minimal_seccomp), &p, &err);
      ok ((rc == 0) == envs[i].good, "env %s: %s", envs[i].env, envs[i].good ? "taken" : "refused");
      if (p && envs[i].good)
        ok (p->n_env == 3 && strcmp (p->env[1], "A_1=x=y") == 0, "and kept in order");
      prof_free (p);
    }
}

/* "source" and "compile": the init reads the frame and runs the stages. */
static void
test_stages (void)
{
  static const char *compiled_limits
      = "\"limits\":{"
        "\"default\":{\"timeout_ms\":1000,\"memory_mb\":64,\"cpus\":1,\"pids\":16,\"tmpfs_mb\":8,"
        "\"output_bytes\":100,\"code_bytes\":100,\"stdin_bytes\":100,\"nofile\":64,\"fsize_mb\":1,"
        "\"compile_timeout_ms\":5000,\"compile_memory_mb\":256,\"compile_output_bytes\":1000,"
        "\"build_mb\":32},"
        "\"max\":{\"timeout_ms\":2000,\"memory_mb\":512,\"cpus\":2,\"pids\":32,\"tmpfs_mb\":16,"
        "\"output_bytes\":200,\"code_bytes\":200,\"stdin_bytes\":200,\"nofile\":128,\"fsize_mb\":2,"
        "\"compile_timeout_ms\":9000,\"compile_memory_mb\":1024,\"compile_output_bytes\":2000,"
        "\"build_mb\":64}}}";
  static const struct
  {
    const char *head; /* before the limits */
    bool compiled_limits, good;
    const char *why;
  } cases[] = {
      {"\"source\":\"main.c\",\"compile\":{\"argv\":[\"/usr/bin/gcc\",\"main.c\"]},\"argv\":[\"/"
       "warmbox/init\",\"/build/main\"]",
       true, true, "a compiled profile"},
      {"\"source\":\"main.sh\",\"argv\":[\"/warmbox/init\",\"/bin/bash\",\"main.sh\"]", false, true,
       "a source file without a compile stage (the shell)"},
      {"\"compile\":{\"argv\":[\"/usr/bin/gcc\"]},\"argv\":[\"/warmbox/init\",\"/build/main\"]",
       true, false, "a compile stage without a source file"},
      {"\"source\":\"main.c\",\"argv\":[\"/usr/bin/python3\",\"x\"]", false, false,
       "a source file with an argv that is not the init's"},
      {"\"source\":\"main.c\",\"argv\":[\"/warmbox/init\"]", false, false,
       "the init with no program"},
      {"\"source\":\".main.c\",\"argv\":[\"/warmbox/init\",\"/x\"]", false, false,
       "a dot-file source"},
      {"\"source\":\"a/main.c\",\"argv\":[\"/warmbox/init\",\"/x\"]", false, false,
       "a source with a /"},
      {"\"source\":\"main.c\",\"compile\":{\"argv\":[\"gcc\"]},\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "a compiler by a relative path"},
      {"\"source\":\"main.c\",\"compile\":{\"argv\":[]},\"argv\":[\"/warmbox/init\",\"/x\"]", true,
       false, "an empty compile argv"},
      {"\"source\":\"main.c\",\"compile\":{\"argv\":[\"/usr/bin/gcc\"]},\"argv\":[\"/warmbox/"
       "init\",\"/x\"]",
       false, false, "a compile stage without its limits"},
      {"\"source\":\"main.sh\",\"argv\":[\"/warmbox/init\",\"/bin/bash\"]", true, false,
       "compile limits without a compile stage"},
      /* The bootstrap's own file of the code ("program_file"). */
      {"\"program_file\":\"main.py\",\"argv\":[\"/usr/bin/python3\",\"/warmbox/bootstrap.py\"]",
       false, true, "a bootstrap's program file"},
      {"\"program_file\":\".main.py\",\"argv\":[\"/usr/bin/python3\",\"/b.py\"]", false, false,
       "a dot-file program file"},
      {"\"program_file\":\"a/main.py\",\"argv\":[\"/usr/bin/python3\",\"/b.py\"]", false, false,
       "a program file with a /"},
      {"\"program_file\":7,\"argv\":[\"/usr/bin/python3\",\"/b.py\"]", false, false,
       "a program file that is not a string"},
      {"\"program_file\":\"main.sh\",\"source\":\"main.sh\",\"argv\":[\"/warmbox/init\",\"/bin/"
       "bash\"]",
       false, false, "a program file with a source (the init writes that one)"},
      /* How the program's file is named: "source_rule" and "filename". */
      {"\"source\":\"Main.java\",\"source_rule\":\"java\",\"compile\":{\"argv\":[\"/usr/bin/"
       "javac\",\"Main.java\"]},"
       "\"argv\":[\"/warmbox/init\",\"/usr/bin/java\",\"Main\"]",
       true, true, "the java source rule"},
      {"\"source\":\"main.sh\",\"source_rule\":\"java\",\"argv\":[\"/warmbox/init\",\"/bin/bash\"]",
       false, false, "the java source rule without a compile stage"},
      {"\"source\":\"main.c\",\"source_rule\":\"java\",\"compile\":{\"argv\":[\"/usr/bin/gcc\"]},"
       "\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "the java source rule for a source that is no .java"},
      {"\"source\":\"Main.java\",\"source_rule\":\"kotlin\",\"compile\":{\"argv\":[\"/usr/bin/"
       "javac\"]},"
       "\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "an unknown source rule"},
      {"\"source\":\"Main.java\",\"source_rule\":\"java\",\"filename\":{\"suffixes\":[\".java\"]},"
       "\"compile\":{\"argv\":[\"/usr/bin/javac\"]},\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "filename rules with the java source rule"},
      {"\"source\":\"main.c\",\"filename\":{\"suffixes\":[\".c\",\".h\"],\"refuse\":[{\"pattern\":"
       "\"_*\","
       "\"reason\":\"no\"}]},\"compile\":{\"argv\":[\"/usr/bin/gcc\"]},\"argv\":[\"/warmbox/"
       "init\",\"/x\"]",
       true, true, "filename suffixes and a refused pattern"},
      {"\"source\":\"main.c\",\"filename\":{\"suffixes\":[\".cpp\"]},\"compile\":{\"argv\":[\"/usr/"
       "bin/gcc\"]},"
       "\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "suffixes the default source does not have"},
      {"\"source\":\"main.c\",\"filename\":{\"suffixes\":[\"c\"]},\"compile\":{\"argv\":[\"/usr/"
       "bin/gcc\"]},"
       "\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "a suffix without its dot"},
      {"\"source\":\"main.c\",\"filename\":{\"refuse\":[{\"pattern\":\"_*\"}]},\"compile\":{"
       "\"argv\":[\"/usr/bin/gcc\"]},"
       "\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "a refused pattern without its reason"},
      {"\"source\":\"main.c\",\"filename\":[\".c\"],\"compile\":{\"argv\":[\"/usr/bin/gcc\"]},"
       "\"argv\":[\"/warmbox/init\",\"/x\"]",
       true, false, "filename as an array"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      char doc[4096];
      prof_t *p = NULL;
      wb_err_t err;
      const char *lim = strstr (minimal_profile, "\"limits\":");
      if (cases[i].compiled_limits)
        snprintf (doc, sizeof doc,
                  "{\"language\":\"c\",\"version\":\"1\",\"image\":\"i:1\",\"seccomp\":\"s\",%s,%s",
                  cases[i].head, compiled_limits);
      else
        snprintf (doc, sizeof doc,
                  "{\"language\":\"c\",\"version\":\"1\",\"image\":\"i:1\",\"seccomp\":\"s\",%s,%s",
                  cases[i].head, lim);
      int rc = prof_parse (doc, strlen (doc), minimal_seccomp, strlen (minimal_seccomp), &p, &err);
      ok ((rc == 0) == cases[i].good, "%s: %s%s%s", cases[i].why,
          cases[i].good ? "taken" : "refused", rc < 0 ? " -- " : "", rc < 0 ? err.msg : "");
      if (p && i == 0)
        {
          ok (p->compile_argc == 2 && strcmp (p->compile_argv[1], "main.c") == 0
                  && p->compile_argv[2] == NULL && strcmp (p->source, "main.c") == 0,
              "the compile argv and the source are kept");
          is_int (prof_memory_mb (p, &p->def), 256,
                  "the sandbox's memory: the compiler's when larger");
          prof_limits_t l = p->def;
          l.memory_mb = 300;
          is_int (prof_memory_mb (p, &l), 300, "the program's when larger");
        }
      if (p && i == 1)
        is_int (prof_memory_mb (p, &p->def), 64, "without a compile stage: the program's");
      if (p && strcmp (cases[i].why, "the java source rule") == 0)
        ok (p->java_source && p->n_name_suffixes == 0, "the java source rule is kept");
      if (p && strcmp (cases[i].why, "filename suffixes and a refused pattern") == 0)
        ok (!p->java_source && p->n_name_suffixes == 2 && strcmp (p->name_suffixes[1], ".h") == 0
                && p->n_name_refused == 1 && strcmp (p->name_refused[0].pattern, "_*") == 0
                && strcmp (p->name_refused[0].reason, "no") == 0,
            "the filename rules are kept");
      prof_free (p);
    }
}

static void
test_real_profiles (void)
{
  prof_set_t *set = NULL;
  wb_err_t err;
  ok (prof_load_dir (WB_DEFAULT_PROFILES_DIR, &set, &err) == 0, "the shipped profiles load: %s",
      set ? "" : err.msg);
  if (set == NULL)
    return;
  ok (prof_find (set, "python") && prof_find (set, "javascript"), "python and javascript exist");
  prof_set_free (set);
}

static void
test_runsc (void)
{
  const char *sc = "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\"],"
                   "\"action\":\"SCMP_ACT_ALLOW\"},{\"names\":[\"clone3\"],\"action\":"
                   "\"SCMP_ACT_ERRNO\",\"errnoRet\":38}]}";
  char prof[4096];
  prof_t *p = NULL, *q = NULL;
  wb_err_t err;

  snprintf (prof, sizeof prof, "%.*s\"runtime\":\"runsc\",%s", 1, minimal_profile,
            minimal_profile + 1);
  ok (prof_parse (prof, strlen (prof), sc, strlen (sc), &p, &err) == 0,
      "a runsc profile parses: %s", p ? "" : err.msg);
  ok (prof_parse (minimal_profile, strlen (minimal_profile), sc, strlen (sc), &q, &err) == 0,
      "the same under runc");
  if (p && q)
    {
      ok (strstr (q->seccomp_json, "\"errnoRet\":38") != NULL, "runc keeps clone3 -> ENOSYS");
      ok (strstr (p->seccomp_json, "errnoRet") == NULL,
          "runsc lets clone3 through (gVisor ignores errnoRet)");
    }
  prof_free (p);
  prof_free (q);
}

int
main (void)
{
  test_seccomp_check ();
  test_seccomp_policy ();
  test_runsc ();
  test_parse ();
  test_stages ();
  test_real_profiles ();
  return tap_done ();
}

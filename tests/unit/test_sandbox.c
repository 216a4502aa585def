/* The sandbox module's pure half: the create body carries every hardening
 * setting of DESIGN.md and the four labels, fails closed when memory runs
 * out at any allocation, and the pool key and owner checks say what they
 * should.  (Creates, removals and the reaper against the fake engine are
 * in test_exec.c.) */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "failmalloc.h"
#include "sandbox_int.h"
#include "tap.h"
#include "warmbox/sandbox.h"

static const char *minimal_seccomp
    = "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\",\"write\"],"
      "\"action\":\"SCMP_ACT_ALLOW\"}]}";

#define LIMITS                                                                                     \
  "\"limits\":{"                                                                                   \
  "\"default\":{\"timeout_ms\":1000,\"memory_mb\":64,\"cpus\":1,\"pids\":16,\"tmpfs_mb\":8,"       \
  "\"output_bytes\":100,\"code_bytes\":100,\"stdin_bytes\":100,\"nofile\":64,\"fsize_mb\":1},"     \
  "\"max\":{\"timeout_ms\":2000,\"memory_mb\":128,\"cpus\":2,\"pids\":32,\"tmpfs_mb\":16,"         \
  "\"output_bytes\":200,\"code_bytes\":200,\"stdin_bytes\":200,\"nofile\":128,\"fsize_mb\":2}}"

static cJSON *
get (cJSON *o, const char *path)
{
  char buf[256], *save = NULL;
  snprintf (buf, sizeof buf, "%s", path);
  for (char *k = strtok_r (buf, ".", &save); k && o; k = strtok_r (NULL, ".", &save))
    o = cJSON_GetObjectItemCaseSensitive (o, k);
  return o;
}

static int
array_has (cJSON *a, const char *prefix)
{
  cJSON *it;
  cJSON_ArrayForEach (it, a)
  {
    if (cJSON_IsString (it) && strncmp (it->valuestring, prefix, strlen (prefix)) == 0)
      return 1;
  }
  return 0;
}

static const char *
label (cJSON *j, const char *name)
{
  return cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (get (j, "Labels"), name));
}

/* Every hardening field of a body, checked; the number that failed. */
static int
hardening_missing (const char *body, const prof_t *p, const prof_limits_t *lim)
{
  cJSON *j = cJSON_Parse (body);
  const char *tmpfs;
  int bad = 0;

  if (j == NULL)
    return 100;
  tmpfs = cJSON_GetStringValue (
      cJSON_GetObjectItemCaseSensitive (get (j, "HostConfig.Tmpfs"), "/tmp"));
  bad += !(tmpfs && strstr (tmpfs, "noexec") && strstr (tmpfs, "nosuid")
           && strstr (tmpfs, "nodev"));
  bad += strcmp (cJSON_GetStringValue (get (j, "HostConfig.NetworkMode")) ?: "", "none") != 0;
  bad += !cJSON_IsTrue (get (j, "NetworkDisabled"));
  bad += !cJSON_IsTrue (get (j, "HostConfig.ReadonlyRootfs"));
  bad += !array_has (get (j, "HostConfig.CapDrop"), "ALL");
  bad += !array_has (get (j, "HostConfig.SecurityOpt"), "no-new-privileges");
  bad += !array_has (get (j, "HostConfig.SecurityOpt"), "seccomp={");
  bad += cJSON_GetNumberValue (get (j, "HostConfig.PidsLimit")) != lim->pids;
  bad += cJSON_GetNumberValue (get (j, "HostConfig.Memory")) != prof_memory_mb (p, lim) * 1048576.0;
  bad += cJSON_GetNumberValue (get (j, "HostConfig.MemorySwap"))
         != prof_memory_mb (p, lim) * 1048576.0;
  bad += cJSON_GetNumberValue (get (j, "HostConfig.NanoCpus")) != lim->cpus * 1e9;
  bad += cJSON_GetArraySize (get (j, "HostConfig.Ulimits")) != 5;
  /* warmbox's init is PID 1 itself; any other argv under the engine's. */
  bad += cJSON_IsTrue (get (j, "HostConfig.Init")) == prof_runs_warmbox_init (p);
  bad += strcmp (cJSON_GetStringValue (get (j, "HostConfig.LogConfig.Type")) ?: "", "none") != 0;
  bad += cJSON_IsTrue (get (j, "HostConfig.AutoRemove"));
  bad += strncmp (cJSON_GetStringValue (get (j, "User")) ?: "0", "0", 1) == 0;
  bad += cJSON_GetArraySize (get (j, "Cmd"))
         != (int) (p->argc + (p->source ? 3 : 0) + (p->java_source ? 1 : 0)
                   + (p->compile_argv ? 2 + p->compile_argc : 0));
  bad += label (j, "warmbox.instance") == NULL || label (j, "warmbox.owner") == NULL
         || label (j, "warmbox.pool") == NULL || label (j, "warmbox.language") == NULL;
  cJSON_Delete (j);
  return bad;
}

static void
test_body (const prof_t *p)
{
  sbx_identity_t id = {"sha256:abc", "inst", "host/boot/1/2", "python/x/y", 23456, NULL};
  wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;
  cJSON *j;

  ok (sbx_body (p, &p->def, &id, &body, &err) == 0, "a body builds");
  is_int (hardening_missing (body.data, p, &p->def), 0, "every hardening field is there");
  j = cJSON_Parse (body.data);
  is_str (cJSON_GetStringValue (get (j, "User")), "23456:23456", "non-root User");
  is_str (cJSON_GetStringValue (get (j, "Image")), "sha256:abc", "the image is pinned by id");
  is_str (label (j, "warmbox.instance"), "inst", "instance label");
  is_str (label (j, "warmbox.owner"), "host/boot/1/2", "owner label");
  is_str (label (j, "warmbox.pool"), "python/x/y", "pool label");
  is_str (label (j, "warmbox.language"), "python", "language label");
  ok (cJSON_IsTrue (get (j, "OpenStdin")) && cJSON_IsTrue (get (j, "StdinOnce"))
          && !cJSON_IsTrue (get (j, "Tty")),
      "OpenStdin, StdinOnce, no Tty");
  {
    cJSON *env = get (j, "Env"), *e;
    size_t found = 0;
    bool home = false;
    cJSON_ArrayForEach (e, env)
    {
      const char *s = cJSON_GetStringValue (e);
      home = home || (s && strcmp (s, "HOME=/tmp") == 0);
      for (size_t i = 0; s && i < p->n_env; i++)
        found += strcmp (s, p->env[i]) == 0;
    }
    ok (home && p->n_env > 0 && found == p->n_env, "Env: the daemon's own, then the profile's %zu",
        p->n_env);
  }
  cJSON_Delete (j);
  wb_buf_free (&body);
}

static void
test_template (const prof_t *p)
{
  wb_err_t err;
  sbx_tmpl_t *t = sbx_tmpl_new (p, &p->def, "sha256:0123456789abcdef0123456789", NULL, &err);
  wb_buf_t a = WB_BUF_INIT, b = WB_BUF_INIT;
  prof_limits_t big = p->def;
  char key[SBX_KEY_MAX];

  if (!ok (t != NULL, "a template builds"))
    return;
  ok (strncmp (sbx_tmpl_key (t), "python/sha256:0123456789ab/", 27) == 0
          && strlen (sbx_tmpl_key (t)) == 27 + 12,
      "pool key = language/image id/profile hash (%s)", sbx_tmpl_key (t));
  big.memory_mb *= 2;
  sbx_pool_key (p, &big, "sha256:0123456789abcdef0123456789", key);
  ok (strncmp (key, sbx_tmpl_key (t), strlen (sbx_tmpl_key (t))) == 0 && strstr (key, "/m") != NULL,
      "a non-default memory limit gets a key of its own (%s)", key);
  ok (sbx_tmpl_render (t, "inst", "own/er/1/2", 20001, &a, &err) == 0
          && sbx_tmpl_render (t, "inst", "own/er/1/2", 20002, &b, &err) == 0,
      "renders twice");
  is_int (hardening_missing (a.data, p, &p->def), 0, "a rendered body is whole");
  ok (strstr (a.data, "\"User\":\"20001:20001\"") && strstr (b.data, "\"User\":\"20002:20002\""),
      "each render carries its own uid");
  ok (strstr (a.data, "\"warmbox.owner\":\"own/er/1/2\"")
          && strstr (a.data, "\"warmbox.instance\":\"inst\""),
      "owner and instance stamped");
  wb_buf_free (&a);
  wb_buf_free (&b);
  sbx_tmpl_free (t);
}

/* Fail each allocation in turn: a body either comes out whole or not at
 * all (out left empty). */
static void
test_fail_closed (const prof_t *p)
{
  int partial = 0, failures = 0, tries = 0;

  for (long n = 1; n < 100000; n++)
    {
      sbx_identity_t id = {"sha256:abc", "inst", "o/w/n/er", "k", 20000, NULL};
      wb_buf_t body = WB_BUF_INIT, r = WB_BUF_INIT;
      wb_err_t err;
      sbx_tmpl_t *t;
      int rc, rc2 = -1;
      bool fired;

      failmalloc_arm (n);
      rc = sbx_body (p, &p->def, &id, &body, &err);
      t = sbx_tmpl_new (p, &p->def, "sha256:abc", NULL, &err);
      if (t)
        rc2 = sbx_tmpl_render (t, "inst", "o/w/n/er", 20001, &r, &err);
      fired = failmalloc_fired ();
      failmalloc_arm (0);
      tries++;
      if (rc == 0 ? hardening_missing (body.data, p, &p->def) != 0 : body.len != 0)
        partial++, printf ("# allocation %ld: sbx_body rc %d, %zu bytes\n", n, rc, body.len);
      if (rc2 == 0 ? hardening_missing (r.data, p, &p->def) != 0 : r.len != 0)
        partial++, printf ("# allocation %ld: render rc %d, %zu bytes\n", n, rc2, r.len);
      failures += rc < 0;
      wb_buf_free (&body);
      wb_buf_free (&r);
      sbx_tmpl_free (t);
      if (!fired)
        break;
    }
  ok (tries > 50, "%d allocations tried, one failing each time", tries - 1);
  ok (failures > 0, "failures were reported (%d)", failures);
  is_int (partial, 0, "no body ever came out without a hardening field");
}

static char *inspect_of (const sbx_tmpl_t *t, void (*tweak) (cJSON *o));
static void no_init (cJSON *o);

static void
test_runsc (void)
{
  const char *prof = "{\"language\":\"py\",\"version\":\"1\",\"image\":\"img:1\",\"argv\":[\"/x\"],"
                     "\"seccomp\":\"s.json\",\"runtime\":\"runsc\"," LIMITS "}";
  sbx_identity_t id = {"sha256:1", "i", "o", "k", 20000, NULL};
  wb_buf_t body = WB_BUF_INIT;
  prof_t *p = NULL;
  wb_err_t err;

  ok (prof_parse (prof, strlen (prof), minimal_seccomp, strlen (minimal_seccomp), &p, &err) == 0,
      "a runsc profile parses");
  if (p == NULL)
    return;
  must (sbx_body (p, &p->def, &id, &body, &err));
  ok (strstr (body.data, "\"PidsLimit\":272") != NULL,
      "runsc: PidsLimit = pids + 256 for gVisor's own threads");
  ok (strstr (body.data, "\"Runtime\":\"runsc\"") != NULL, "runtime from the profile");
  ok (strstr (body.data, "\"Init\":true") != NULL,
      "an argv without warmbox's init runs under the engine's init (it reaps)");
  {
    sbx_tmpl_t *t = sbx_tmpl_new (p, &p->def, "sha256:0", NULL, NULL);
    char *j = t ? inspect_of (t, no_init) : NULL;
    ok (j && sbx_verify_created (t, j, strlen (j), &err) < 0 && strstr (err.msg, "runs no init"),
        "and a container created without it is refused: %s", j ? err.msg : "(no template)");
    free (j);
    sbx_tmpl_free (t);
  }
  wb_buf_free (&body);
  prof_free (p);
}

static unsigned long long
start_time_of (long pid)
{
  char path[64], buf[1024];
  unsigned long long start = 0;
  FILE *f;
  size_t n;
  char *q;

  snprintf (path, sizeof path, "/proc/%ld/stat", pid);
  f = fopen (path, "re");
  n = f ? fread (buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose (f);
  buf[n] = '\0';
  q = strrchr (buf, ')');
  for (int field = 2; field < 22 && q; field++)
    q = strchr (q + 1, ' ');
  if (q)
    sscanf (q, " %llu", &start);
  return start;
}

static void
test_owner (void)
{
  char label[256];
  long parent = (long) getppid ();

  snprintf (label, sizeof label, "h/b/%ld/%llu", parent, start_time_of (parent));
  ok (!sbx_owner_is_dead (label, "h", "b"), "a live process's label is alive");
  snprintf (label, sizeof label, "h/b/%ld/%llu", parent, start_time_of (parent) + 1);
  ok (sbx_owner_is_dead (label, "h", "b"), "its pid with another start time is another process");
  snprintf (label, sizeof label, "h/b/%ld/%llu", (long) getpid (),
            start_time_of ((long) getpid ()));
  ok (!sbx_owner_is_dead (label, "h", "b"), "our own label is alive");
  snprintf (label, sizeof label, "h/b/%ld/%llu", (long) getpid (),
            start_time_of ((long) getpid ()) + 1);
  ok (sbx_owner_is_dead (label, "h", "b"), "our pid with another start time is a daemon we "
                                           "replaced (restarted as PID 1 of a container)");
  ok (!sbx_owner_is_dead ("other/b/1/1", "h", "b"), "another host's label is never judged");
  ok (sbx_owner_is_dead ("h/old/1/1", "h", "b"), "a label of an earlier boot is dead");
  ok (sbx_owner_is_dead ("h/b/999999999/1", "h", "b"), "a pid that does not exist is dead");
  ok (!sbx_owner_is_dead ("garbage", "h", "b") && !sbx_owner_is_dead (NULL, "h", "b"),
      "a malformed label is left alone");
}

/* Java's body: the init names the source after the code's class
 * (--java, right after the default source name). */
static void
test_java (const prof_t *p)
{
  sbx_identity_t id = {"sha256:abc", "inst", "host/boot/1/2", "java/x/y", 23456, NULL};
  wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;
  cJSON *j, *cmd;

  ok (sbx_body (p, &p->def, &id, &body, &err) == 0
          && hardening_missing (body.data, p, &p->def) == 0,
      "java: a body builds, with every hardening field");
  j = cJSON_Parse (body.data);
  cmd = get (j, "Cmd");
  ok (p->java_source
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 1)) ?: "", "--source") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 2)) ?: "", "Main.java") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 3)) ?: "", "--java") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 4)) ?: "", "--compile") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, cJSON_GetArraySize (cmd) - 1))
                         ?: "",
                     "Main")
                 == 0,
      "java: Cmd is /warmbox/init --source Main.java --java --compile N ... -- java ... Main");
  cJSON_Delete (j);
  wb_buf_free (&body);
}

/* A compiled language's body: the init runs the stages, the compiler
 * writes to the one exec tmpfs, the sandbox has the compiler's memory. */
static void
test_compiled (const prof_t *p)
{
  sbx_identity_t id = {"sha256:abc", "inst", "host/boot/1/2", "c/x/y", 23456, NULL};
  wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;
  cJSON *j, *cmd;

  ok (sbx_body (p, &p->def, &id, &body, &err) == 0, "c: a body builds");
  is_int (hardening_missing (body.data, p, &p->def), 0, "c: every hardening field is there");
  j = cJSON_Parse (body.data);
  cmd = get (j, "Cmd");
  ok (cJSON_GetArraySize (cmd) > 6
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 0)) ?: "", "/warmbox/init") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 1)) ?: "", "--source") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 2)) ?: "", "main.c") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 3)) ?: "", "--compile") == 0
          && strcmp (cJSON_GetStringValue (cJSON_GetArrayItem (cmd, cJSON_GetArraySize (cmd) - 1))
                         ?: "",
                     "/build/main")
                 == 0,
      "c: Cmd is /warmbox/init --source main.c --compile N ... -- /build/main");
  const char *build = cJSON_GetStringValue (
      cJSON_GetObjectItemCaseSensitive (get (j, "HostConfig.Tmpfs"), "/build"));
  ok (build && strstr (build, "rw,exec,") && strstr (build, "nosuid") && strstr (build, "nodev"),
      "c: /build is a tmpfs with exec (nosuid, nodev): %s", build ? build : "none");
  ok (cJSON_GetNumberValue (get (j, "HostConfig.Memory")) == p->def.compile_memory_mb * 1048576.0
          && p->def.compile_memory_mb > p->def.memory_mb,
      "c: the sandbox's memory is the compiler's (larger) limit");
  cJSON_Delete (j);
  wb_buf_free (&body);
}

/* An engine's inspect of a created container, as Docker shows one: the
 * body's HostConfig and Config.User; tweak edits it first. */
static char *
inspect_of (const sbx_tmpl_t *t, void (*tweak) (cJSON *o))
{
  wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;
  cJSON *b, *o = cJSON_CreateObject (), *cfg;
  char *out;

  must (sbx_tmpl_render (t, "i", "o/w/n/er", 20003, &body, &err));
  b = cJSON_Parse (body.data);
  cJSON *hc = cJSON_DetachItemFromObject (b, "HostConfig");
  cJSON_AddItemToObject (o, "HostConfig", hc);
  /* PID 1, as Docker's inspect shows it: the command's first word. */
  cJSON_AddStringToObject (
      o, "Path", cJSON_GetStringValue (cJSON_GetArrayItem (cJSON_GetObjectItem (b, "Cmd"), 0)));
  if (tweak)
    tweak (o);
  cfg = cJSON_AddObjectToObject (o, "Config");
  cJSON_AddStringToObject (cfg, "User", cJSON_GetStringValue (cJSON_GetObjectItem (b, "User")));
  out = cJSON_PrintUnformatted (o);
  cJSON_Delete (o);
  cJSON_Delete (b);
  wb_buf_free (&body);
  return out;
}

static void
no_memory (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_ReplaceItemInObject (hc, "Memory", cJSON_CreateNumber (0));
}
static void
no_pids (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_ReplaceItemInObject (hc, "PidsLimit", cJSON_CreateNumber (0));
}
static void
writable_run (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_DeleteItemFromObject (cJSON_GetObjectItem (hc, "Tmpfs"), "/run");
  cJSON_AddStringToObject (cJSON_GetObjectItem (hc, "Tmpfs"), "/run",
                           "rw,rprivate,nosuid,nodev,tmpcopyup");
}
static void
cap_added (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON *a = cJSON_CreateArray ();
  cJSON_AddItemToArray (a, cJSON_CreateString ("SYS_ADMIN"));
  cJSON_DeleteItemFromObject (hc, "CapAdd");
  cJSON_AddItemToObject (hc, "CapAdd", a);
}
static void
podman_caps (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  const char *caps[] = {"AUDIT_WRITE", "CHOWN",   "DAC_OVERRIDE",     "FOWNER",    "FSETID",
                        "KILL",        "MKNOD",   "NET_BIND_SERVICE", "NET_RAW",   "SETFCAP",
                        "SETGID",      "SETPCAP", "SETUID",           "SYS_CHROOT"};
  cJSON_ReplaceItemInObject (hc, "CapDrop", cJSON_CreateStringArray (caps, 14));
}
static void
some_caps (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  const char *caps[] = {"NET_RAW", "MKNOD"};
  cJSON_ReplaceItemInObject (hc, "CapDrop", cJSON_CreateStringArray (caps, 2));
}
static void
no_seccomp (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  const char *opts[] = {"no-new-privileges"};
  cJSON_ReplaceItemInObject (hc, "SecurityOpt", cJSON_CreateStringArray (opts, 1));
}
static void
host_network (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_ReplaceItemInObject (hc, "NetworkMode", cJSON_CreateString ("host"));
}
static void
no_init (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_ReplaceItemInObject (hc, "Init", cJSON_CreateFalse ());
}
static void
docker_init_over (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_ReplaceItemInObject (hc, "Init", cJSON_CreateTrue ());
}
static void
other_pid1 (cJSON *o)
{
  cJSON_ReplaceItemInObject (o, "Path", cJSON_CreateString ("/bin/sh"));
}
static void
no_path (cJSON *o)
{
  cJSON_DeleteItemFromObject (o, "Path");
}
static void
no_nproc (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_ReplaceItemInObject (hc, "Ulimits", cJSON_CreateArray ());
}
static void
rw_root (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_ReplaceItemInObject (hc, "ReadonlyRootfs", cJSON_CreateFalse ());
}
static void
unconfined (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  const char *opts[] = {"no-new-privileges", "seccomp=unconfined"};
  cJSON_ReplaceItemInObject (hc, "SecurityOpt", cJSON_CreateStringArray (opts, 2));
}
static void
privileged (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_AddTrueToObject (hc, "Privileged");
}
static void
bind_mount (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  const char *b[] = {"/:/host"};
  cJSON_AddItemToObject (hc, "Binds", cJSON_CreateStringArray (b, 1));
}
static void
host_pid (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_AddStringToObject (hc, "PidMode", "host");
}

static void
kcore_unmasked (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  const char *m[] = {"/proc/acpi", "/sys/firmware"};
  cJSON_DeleteItemFromObject (hc, "MaskedPaths");
  cJSON_AddItemToObject (hc, "MaskedPaths", cJSON_CreateStringArray (m, 2));
}
static void
nothing_masked (cJSON *o)
{
  cJSON *hc = cJSON_GetObjectItem (o, "HostConfig");
  cJSON_DeleteItemFromObject (hc, "MaskedPaths");
}

/* Issue 12: an engine is used only when a container created there holds
 * every setting; Podman gets its dialect. */
static void
test_verify (const prof_t *p)
{
  static const struct
  {
    void (*tweak) (cJSON *o);
    const char *name, *says;
  } bad[] = {
      {no_memory, "Memory 0 (rootless Podman on cgroup v1)", "Memory"},
      {no_pids, "no pids limit", "PidsLimit"},
      {writable_run, "a writable /run added (Podman's read-only tmpfs)", "/run"},
      {cap_added, "a capability added", "capability"},
      {some_caps, "only some capabilities dropped", "capability"},
      {no_seccomp, "no seccomp option", "seccomp"},
      {host_network, "the host network", "network"},
      {docker_init_over, "an engine's init over warmbox's (the program could kill it)",
       "an init over /warmbox/init"},
      {other_pid1, "another first process", "first process is /bin/sh, not /warmbox/init"},
      {no_path, "no first process shown", "(none shown)"},
      {no_nproc, "no ulimits", "limit"},
      {rw_root, "a writable root", "read-only"},
      {unconfined, "seccomp=unconfined", "seccomp"},
      {privileged, "privileged", "privileged"},
      {bind_mount, "a bind mount of the host", "host files"},
      {host_pid, "the host's pid namespace", "PidMode"},
      {kcore_unmasked, "a shorter masked list (an engine's own)", "mask /proc/asound"},
      {nothing_masked, "MaskedPaths ignored", "mask"},
  };
  sbx_dialect_t d = {true, "/srv/seccomp/python.json"};
  sbx_tmpl_t *t = sbx_tmpl_new (p, &p->def, "sha256:0", NULL, NULL);
  sbx_tmpl_t *pt = sbx_tmpl_new (p, &p->def, "sha256:0", &d, NULL);
  wb_buf_t body = WB_BUF_INIT, sec = WB_BUF_INIT;
  wb_err_t err;
  char *j;

  if (!ok (t && pt, "templates for Docker and Podman"))
    return;
  j = inspect_of (t, NULL);
  ok (sbx_verify_created (t, j, strlen (j), &err) == 0, "a container as asked passes");
  free (j);
  j = inspect_of (t, podman_caps);
  ok (sbx_verify_created (t, j, strlen (j), &err) == 0,
      "Podman's way of showing every capability dropped passes");
  free (j);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      j = inspect_of (t, bad[i].tweak);
      memset (&err, 0, sizeof err);
      ok (sbx_verify_created (t, j, strlen (j), &err) < 0 && strcasestr (err.msg, bad[i].says),
          "refused: %s (%s)", bad[i].name, err.msg);
      free (j);
    }
  ok (sbx_verify_created (t, "{", 1, &err) < 0 && sbx_verify_created (t, NULL, 0, &err) < 0,
      "an unreadable reply is refused");

  /* Podman's body: the allowlist by path, /run and /var/tmp read-only. */
  must (sbx_tmpl_render (pt, "i", "o/w/n/er", 20004, &body, &err));
  ok (strstr (body.data, "\"seccomp=/srv/seccomp/python.json\"") && !strstr (body.data, "SCMP_ACT"),
      "Podman: seccomp= names the file on its host, nothing inline");
  ok (strstr (body.data, "\"/run\":\"ro,noexec") && strstr (body.data, "\"/var/tmp\":\"ro,noexec"),
      "Podman: /run and /var/tmp mounted read-only, noexec");
  j = inspect_of (pt, writable_run);
  ok (sbx_verify_created (pt, j, strlen (j), &err) < 0 && strstr (err.msg, "/run"),
      "Podman: /run made writable anyway is refused (%s)", err.msg);
  free (j);
  j = inspect_of (pt, NULL);
  ok (sbx_verify_created (pt, j, strlen (j), &err) == 0, "Podman: a container as asked passes");
  free (j);
  ok (sbx_seccomp_with (p, sbx_catatonit_syscalls, &sec, &err) == 0
          && strstr (sec.data, "\"signalfd4\"") && strstr (sec.data, "\"vfork\"")
          && strstr (sec.data, "\"close_range\""),
      "the allowlist for catatonit adds signalfd4, vfork, close_range");
  {
    const char *s = strstr (sec.data, "\"read\"");
    ok (s && !strstr (s + 1, "\"read\","), "and names each call once");
  }
  wb_buf_free (&body);
  wb_buf_free (&sec);
  sbx_tmpl_free (t);
  sbx_tmpl_free (pt);
}

/* Issue 34, item 7: every live sandbox of the host has a uid of its own,
 * whichever daemon or engine made it (sandbox/uids.c). */
static void
test_uid_leases (void)
{
  char tmpl[] = "/tmp/warmbox-uids-test.XXXXXX", dir[64];
  uint32_t a_cursor = 5, b_cursor = 5, uid, seen[100];
  int fds[100], n = 0, status;
  wb_err_t err;
  bool distinct = true;

  if (!ok (mkdtemp (tmpl) != NULL, "a private folder"))
    return;
  snprintf (dir, sizeof dir, "%s/run/uids", tmpl);
  int dirfd = sbx_uid_dir_open (dir, &err);
  ok (dirfd >= 0, "the lease folder is made, parents too");
  /* Two "daemons" from the same place of the range: no uid twice. */
  for (int i = 0; i < 50; i++)
    {
      if (sbx_uid_lease (dirfd, &a_cursor, &uid, &fds[n], &err) == 0)
        seen[n++] = uid;
      if (sbx_uid_lease (dirfd, &b_cursor, &uid, &fds[n], &err) == 0)
        seen[n++] = uid;
    }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < i; k++)
      distinct = distinct && seen[i] != seen[k];
  ok (n == 100 && distinct && seen[0] >= SBX_UID_FIRST && seen[0] < SBX_UID_FIRST + SBX_UID_COUNT,
      "two holders from one cursor: 100 uids, all different (%d)", n);
  /* One given back is another's again. */
  uint32_t back = seen[0], c = 5;
  close (fds[0]);
  ok (sbx_uid_lease (dirfd, &c, &uid, &fds[0], &err) == 0 && uid == back,
      "a lease given back is taken again (%u)", uid);
  /* A process that dies gives its leases back without a word. */
  pid_t pid = fork ();
  if (pid == 0)
    {
      uint32_t cc = 1000, u;
      int f;
      _exit (sbx_uid_lease (dirfd, &cc, &u, &f, &err) == 0 && u == SBX_UID_FIRST + 1000 ? 0 : 1);
    }
  waitpid (pid, &status, 0);
  c = 1000;
  int f = -1;
  ok (WIFEXITED (status) && WEXITSTATUS (status) == 0
          && sbx_uid_lease (dirfd, &c, &uid, &f, &err) == 0 && uid == SBX_UID_FIRST + 1000,
      "a dead process's lease is free again (%u)", uid);
  if (f >= 0)
    close (f);
  for (int i = 0; i < n; i++)
    close (fds[i]);
  close (dirfd);
  chmod (dir, 0777);
  ok (sbx_uid_dir_open (dir, &err) < 0 && strstr (err.msg, "no one else"),
      "a lease folder others may write to is refused");
  char cmd[128];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", tmpl);
  if (system (cmd) != 0)
    printf ("# could not remove %s\n", tmpl);
}

int
main (void)
{
  prof_set_t *set = NULL;
  wb_err_t err;
  const prof_t *p;

  test_uid_leases ();
  failmalloc_install ();
  if (!ok (prof_load_dir (WB_DEFAULT_PROFILES_DIR, &set, &err) == 0, "shipped profiles load")
      || (p = prof_find (set, "python")) == NULL)
    return tap_done ();
  test_body (p);
  test_template (p);
  test_fail_closed (p);
  test_runsc ();
  test_owner ();
  test_verify (p);
  if (prof_find (set, "c"))
    test_compiled (prof_find (set, "c"));
  else
    ok (false, "the shipped c profile");
  if (prof_find (set, "java"))
    test_java (prof_find (set, "java"));
  else
    ok (false, "the shipped java profile");
  prof_set_free (set);
  return tap_done ();
}

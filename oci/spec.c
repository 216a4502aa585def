/* oci/spec.c: a Docker create body as an OCI runtime configuration, and
 * back (what the bundle enforces, as inspect shows it).
 *
 * Fail closed: a field this helper does not translate and that could
 * weaken a sandbox is refused, never dropped.  The translation gives every
 * container what Docker gives warmbox's: new pid, ipc, uts, mount, cgroup
 * and network namespaces (the network one empty: loopback only), Docker's
 * masked and read-only /proc and /sys paths, no capabilities, a private
 * /dev with the default devices, the cgroup limits, rlimits, the seccomp
 * allowlist and no-new-privileges. */
#define _GNU_SOURCE
#include "oci/oci.h"
#include "warmbox/engine.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPU_PERIOD 100000

void
oci_request_free (oci_request_t *r)
{
  if (r == NULL)
    return;
  cJSON_Delete (r->labels);
  free (r->seccomp_opt);
  free (r->runtime);
  free (r->hostconfig);
  memset (r, 0, sizeof *r);
}

static const cJSON *
get (const cJSON *o, const char *key)
{
  return cJSON_GetObjectItemCaseSensitive (o, key);
}

/* Add item under key (or to an array with key NULL); -1 on memory. */
static int
put (cJSON *o, const char *key, cJSON *item)
{
  if (item == NULL)
    return -1;
  if (!(key ? cJSON_AddItemToObject (o, key, item) : cJSON_AddItemToArray (o, item)))
    {
      cJSON_Delete (item);
      return -1;
    }
  return 0;
}

static cJSON *
put_obj (cJSON *o, const char *key, bool array)
{
  cJSON *c = array ? cJSON_CreateArray () : cJSON_CreateObject ();
  return put (o, key, c) < 0 ? NULL : c;
}

#define TRY(x)                                                                                     \
  do                                                                                               \
    {                                                                                              \
      if ((x) < 0)                                                                                 \
        goto oom;                                                                                  \
    }                                                                                              \
  while (0)
#define TRYP(x)                                                                                    \
  do                                                                                               \
    {                                                                                              \
      if ((x) == NULL)                                                                             \
        goto oom;                                                                                  \
    }                                                                                              \
  while (0)

/* A mount: destination, type, source and its options. */
static int
put_mount (cJSON *mounts, const char *dest, const char *type, const char *source,
           const char *const *opts, size_t n_opts)
{
  cJSON *m = cJSON_CreateObject (), *o;

  if (m == NULL || put (m, "destination", cJSON_CreateString (dest)) < 0
      || put (m, "type", cJSON_CreateString (type)) < 0
      || put (m, "source", cJSON_CreateString (source)) < 0
      || (o = put_obj (m, "options", true)) == NULL)
    goto fail;
  for (size_t i = 0; i < n_opts; i++)
    if (put (o, NULL, cJSON_CreateString (opts[i])) < 0)
      goto fail;
  return put (mounts, NULL, m);
fail:
  cJSON_Delete (m);
  return -1;
}

/* A tmpfs from Docker's "rw,noexec,nosuid,nodev,size=64m,mode=1777". */
static int
put_tmpfs (cJSON *mounts, const char *dest, const char *options, wb_err_t *err)
{
  const char *opts[16];
  size_t n = 0;
  char *copy = strdup (options), *save = NULL, *tok;
  int rc;

  if (copy == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  for (tok = strtok_r (copy, ",", &save); tok; tok = strtok_r (NULL, ",", &save))
    {
      /* Only the options Docker's tmpfs takes; a bind or a propagation
       * option has no place on a sandbox's tmpfs. */
      static const char *const ok[] = {"rw", "ro", "noexec", "exec", "nosuid", "nodev", "suid"};
      bool known = strncmp (tok, "size=", 5) == 0 || strncmp (tok, "mode=", 5) == 0;
      for (size_t i = 0; i < WB_ARRAY_SIZE (ok) && !known; i++)
        known = strcmp (tok, ok[i]) == 0;
      if (!known || n == WB_ARRAY_SIZE (opts) || strcmp (tok, "suid") == 0)
        {
          rc = wb_error (err, WB_E_INVALID, "tmpfs %s: option %.40s is not taken", dest, tok);
          free (copy);
          return rc;
        }
      opts[n++] = tok;
    }
  rc = put_mount (mounts, dest, "tmpfs", "tmpfs", opts, n);
  free (copy);
  return rc < 0 ? wb_error (err, WB_E_NOMEM, "out of memory") : 0;
}

/* An absolute path of plain components: no "." or "..", no empty one,
 * not "/" itself. */
static bool
path_ok (const char *p)
{
  size_t n = p ? strlen (p) : 0;
  if (p == NULL || p[0] != '/' || n < 2 || n > 200 || p[n - 1] == '/' || strstr (p, "//")
      || strstr (p, "/./") || strstr (p, "/../") || (n >= 2 && strcmp (p + n - 2, "/.") == 0)
      || (n >= 3 && strcmp (p + n - 3, "/..") == 0))
    return false;
  for (; *p; p++)
    if (!isalnum ((unsigned char) *p) && strchr ("/._-", *p) == NULL)
      return false;
  return true;
}

/* Is path dir or below it (whole components)? */
static bool
under (const char *path, const char *dir)
{
  size_t n = strlen (dir);
  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* "1000:1000" (numbers only: a name would be looked up in the image). */
static int
parse_user (const char *s, uint32_t *uid, uint32_t *gid)
{
  unsigned long u, g;
  char *end;

  if (s == NULL || !isdigit ((unsigned char) s[0]))
    return -1;
  errno = 0;
  u = strtoul (s, &end, 10);
  if (errno || *end != ':' || !isdigit ((unsigned char) end[1]))
    return -1;
  g = strtoul (end + 1, &end, 10);
  if (errno || *end || u == 0 || g == 0 || u > 0xfffffffeUL || g > 0xfffffffeUL)
    return -1;
  *uid = (uint32_t) u;
  *gid = (uint32_t) g;
  return 0;
}

static bool
number_in (const cJSON *n, double lo, double hi)
{
  return cJSON_IsNumber (n) && n->valuedouble >= lo && n->valuedouble <= hi
         && n->valuedouble == floor (n->valuedouble);
}

/* Docker's seccomp option, inline JSON, as an OCI linux.seccomp: the same
 * fields less the comments (warmbox's allowlists are written in the
 * shape both read). */
static cJSON *
seccomp_of (const char *opt, wb_err_t *err)
{
  cJSON *in, *out = NULL, *calls, *c;
  static const char *const top[] = {"defaultAction", "defaultErrnoRet", "architectures"};
  static const char *const rule[] = {"names", "action", "errnoRet", "args"};

  if (strncmp (opt, "seccomp=", 8) != 0 || opt[8] != '{')
    {
      wb_error (err, WB_E_INVALID, "the seccomp option must be the allowlist itself (inline JSON)");
      return NULL;
    }
  if ((in = cJSON_Parse (opt + 8)) == NULL || !cJSON_IsString (get (in, "defaultAction"))
      || !cJSON_IsArray (get (in, "syscalls")))
    {
      wb_error (err, WB_E_INVALID, "the seccomp allowlist is not one");
      cJSON_Delete (in);
      return NULL;
    }
  {
    /* Deny by default: an error, a kill or a trap (LOG, NOTIFY and TRACE
     * let the call run or hand it to someone else). */
    static const char *const deny[] = {"SCMP_ACT_ERRNO", "SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS",
                                       "SCMP_ACT_KILL_THREAD", "SCMP_ACT_TRAP"};
    bool denies = false;
    for (size_t i = 0; i < WB_ARRAY_SIZE (deny); i++)
      denies |= strcmp (get (in, "defaultAction")->valuestring, deny[i]) == 0;
    if (!denies)
      {
        wb_error (err, WB_E_INVALID, "the seccomp allowlist must deny by default");
        goto done;
      }
  }
  if (get (in, "archMap") || get (in, "listenerPath") || get (in, "flags"))
    {
      wb_error (err, WB_E_INVALID,
                "the seccomp allowlist must deny by default, with no archMap, "
                "listener or flags");
      goto done;
    }
  TRYP (out = cJSON_CreateObject ());
  for (size_t i = 0; i < WB_ARRAY_SIZE (top); i++)
    if (get (in, top[i]))
      TRY (put (out, top[i], cJSON_Duplicate (get (in, top[i]), true)));
  TRYP (calls = put_obj (out, "syscalls", true));
  cJSON_ArrayForEach (c, get (in, "syscalls"))
  {
    cJSON *r;
    if (!cJSON_IsArray (get (c, "names")) || !cJSON_IsString (get (c, "action"))
        || get (c, "includes") || get (c, "excludes"))
      {
        wb_error (err, WB_E_INVALID, "a seccomp rule without names or action, or with includes");
        cJSON_Delete (out);
        out = NULL;
        goto done;
      }
    TRYP (r = cJSON_CreateObject ());
    TRY (put (calls, NULL, r));
    for (size_t i = 0; i < WB_ARRAY_SIZE (rule); i++)
      if (get (c, rule[i]))
        TRY (put (r, rule[i], cJSON_Duplicate (get (c, rule[i]), true)));
  }
done:
  cJSON_Delete (in);
  return out;
oom:
  cJSON_Delete (in);
  cJSON_Delete (out);
  wb_error (err, WB_E_NOMEM, "out of memory");
  return NULL;
}

/* HostConfig keys this helper reads; any other with a value that is not
 * empty, false or zero is refused. */
static const char *const hostconfig_known[]
    = {"NetworkMode", "ReadonlyRootfs", "Tmpfs",     "CapDrop",    "CapAdd",
       "SecurityOpt", "PidsLimit",      "Memory",    "MemorySwap", "NanoCpus",
       "Ulimits",     "Init",           "LogConfig", "Runtime",    "IpcMode",
       "AutoRemove",  "PidMode",        "UTSMode",   "MaskedPaths"};

static bool
empty_value (const cJSON *v)
{
  return cJSON_IsNull (v) || cJSON_IsFalse (v) || (cJSON_IsNumber (v) && v->valuedouble == 0)
         || (cJSON_IsString (v) && v->valuestring[0] == '\0')
         || ((cJSON_IsArray (v) || cJSON_IsObject (v)) && v->child == NULL);
}

cJSON *
oci_spec_from_body (const char *json, size_t len, const oci_spec_opts_t *opts, oci_request_t *req,
                    wb_err_t *err)
{
  const char *rootfs = opts->rootfs, *cgroup_path = opts->cgroup_path, *init = opts->init;
  bool runsc_ok = opts->runsc_ok, userns;
  cJSON *body = cJSON_ParseWithLength (json, len), *spec = NULL, *v;
  cJSON *proc, *user, *caps, *rl, *root, *mounts, *lnx, *res, *ns, *sec;
  const cJSON *hc, *cmd, *env, *item;
  uint32_t uid, gid;
  wb_err_t e2;

  memset (req, 0, sizeof *req);
  if (body == NULL || !cJSON_IsObject (body))
    {
      wb_error (err, WB_E_INVALID, "the create body is not a JSON object");
      goto fail;
    }
  hc = get (body, "HostConfig");
  cmd = get (body, "Cmd");
  env = get (body, "Env");
#define REFUSE(...)                                                                                \
  do                                                                                               \
    {                                                                                              \
      wb_error (err, WB_E_INVALID, __VA_ARGS__);                                                   \
      goto fail;                                                                                   \
    }                                                                                              \
  while (0)
  if (!cJSON_IsString (get (body, "Image")) || strlen (get (body, "Image")->valuestring) >= 80)
    REFUSE ("Image must be an image id or tag");
  snprintf (req->image, sizeof req->image, "%s", get (body, "Image")->valuestring);
  if (!cJSON_IsObject (hc))
    REFUSE ("HostConfig is required");
  if (!cJSON_IsArray (cmd) || cJSON_GetArraySize (cmd) == 0 || cJSON_GetArraySize (cmd) > 256)
    REFUSE ("Cmd must be a list of 1 to 256 words");
  if (get (body, "Entrypoint") && !empty_value (get (body, "Entrypoint")))
    REFUSE ("Entrypoint is not taken (Cmd is the whole command)");
  if (cJSON_IsTrue (get (body, "Tty")))
    REFUSE ("a terminal is not taken");
  if (parse_user (cJSON_GetStringValue (get (body, "User")), &uid, &gid) < 0)
    REFUSE ("User must be uid:gid, numbers, not root");
  cJSON_ArrayForEach (item, hc)
  {
    bool known = false;
    for (size_t i = 0; i < WB_ARRAY_SIZE (hostconfig_known) && !known; i++)
      known = strcmp (item->string, hostconfig_known[i]) == 0;
    if (!known && !empty_value (item))
      REFUSE ("HostConfig.%.60s is not taken by this engine", item->string);
  }
  if (!cJSON_IsString (get (hc, "NetworkMode"))
      || strcmp (get (hc, "NetworkMode")->valuestring, "none"))
    REFUSE ("NetworkMode must be none");
  /* The root is the image store's own folder, shared by every container
   * of the image (no overlay): it is never writable. */
  if (!cJSON_IsTrue (get (hc, "ReadonlyRootfs")))
    REFUSE ("ReadonlyRootfs must be true (the image's root is shared)");
  {
    /* Every spec masks eng_masked_paths: a body may name those, no other. */
    const cJSON *p;
    cJSON_ArrayForEach (p, get (hc, "MaskedPaths"))
    {
      bool ours = false;
      for (size_t i = 0; cJSON_IsString (p) && eng_masked_paths[i] && !ours; i++)
        ours = strcmp (p->valuestring, eng_masked_paths[i]) == 0;
      if (!ours)
        REFUSE ("MaskedPaths: only the engine's own list is masked");
    }
  }
  {
    static const char *const modes[] = {"IpcMode", "PidMode", "UTSMode"};
    for (size_t i = 0; i < WB_ARRAY_SIZE (modes); i++)
      {
        const char *m = cJSON_GetStringValue (get (hc, modes[i]));
        if (m && *m && strcmp (m, "private") != 0)
          REFUSE ("%s must be private", modes[i]);
      }
  }
  if (get (hc, "CapAdd") && !empty_value (get (hc, "CapAdd")))
    REFUSE ("no capability may be added");
  {
    bool all = false, nnp = false;
    cJSON_ArrayForEach (item, get (hc, "CapDrop")) all
        |= cJSON_IsString (item) && strcmp (item->valuestring, "ALL") == 0;
    if (!all)
      REFUSE ("CapDrop must be ALL");
    cJSON_ArrayForEach (item, get (hc, "SecurityOpt"))
    {
      const char *o = cJSON_GetStringValue (item);
      if (o == NULL)
        REFUSE ("SecurityOpt must be strings");
      if (strcmp (o, "no-new-privileges") == 0 || strcmp (o, "no-new-privileges:true") == 0)
        nnp = true;
      else if (strncmp (o, "seccomp=", 8) == 0 && req->seccomp_opt == NULL)
        {
          if ((req->seccomp_opt = strdup (o)) == NULL)
            goto oom;
        }
      else
        REFUSE ("SecurityOpt %.40s is not taken", o);
    }
    if (!nnp || req->seccomp_opt == NULL)
      REFUSE ("SecurityOpt must hold no-new-privileges and a seccomp allowlist");
  }
  if (!number_in (get (hc, "Memory"), 4 << 20, 1e12)
      || !number_in (get (hc, "MemorySwap"), get (hc, "Memory")->valuedouble, 1e12)
      || !number_in (get (hc, "PidsLimit"), 1, 1 << 22)
      || !number_in (get (hc, "NanoCpus"), 1e7, 1024e9))
    REFUSE ("Memory, MemorySwap, PidsLimit and NanoCpus must be set, in range");
  {
    const char *rt = cJSON_GetStringValue (get (hc, "Runtime"));
    if ((req->runtime = strdup (rt && *rt ? rt : "runc")) == NULL)
      goto oom;
    if (strcmp (req->runtime, "runc") != 0 && !(runsc_ok && strcmp (req->runtime, "runsc") == 0))
      REFUSE ("runtime %.40s is not on this engine (it runs runc%s)", req->runtime,
              runsc_ok ? " and runsc" : "");
  }
  /* gVisor keeps its own ids: the user namespace is runc's. */
  userns = opts->userns_base > 0 && strcmp (req->runtime, "runc") == 0;
  if (userns && opts->userns_base > 0xffffffffu - 65536)
    REFUSE ("the user namespace's base is out of range");
  if ((req->labels = cJSON_Duplicate (get (body, "Labels"), true)) == NULL
      && get (body, "Labels") != NULL)
    goto oom;
  if (req->labels == NULL && (req->labels = cJSON_CreateObject ()) == NULL)
    goto oom;
  if (!cJSON_IsObject (req->labels))
    REFUSE ("Labels must be an object");
  cJSON_ArrayForEach (item, req->labels) if (!cJSON_IsString (item))
      REFUSE ("a label's value must be a string");
  if ((req->hostconfig = cJSON_PrintUnformatted (hc)) == NULL)
    goto oom;

  TRYP (spec = cJSON_CreateObject ());
  TRY (put (spec, "ociVersion", cJSON_CreateString ("1.0.2")));
  TRYP (proc = put_obj (spec, "process", false));
  TRY (put (proc, "terminal", cJSON_CreateFalse ()));
  TRYP (user = put_obj (proc, "user", false));
  TRY (put (user, "uid", cJSON_CreateNumber (uid)));
  TRY (put (user, "gid", cJSON_CreateNumber (gid)));
  TRYP (v = put_obj (proc, "args", true));
  if (cJSON_IsTrue (get (hc, "Init")))
    {
      TRY (put (v, NULL, cJSON_CreateString ("/sbin/docker-init")));
      TRY (put (v, NULL, cJSON_CreateString ("--")));
    }
  cJSON_ArrayForEach (item, cmd)
  {
    if (!cJSON_IsString (item))
      REFUSE ("Cmd must be strings");
    TRY (put (v, NULL, cJSON_CreateString (item->valuestring)));
  }
  TRYP (v = put_obj (proc, "env", true));
  cJSON_ArrayForEach (item, env)
  {
    if (!cJSON_IsString (item) || strchr (item->valuestring, '=') == NULL)
      REFUSE ("Env must be NAME=value strings");
    TRY (put (v, NULL, cJSON_CreateString (item->valuestring)));
  }
  {
    const char *wd = cJSON_GetStringValue (get (body, "WorkingDir"));
    if (wd && *wd && !path_ok (wd))
      REFUSE ("WorkingDir must be an absolute plain path");
    TRY (put (proc, "cwd", cJSON_CreateString (wd && *wd ? wd : "/")));
  }
  TRYP (caps = put_obj (proc, "capabilities", false));
  {
    static const char *const sets[]
        = {"bounding", "effective", "inheritable", "permitted", "ambient"};
    for (size_t i = 0; i < WB_ARRAY_SIZE (sets); i++)
      TRYP (put_obj (caps, sets[i], true));
  }
  TRYP (rl = put_obj (proc, "rlimits", true));
  cJSON_ArrayForEach (item, get (hc, "Ulimits"))
  {
    const char *name = cJSON_GetStringValue (get (item, "Name"));
    char type[32];
    cJSON *r;
    /* Only the limits warmbox sets: rtprio, nice or memlock would give a
     * program what the sandbox must not (a real-time class escapes the
     * CPU quota). */
    static const char *const limits[] = {"nofile", "nproc", "fsize", "cpu", "core"};
    bool known = false;
    for (size_t i = 0; name && i < WB_ARRAY_SIZE (limits); i++)
      known |= strcmp (name, limits[i]) == 0;
    if (!known)
      REFUSE ("ulimit %.16s is not taken (nofile, nproc, fsize, cpu, core)",
              name ? name : "(none)");
    if (!number_in (get (item, "Soft"), 0, 1e15)
        || !number_in (get (item, "Hard"), get (item, "Soft")->valuedouble, 1e15))
      REFUSE ("a ulimit needs Soft and Hard, Soft at most Hard, below 10^15");
    snprintf (type, sizeof type, "RLIMIT_%s", name);
    for (char *p = type; *p; p++)
      {
        if (!isalpha ((unsigned char) *p) && *p != '_')
          REFUSE ("ulimit %.16s is not one", name);
        *p = (char) toupper ((unsigned char) *p);
      }
    TRYP (r = cJSON_CreateObject ());
    TRY (put (rl, NULL, r));
    TRY (put (r, "type", cJSON_CreateString (type)));
    TRY (put (r, "hard", cJSON_CreateNumber (get (item, "Hard")->valuedouble)));
    TRY (put (r, "soft", cJSON_CreateNumber (get (item, "Soft")->valuedouble)));
  }
  TRY (put (proc, "noNewPrivileges", cJSON_CreateTrue ()));
  TRYP (root = put_obj (spec, "root", false));
  TRY (put (root, "path", cJSON_CreateString (rootfs ? rootfs : "rootfs")));
  TRY (put (root, "readonly", cJSON_CreateBool (cJSON_IsTrue (get (hc, "ReadonlyRootfs")))));
  {
    const char *h = cJSON_GetStringValue (get (body, "Hostname"));
    if (h && (strlen (h) > 63 || strspn (h, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen (h)))
      REFUSE ("Hostname must be a plain host name");
    TRY (put (spec, "hostname", cJSON_CreateString (h && *h ? h : "sandbox")));
  }
  TRYP (mounts = put_obj (spec, "mounts", true));
  {
    static const char *const proc_o[] = {"nosuid", "noexec", "nodev"};
    static const char *const dev_o[] = {"nosuid", "strictatime", "mode=755", "size=65536k"};
    static const char *const pts_o[]
        = {"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"};
    static const char *const shm_o[] = {"nosuid", "noexec", "nodev", "mode=1777", "size=65536k"};
    static const char *const mq_o[] = {"nosuid", "noexec", "nodev"};
    static const char *const sys_o[] = {"nosuid", "noexec", "nodev", "ro"};
    static const char *const cg_o[] = {"nosuid", "noexec", "nodev", "relatime", "ro"};
    static const char *const init_o[] = {"bind", "ro", "nosuid", "nodev"};
    TRY (put_mount (mounts, "/proc", "proc", "proc", proc_o, WB_ARRAY_SIZE (proc_o)));
    TRY (put_mount (mounts, "/dev", "tmpfs", "tmpfs", dev_o, WB_ARRAY_SIZE (dev_o)));
    TRY (put_mount (mounts, "/dev/pts", "devpts", "devpts", pts_o, WB_ARRAY_SIZE (pts_o)));
    TRY (put_mount (mounts, "/dev/shm", "tmpfs", "shm", shm_o, WB_ARRAY_SIZE (shm_o)));
    TRY (put_mount (mounts, "/dev/mqueue", "mqueue", "mqueue", mq_o, WB_ARRAY_SIZE (mq_o)));
    TRY (put_mount (mounts, "/sys", "sysfs", "sysfs", sys_o, WB_ARRAY_SIZE (sys_o)));
    TRY (put_mount (mounts, "/sys/fs/cgroup", "cgroup", "cgroup", cg_o, WB_ARRAY_SIZE (cg_o)));
    cJSON_ArrayForEach (item, get (hc, "Tmpfs"))
    {
      if (!path_ok (item->string) || !cJSON_IsString (item) || under (item->string, "/proc")
          || under (item->string, "/sys") || under (item->string, "/dev")
          || under (item->string, "/sbin/docker-init"))
        REFUSE ("a tmpfs must be at a plain path outside /proc, /sys and /dev");
      if (put_tmpfs (mounts, item->string, item->valuestring, &e2) < 0)
        {
          *err = e2;
          goto fail;
        }
    }
    if (cJSON_IsTrue (get (hc, "Init")))
      {
        if (init == NULL)
          REFUSE ("Init: this engine has no init to run");
        TRY (put_mount (mounts, "/sbin/docker-init", "bind", init, init_o, WB_ARRAY_SIZE (init_o)));
      }
  }
  TRYP (lnx = put_obj (spec, "linux", false));
  TRYP (res = put_obj (lnx, "resources", false));
  {
    cJSON *mem, *cpu, *pids, *dev, *d;
    TRYP (mem = put_obj (res, "memory", false));
    TRY (put (mem, "limit", cJSON_CreateNumber (get (hc, "Memory")->valuedouble)));
    TRY (put (mem, "swap", cJSON_CreateNumber (get (hc, "MemorySwap")->valuedouble)));
    TRYP (cpu = put_obj (res, "cpu", false));
    TRY (put (cpu, "quota",
              cJSON_CreateNumber (round (get (hc, "NanoCpus")->valuedouble * CPU_PERIOD / 1e9))));
    TRY (put (cpu, "period", cJSON_CreateNumber (CPU_PERIOD)));
    TRYP (pids = put_obj (res, "pids", false));
    TRY (put (pids, "limit", cJSON_CreateNumber (get (hc, "PidsLimit")->valuedouble)));
    /* Deny every device but the runtime's defaults (null, zero, full,
     * random, urandom, tty, ptmx), which it allows itself. */
    TRYP (dev = put_obj (res, "devices", true));
    TRYP (d = cJSON_CreateObject ());
    TRY (put (dev, NULL, d));
    TRY (put (d, "allow", cJSON_CreateFalse ()));
    TRY (put (d, "access", cJSON_CreateString ("rwm")));
  }
  TRY (put (lnx, "cgroupsPath", cJSON_CreateString (cgroup_path)));
  TRYP (ns = put_obj (lnx, "namespaces", true));
  {
    static const char *const kinds[] = {"pid", "network", "ipc", "uts", "mount", "cgroup", "user"};
    for (size_t i = 0; i < WB_ARRAY_SIZE (kinds) - (userns ? 0 : 1); i++)
      {
        cJSON *n;
        TRYP (n = cJSON_CreateObject ());
        TRY (put (ns, NULL, n));
        TRY (put (n, "type", cJSON_CreateString (kinds[i])));
      }
  }
  if (userns)
    {
      /* Ids 0-65535 of the container are base...base+65535 of the host: its
       * root (runc's init while it sets up) is no one on the host. */
      static const char *const maps[] = {"uidMappings", "gidMappings"};
      for (size_t i = 0; i < 2; i++)
        {
          cJSON *arr, *m;
          TRYP (arr = put_obj (lnx, maps[i], true));
          TRYP (m = cJSON_CreateObject ());
          TRY (put (arr, NULL, m));
          TRY (put (m, "containerID", cJSON_CreateNumber (0)));
          TRY (put (m, "hostID", cJSON_CreateNumber (opts->userns_base)));
          TRY (put (m, "size", cJSON_CreateNumber (65536)));
        }
    }
  if ((sec = seccomp_of (req->seccomp_opt, &e2)) == NULL)
    {
      *err = e2;
      goto fail;
    }
  TRY (put (lnx, "seccomp", sec));
  {
    /* Docker's defaults (oci/defaults.go). */
    static const char *const ro[]
        = {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"};
    cJSON *m, *r;
    TRYP (m = put_obj (lnx, "maskedPaths", true));
    for (size_t i = 0; eng_masked_paths[i]; i++)
      TRY (put (m, NULL, cJSON_CreateString (eng_masked_paths[i])));
    TRYP (r = put_obj (lnx, "readonlyPaths", true));
    for (size_t i = 0; i < WB_ARRAY_SIZE (ro); i++)
      TRY (put (r, NULL, cJSON_CreateString (ro[i])));
  }
  cJSON_Delete (body);
  return spec;
#undef REFUSE
oom:
  wb_error (err, WB_E_NOMEM, "out of memory");
fail:
  cJSON_Delete (body);
  cJSON_Delete (spec);
  oci_request_free (req);
  return NULL;
}

/* ---- back: what the bundle enforces ---------------------------------- */

static double
num1 (const cJSON *o, const char *key)
{
  const cJSON *v = get (o, key);
  return cJSON_IsNumber (v) ? v->valuedouble : 0;
}

static double
num_at (const cJSON *o, const char *a, const char *b, const char *c)
{
  return num1 (get (get (o, a), b), c);
}

static bool
has_namespace (const cJSON *spec, const char *type)
{
  const cJSON *n;
  cJSON_ArrayForEach (n, get (get (spec, "linux"), "namespaces"))
  {
    const char *t = cJSON_GetStringValue (get (n, "type"));
    if (t && strcmp (t, type) == 0 && get (n, "path") == NULL)
      return true;
  }
  return false;
}

cJSON *
oci_spec_hostconfig (const cJSON *spec, const char *seccomp_opt, const char *runtime)
{
  cJSON *hc = cJSON_CreateObject (), *tmpfs, *drop, *add, *sec, *ul;
  const cJSON *proc = get (spec, "process"), *item, *lnx = get (spec, "linux");
  bool no_caps = true, init = false;
  wb_err_t err;

  TRYP (hc);
  TRY (put (hc, "NetworkMode",
            cJSON_CreateString (has_namespace (spec, "network") ? "none" : "host")));
  TRY (put (hc, "IpcMode", cJSON_CreateString (has_namespace (spec, "ipc") ? "private" : "host")));
  TRY (put (hc, "PidMode", cJSON_CreateString (has_namespace (spec, "pid") ? "" : "host")));
  TRY (put (hc, "UTSMode", cJSON_CreateString (has_namespace (spec, "uts") ? "" : "host")));
  TRY (put (hc, "UsernsMode", cJSON_CreateString (has_namespace (spec, "user") ? "private" : "")));
  TRY (put (hc, "ReadonlyRootfs",
            cJSON_CreateBool (cJSON_IsTrue (get (get (spec, "root"), "readonly")))));
  {
    cJSON *masked;
    TRYP (masked = put_obj (hc, "MaskedPaths", true));
    cJSON_ArrayForEach (item, get (lnx, "maskedPaths")) if (cJSON_IsString (item))
        TRY (put (masked, NULL, cJSON_CreateString (item->valuestring)));
  }
  TRY (put (hc, "Memory", cJSON_CreateNumber (num_at (lnx, "resources", "memory", "limit"))));
  TRY (put (hc, "MemorySwap", cJSON_CreateNumber (num_at (lnx, "resources", "memory", "swap"))));
  TRY (put (hc, "PidsLimit", cJSON_CreateNumber (num_at (lnx, "resources", "pids", "limit"))));
  {
    double quota = num_at (lnx, "resources", "cpu", "quota");
    double period = num_at (lnx, "resources", "cpu", "period");
    TRY (put (hc, "NanoCpus", cJSON_CreateNumber (period > 0 ? round (quota * 1e9 / period) : 0)));
  }
  cJSON_ArrayForEach (item, get (proc, "capabilities")) no_caps &= cJSON_GetArraySize (item) == 0;
  TRYP (add = put_obj (hc, "CapAdd", true));
  TRYP (drop = put_obj (hc, "CapDrop", true));
  if (no_caps)
    TRY (put (drop, NULL, cJSON_CreateString ("ALL")));
  else
    TRY (put (add, NULL, cJSON_CreateString ("(the bundle grants capabilities)")));
  TRYP (sec = put_obj (hc, "SecurityOpt", true));
  if (cJSON_IsTrue (get (proc, "noNewPrivileges")))
    TRY (put (sec, NULL, cJSON_CreateString ("no-new-privileges")));
  if (seccomp_opt)
    {
      cJSON *want = seccomp_of (seccomp_opt, &err);
      if (want && cJSON_Compare (want, get (lnx, "seccomp"), true))
        {
          if (put (sec, NULL, cJSON_CreateString (seccomp_opt)) < 0)
            {
              cJSON_Delete (want);
              goto oom;
            }
        }
      cJSON_Delete (want);
    }
  TRYP (tmpfs = put_obj (hc, "Tmpfs", false));
  cJSON_ArrayForEach (item, get (spec, "mounts"))
  {
    const char *dest = cJSON_GetStringValue (get (item, "destination"));
    const char *type = cJSON_GetStringValue (get (item, "type"));
    const cJSON *o;
    wb_buf_t opts = WB_BUF_INIT;
    if (dest == NULL || type == NULL)
      continue;
    if (strcmp (dest, "/sbin/docker-init") == 0 && strcmp (type, "bind") == 0)
      init = true;
    if (strcmp (type, "tmpfs") != 0 || strncmp (dest, "/dev", 4) == 0)
      continue;
    cJSON_ArrayForEach (o, get (item, "options")) if (cJSON_IsString (o))
    {
      if ((opts.len && wb_buf_append (&opts, ",", 1) < 0)
          || wb_buf_append_str (&opts, o->valuestring) < 0)
        {
          wb_buf_free (&opts);
          goto oom;
        }
    }
    if (put (tmpfs, dest, cJSON_CreateString (opts.data ? opts.data : "")) < 0)
      {
        wb_buf_free (&opts);
        goto oom;
      }
    wb_buf_free (&opts);
  }
  {
    const cJSON *args = get (proc, "args");
    const char *a0 = cJSON_GetStringValue (cJSON_GetArrayItem (args, 0));
    TRY (put (hc, "Init", cJSON_CreateBool (init && a0 && strcmp (a0, "/sbin/docker-init") == 0)));
  }
  TRYP (ul = put_obj (hc, "Ulimits", true));
  cJSON_ArrayForEach (item, get (proc, "rlimits"))
  {
    const char *type = cJSON_GetStringValue (get (item, "type"));
    char name[32];
    cJSON *u;
    if (type == NULL || strncmp (type, "RLIMIT_", 7) != 0 || strlen (type) > 24)
      continue;
    snprintf (name, sizeof name, "%s", type + 7);
    for (char *p = name; *p; p++)
      *p = (char) tolower ((unsigned char) *p);
    TRYP (u = cJSON_CreateObject ());
    TRY (put (ul, NULL, u));
    TRY (put (u, "Name", cJSON_CreateString (name)));
    TRY (put (u, "Soft", cJSON_CreateNumber (num1 (item, "soft"))));
    TRY (put (u, "Hard", cJSON_CreateNumber (num1 (item, "hard"))));
  }
  TRY (put (hc, "Runtime", cJSON_CreateString (runtime ? runtime : "runc")));
  return hc;
oom:
  cJSON_Delete (hc);
  return NULL;
}

char *
oci_spec_user (const cJSON *spec)
{
  const cJSON *u = get (get (spec, "process"), "user");
  char buf[32];
  snprintf (buf, sizeof buf, "%.0f:%.0f", num1 (u, "uid"), num1 (u, "gid"));
  return strdup (buf);
}

int
oci_spec_process (const cJSON *spec, cJSON *inspect)
{
  const cJSON *args = get (get (spec, "process"), "args"), *w;
  const char *a0 = cJSON_GetStringValue (cJSON_GetArrayItem (args, 0));
  cJSON *rest = cJSON_AddArrayToObject (inspect, "Args");

  if (rest == NULL || !cJSON_AddStringToObject (inspect, "Path", a0 ? a0 : ""))
    return -1;
  cJSON_ArrayForEach (w, args)
  {
    if (w == args->child || !cJSON_IsString (w))
      continue;
    if (!cJSON_AddItemToArray (rest, cJSON_CreateString (w->valuestring)))
      return -1;
  }
  return 0;
}

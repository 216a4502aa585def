/* sandbox/body.c: the container create body, built fail-closed.
 *
 * Every field is added through add_*() / push_*(), which report a failed
 * allocation; one failure fails the whole body.  cJSON's own Add* helpers
 * return NULL on failure and are easy to ignore, which is how a container
 * could once have been created without its hardening. */
#define _GNU_SOURCE
#include "sandbox_int.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#define RUNSC_HOST_THREADS 256 /* headroom for gVisor's own host threads */

#define TRY(x)                                                                                     \
  do                                                                                               \
    {                                                                                              \
      if ((x) < 0)                                                                                 \
        goto oom;                                                                                  \
    }                                                                                              \
  while (0)

struct sbx_tmpl
{
  cJSON *root; /* the body with a placeholder identity */
  char key[SBX_KEY_MAX];
  char *language;
  char *image_id;
};

static int
add_item (cJSON *obj, const char *key, cJSON *item)
{
  if (item == NULL)
    return -1;
  if (!cJSON_AddItemToObject (obj, key, item))
    {
      cJSON_Delete (item);
      return -1;
    }
  return 0;
}

static int
add_str (cJSON *obj, const char *key, const char *value)
{
  return add_item (obj, key, cJSON_CreateString (value));
}

static int
add_num (cJSON *obj, const char *key, double value)
{
  return add_item (obj, key, cJSON_CreateNumber (value));
}

static int
add_bool (cJSON *obj, const char *key, bool value)
{
  return add_item (obj, key, cJSON_CreateBool (value));
}

/* Add an empty object or array under key; NULL on failure. */
static cJSON *
add_container (cJSON *obj, const char *key, bool array)
{
  cJSON *c = array ? cJSON_CreateArray () : cJSON_CreateObject ();
  return add_item (obj, key, c) < 0 ? NULL : c;
}

static int
push (cJSON *arr, cJSON *item)
{
  if (item == NULL)
    return -1;
  if (!cJSON_AddItemToArray (arr, item))
    {
      cJSON_Delete (item);
      return -1;
    }
  return 0;
}

static int
push_str (cJSON *arr, const char *s)
{
  return push (arr, cJSON_CreateString (s));
}

static int
push_ulimit (cJSON *arr, const char *name, double value)
{
  cJSON *u = cJSON_CreateObject ();

  if (u == NULL)
    return -1;
  if (add_str (u, "Name", name) < 0 || add_num (u, "Soft", value) < 0
      || add_num (u, "Hard", value) < 0)
    {
      cJSON_Delete (u);
      return -1;
    }
  return push (arr, u);
}

/* The whole body as a tree.  NULL on allocation failure. */
static cJSON *
build (const prof_t *p, const prof_limits_t *lim, const sbx_identity_t *id)
{
  cJSON *root = cJSON_CreateObject ();
  cJSON *cmd, *env, *labels, *hc, *tmpfs, *capdrop, *secopt, *ulimits, *logcfg;
  char user[32], tmpfs_opts[128];
  wb_buf_t seccomp_opt = WB_BUF_INIT;
  double mem = (double) prof_memory_mb (p, lim) * 1024.0 * 1024.0;
  /* CPU seconds: the wall limit (both stages') at full use of every allowed
   * CPU, plus one; the wall-clock SIGKILL normally comes first. */
  double cpu_s = ceil ((double) (p->max.timeout_ms + p->max.compile_timeout_ms) / 1000.0
                       * (lim->cpus < 1 ? 1 : lim->cpus))
                 + 1;
  char build_opts[128];

  if (root == NULL)
    return NULL;
  snprintf (user, sizeof user, "%u:%u", id->uid, id->uid);
  snprintf (tmpfs_opts, sizeof tmpfs_opts, "rw,noexec,nosuid,nodev,size=%um,mode=1777",
            lim->tmpfs_mb);
  /* What a compiler writes and the program then runs: the one place of
   * the sandbox where files may be executed (/tmp, the root: never). */
  snprintf (build_opts, sizeof build_opts, "rw,exec,nosuid,nodev,size=%um,mode=1777",
            lim->build_mb);
  /* Inline JSON (Docker), or a file on the engine's host (Podman reads
   * seccomp= as a path). */
  if (id->dialect && id->dialect->podman && id->dialect->seccomp_file == NULL)
    goto oom; /* never a Podman container without its allowlist (a bug: see daemon.c) */
  TRY (wb_buf_printf (&seccomp_opt, "seccomp=%s",
                      id->dialect && id->dialect->podman ? id->dialect->seccomp_file
                                                         : p->seccomp_json));

  TRY (add_str (root, "Image", id->image_id));
  TRY (add_str (root, "Hostname", "sandbox"));
  TRY (add_str (root, "User", user));
  TRY (add_str (root, "WorkingDir", "/tmp"));
  if ((cmd = add_container (root, "Cmd", true)) == NULL
      || (env = add_container (root, "Env", true)) == NULL
      || (labels = add_container (root, "Labels", false)) == NULL)
    goto oom;
  /* With a source file the init reads the frame and runs the stages:
   * "/warmbox/init --source NAME [--java] [--compile N WORD...] -- PROGRAM..."
   * (--java: the init names the file after the code's class). */
  TRY (push_str (cmd, p->argv[0]));
  if (p->source)
    {
      char n[16];
      TRY (push_str (cmd, "--source"));
      TRY (push_str (cmd, p->source));
      if (p->java_source)
        TRY (push_str (cmd, "--java"));
      if (p->compile_argv)
        {
          snprintf (n, sizeof n, "%zu", p->compile_argc);
          TRY (push_str (cmd, "--compile"));
          TRY (push_str (cmd, n));
          for (size_t i = 0; i < p->compile_argc; i++)
            TRY (push_str (cmd, p->compile_argv[i]));
        }
      TRY (push_str (cmd, "--"));
    }
  for (size_t i = 1; i < p->argc; i++)
    TRY (push_str (cmd, p->argv[i]));
  TRY (push_str (env, "HOME=/tmp"));
  TRY (push_str (env, "TMPDIR=/tmp"));
  TRY (push_str (env, "LANG=C.UTF-8"));
  TRY (push_str (env, "PATH=/usr/bin:/bin"));
  for (size_t i = 0; i < p->n_env; i++)
    TRY (push_str (env, p->env[i]));
  TRY (add_str (labels, "warmbox.instance", id->instance_id));
  TRY (add_str (labels, "warmbox.owner", id->owner));
  TRY (add_str (labels, "warmbox.pool", id->pool_key));
  TRY (add_str (labels, "warmbox.language", p->language));
  /* The frame goes to stdin; the container sees EOF when we half-close. */
  TRY (add_bool (root, "AttachStdin", true));
  TRY (add_bool (root, "AttachStdout", true));
  TRY (add_bool (root, "AttachStderr", true));
  TRY (add_bool (root, "OpenStdin", true));
  TRY (add_bool (root, "StdinOnce", true));
  TRY (add_bool (root, "Tty", false));
  TRY (add_bool (root, "NetworkDisabled", true));

  if ((hc = add_container (root, "HostConfig", false)) == NULL)
    goto oom;
  TRY (add_str (hc, "NetworkMode", "none"));
  TRY (add_bool (hc, "ReadonlyRootfs", true));
  if ((tmpfs = add_container (hc, "Tmpfs", false)) == NULL
      || (capdrop = add_container (hc, "CapDrop", true)) == NULL
      || (secopt = add_container (hc, "SecurityOpt", true)) == NULL
      || (ulimits = add_container (hc, "Ulimits", true)) == NULL
      || (logcfg = add_container (hc, "LogConfig", false)) == NULL)
    goto oom;
  TRY (add_str (tmpfs, "/tmp", tmpfs_opts));
  if (p->compile_argv && lim->build_mb > 0)
    TRY (add_str (tmpfs, "/build", build_opts));
  if (!(id->dialect && id->dialect->podman))
    {
      /* Docker masks its own list, which an older dockerd keeps shorter. */
      cJSON *masked = add_container (hc, "MaskedPaths", true);
      if (masked == NULL)
        goto oom;
      for (size_t i = 0; eng_masked_paths[i]; i++)
        TRY (push_str (masked, eng_masked_paths[i]));
    }
  if (id->dialect && id->dialect->podman)
    {
      /* Podman would mount these writable over the read-only root. */
      TRY (add_str (tmpfs, "/run", "ro,noexec,nosuid,nodev,size=16k,mode=755"));
      TRY (add_str (tmpfs, "/var/tmp", "ro,noexec,nosuid,nodev,size=16k,mode=755"));
    }
  TRY (push_str (capdrop, "ALL"));
  TRY (push_str (secopt, "no-new-privileges"));
  TRY (push_str (secopt, seccomp_opt.data));
  /* Under gVisor the pids cgroup counts the sandbox's own host threads
   * (the sentry's Go runtime), not the program's processes, which live in
   * gVisor's kernel; at the program's limit the sentry itself would run
   * out and the sandbox die.  The program stays bounded by its nproc
   * limit, enforced inside the sandbox. */
  TRY (add_num (hc, "PidsLimit",
                strcmp (p->runtime, "runsc") == 0 ? lim->pids + RUNSC_HOST_THREADS : lim->pids));
  TRY (add_num (hc, "Memory", mem));
  TRY (add_num (hc, "MemorySwap", mem));
  TRY (add_num (hc, "NanoCpus", round (lim->cpus * 1e9)));
  TRY (push_ulimit (ulimits, "nofile", lim->nofile));
  /* RLIMIT_NPROC counts per uid on the host; each container runs under a
   * uid of its own, so this bounds this container alone. */
  TRY (push_ulimit (ulimits, "nproc", lim->pids));
  TRY (push_ulimit (ulimits, "fsize", (double) lim->fsize_mb * 1024 * 1024));
  TRY (push_ulimit (ulimits, "cpu", cpu_s));
  TRY (push_ulimit (ulimits, "core", 0));
  /* warmbox's init is the sandbox's PID 1 itself: the kernel keeps the
   * program's signals from it, which it would not for a child of
   * docker-init.  Any other argv gets the engine's init to reap for it. */
  TRY (add_bool (hc, "Init", !prof_runs_warmbox_init (p)));
  TRY (add_str (logcfg, "Type", "none"));
  TRY (add_str (hc, "Runtime", p->runtime));
  TRY (add_str (hc, "IpcMode", "private"));
  TRY (add_bool (hc, "AutoRemove", false));
  wb_buf_free (&seccomp_opt);
  return root;

oom:
  wb_buf_free (&seccomp_opt);
  cJSON_Delete (root);
  return NULL;
}

static int
print_to (const cJSON *root, wb_buf_t *out)
{
  char *text = cJSON_PrintUnformatted (root);
  size_t before = out->len;
  int rc;

  if (text == NULL)
    return -1;
  rc = wb_buf_append_str (out, text);
  cJSON_free (text);
  if (rc < 0)
    out->len = before;
  return rc;
}

int
sbx_body (const prof_t *p, const prof_limits_t *lim, const sbx_identity_t *id, wb_buf_t *out,
          wb_err_t *err)
{
  cJSON *root = build (p, lim, id);
  int rc;

  if (root == NULL)
    return wb_error (err, WB_E_NOMEM, "container body: out of memory");
  rc = print_to (root, out);
  cJSON_Delete (root);
  return rc < 0 ? wb_error (err, WB_E_NOMEM, "container body: out of memory") : 0;
}

void
sbx_pool_key (const prof_t *p, const prof_limits_t *lim, const char *image_id,
              char out[SBX_KEY_MAX])
{
  int n = snprintf (out, SBX_KEY_MAX, "%s/%.19s/%.12s", p->language, image_id, p->hash);

  if (prof_memory_mb (p, lim) != prof_memory_mb (p, &p->def) && n > 0 && n < SBX_KEY_MAX)
    snprintf (out + n, SBX_KEY_MAX - (size_t) n, "/m%u", prof_memory_mb (p, lim));
}

sbx_tmpl_t *
sbx_tmpl_new (const prof_t *p, const prof_limits_t *lim, const char *image_id,
              const sbx_dialect_t *dialect, wb_err_t *err)
{
  sbx_tmpl_t *t = calloc (1, sizeof *t);
  sbx_identity_t id = {image_id, "", "", "", 0, dialect};

  if (t == NULL)
    goto oom;
  sbx_pool_key (p, lim, image_id, t->key);
  id.pool_key = t->key;
  t->language = strdup (p->language);
  t->image_id = strdup (image_id);
  if (t->language == NULL || t->image_id == NULL || (t->root = build (p, lim, &id)) == NULL)
    goto oom;
  return t;

oom:
  sbx_tmpl_free (t);
  wb_error (err, WB_E_NOMEM, "container template: out of memory");
  return NULL;
}

void
sbx_tmpl_free (sbx_tmpl_t *t)
{
  if (t == NULL)
    return;
  cJSON_Delete (t->root);
  free (t->language);
  free (t->image_id);
  free (t);
}

const char *
sbx_tmpl_key (const sbx_tmpl_t *t)
{
  return t->key;
}

const char *
sbx_tmpl_language (const sbx_tmpl_t *t)
{
  return t->language;
}

const char *
sbx_tmpl_image_id (const sbx_tmpl_t *t)
{
  return t->image_id;
}

/* Set an existing string field in place.  (cJSON_ReplaceItemInObject
 * goes on with a NULL key when its own copy of the key fails: not fail
 * closed.  cJSON_SetValuestring leaves the old value and says so.) */
static int
set_string (cJSON *obj, const char *key, const char *value)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, key);

  return item && cJSON_IsString (item) && cJSON_SetValuestring (item, value) ? 0 : -1;
}

/* Every stamp sets a field the template already has, so a failure leaves
 * nothing half-done that matters: the next render sets them all again, and
 * nothing is printed until all of them are in. */
int
sbx_tmpl_render (const sbx_tmpl_t *t, const char *instance_id, const char *owner, uint32_t uid,
                 wb_buf_t *out, wb_err_t *err)
{
  cJSON *labels = cJSON_GetObjectItemCaseSensitive (t->root, "Labels");
  char user[32];

  snprintf (user, sizeof user, "%u:%u", uid, uid);
  if (set_string (t->root, "User", user) < 0
      || set_string (labels, "warmbox.instance", instance_id) < 0
      || set_string (labels, "warmbox.owner", owner) < 0 || print_to (t->root, out) < 0)
    return wb_error (err, WB_E_NOMEM, "container body: out of memory");
  return 0;
}

/* ---- engines that differ ---------------------------------------------- */

const char *const sbx_catatonit_syscalls[] = {
    "signalfd4", "vfork", "close_range",    "getpgrp",      "setpgid", "prctl",    "ioctl",
    "kill",      "wait4", "rt_sigprocmask", "rt_sigaction", "getppid", "readlink", NULL,
};

int
sbx_seccomp_with (const prof_t *p, const char *const *extra, wb_buf_t *out, wb_err_t *err)
{
  cJSON *root = cJSON_Parse (p->seccomp_json), *rules, *rule, *names = NULL;
  int rc = -1;

  if (root == NULL)
    return wb_error (err, WB_E_NOMEM, "allowlist: out of memory or not JSON");
  rules = cJSON_GetObjectItemCaseSensitive (root, "syscalls");
  cJSON_ArrayForEach (rule, rules)
  {
    const char *action = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (rule, "action"));
    if (action && strcmp (action, "SCMP_ACT_ALLOW") == 0
        && cJSON_GetObjectItemCaseSensitive (rule, "args") == NULL)
      {
        names = cJSON_GetObjectItemCaseSensitive (rule, "names");
        break;
      }
  }
  if (!cJSON_IsArray (names))
    {
      wb_error (err, WB_E_INVALID, "the %s allowlist has no unconditional allow rule", p->language);
      goto out;
    }
  for (size_t i = 0; extra[i]; i++)
    {
      bool have = false;
      cJSON *n;
      cJSON_ArrayForEach (n, names) if (cJSON_IsString (n)
                                        && strcmp (n->valuestring, extra[i]) == 0) have
          = true;
      if (!have && !cJSON_AddItemToArray (names, cJSON_CreateString (extra[i])))
        {
          wb_error (err, WB_E_NOMEM, "allowlist: out of memory");
          goto out;
        }
    }
  if (print_to (root, out) < 0)
    {
      wb_error (err, WB_E_NOMEM, "allowlist: out of memory");
      goto out;
    }
  rc = 0;
out:
  cJSON_Delete (root);
  return rc;
}

static double
num (const cJSON *obj, const char *key)
{
  const cJSON *v = cJSON_GetObjectItemCaseSensitive (obj, key);
  return cJSON_IsNumber (v) ? v->valuedouble : -1;
}

static bool
str_in (const cJSON *arr, const char *want, size_t prefix)
{
  const cJSON *s;
  cJSON_ArrayForEach (s, arr) if (cJSON_IsString (s)
                                  && (prefix ? strncmp (s->valuestring, want, prefix) == 0
                                             : strcmp (s->valuestring, want) == 0)) return true;
  return false;
}

/* Docker's default capabilities: with none added, dropping them all is
 * dropping every one (Podman lists these instead of "ALL"). */
static bool
drops_all (const cJSON *drop)
{
  static const char *const defaults[] = {
      "AUDIT_WRITE",      "CHOWN",   "DAC_OVERRIDE", "FOWNER", "FSETID",  "KILL",   "MKNOD",
      "NET_BIND_SERVICE", "NET_RAW", "SETFCAP",      "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"};
  if (str_in (drop, "ALL", 0))
    return true;
  for (size_t i = 0; i < WB_ARRAY_SIZE (defaults); i++)
    {
      char cap[48];
      snprintf (cap, sizeof cap, "CAP_%s", defaults[i]);
      if (!str_in (drop, defaults[i], 0) && !str_in (drop, cap, 0))
        return false;
    }
  return true;
}

/* The ulimit of name want ("nofile") in an engine's list: Docker says
 * "nofile", Podman "RLIMIT_NOFILE".  -1 when absent. */
static double
ulimit_of (const cJSON *list, const char *want)
{
  const cJSON *u;
  cJSON_ArrayForEach (u, list)
  {
    const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (u, "Name"));
    if (name == NULL)
      continue;
    if (strncasecmp (name, "RLIMIT_", 7) == 0)
      name += 7;
    if (strcasecmp (name, want) == 0)
      return num (u, "Hard");
  }
  return -1;
}

int
sbx_verify_created (const sbx_tmpl_t *t, const char *json, size_t len, wb_err_t *err)
{
  const cJSON *want = cJSON_GetObjectItemCaseSensitive (t->root, "HostConfig");
  cJSON *root = cJSON_ParseWithLength (json ? json : "", len);
  const cJSON *hc = cJSON_GetObjectItemCaseSensitive (root, "HostConfig");
  const cJSON *cfg = cJSON_GetObjectItemCaseSensitive (root, "Config");
  static const char *const numbers[] = {"Memory", "MemorySwap", "PidsLimit", "NanoCpus"};
  const cJSON *item;
  int rc = -1;

  if (!cJSON_IsObject (hc))
    {
      wb_error (err, WB_E_ENGINE, "its inspect shows no HostConfig");
      goto out;
    }
  for (size_t i = 0; i < WB_ARRAY_SIZE (numbers); i++)
    if (num (hc, numbers[i]) != num (want, numbers[i]))
      {
        wb_error (err, WB_E_ENGINE, "it does not enforce %s (asked %.0f, the container has %.0f)",
                  numbers[i], num (want, numbers[i]), num (hc, numbers[i]));
        goto out;
      }
  if (!cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (hc, "ReadonlyRootfs")))
    {
      wb_error (err, WB_E_ENGINE, "its root file system is not read-only");
      goto out;
    }
  cJSON_ArrayForEach (item, cJSON_GetObjectItemCaseSensitive (want, "MaskedPaths"))
  {
    /* An engine that ignores MaskedPaths would leave /proc/kcore, keys... */
    if (cJSON_IsString (item)
        && !str_in (cJSON_GetObjectItemCaseSensitive (hc, "MaskedPaths"), item->valuestring, 0))
      {
        wb_error (err, WB_E_ENGINE, "it does not mask %s", item->valuestring);
        goto out;
      }
  }
  if (cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (hc, "CapAdd")) > 0
      || !drops_all (cJSON_GetObjectItemCaseSensitive (hc, "CapDrop")))
    {
      wb_error (err, WB_E_ENGINE, "it does not drop every capability");
      goto out;
    }
  {
    /* The very allowlist asked for (inline, or Podman's file), not
     * "unconfined" or an engine's default. */
    const cJSON *asked = NULL, *o;
    cJSON_ArrayForEach (o, cJSON_GetObjectItemCaseSensitive (
                               want, "SecurityOpt")) if (cJSON_IsString (o)
                                                         && strncmp (o->valuestring, "seccomp=", 8)
                                                                == 0) asked
        = o;
    if (!str_in (cJSON_GetObjectItemCaseSensitive (hc, "SecurityOpt"), "no-new-privileges", 17)
        || asked == NULL
        || !str_in (cJSON_GetObjectItemCaseSensitive (hc, "SecurityOpt"), asked->valuestring, 0))
      {
        wb_error (err, WB_E_ENGINE,
                  "it drops no-new-privileges or the seccomp allowlist asked for");
        goto out;
      }
  }
  if (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (hc, "Privileged"))
      || cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (hc, "Binds")) > 0
      || cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (hc, "Devices")) > 0
      || cJSON_GetArraySize (cJSON_GetObjectItemCaseSensitive (hc, "VolumesFrom")) > 0)
    {
      wb_error (err, WB_E_ENGINE,
                "it makes the container privileged or gives it host files or devices");
      goto out;
    }
  cJSON_ArrayForEach (item, cJSON_GetObjectItemCaseSensitive (root, "Mounts"))
  {
    const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "Type"));
    if (type == NULL || strcmp (type, "tmpfs") != 0)
      {
        wb_error (err, WB_E_ENGINE, "it mounts a %s into the container", type ? type : "volume");
        goto out;
      }
  }
  {
    static const char *const modes[] = {"PidMode", "IpcMode", "UTSMode"};
    for (size_t i = 0; i < WB_ARRAY_SIZE (modes); i++)
      {
        const char *m = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (hc, modes[i]));
        if (m && (strcmp (m, "host") == 0 || strncmp (m, "container:", 10) == 0))
          {
            wb_error (err, WB_E_ENGINE,
                      "its %s is %.40s: it shares the host's or another container's", modes[i], m);
            goto out;
          }
      }
  }
  {
    const char *mode = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (hc, "NetworkMode"));
    if (mode == NULL || strcmp (mode, "none") != 0)
      {
        wb_error (err, WB_E_ENGINE, "its network mode is %s, not none",
                  mode ? mode : "(none shown)");
        goto out;
      }
  }
  if (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (want, "Init")))
    {
      if (!cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (hc, "Init")))
        {
          wb_error (err, WB_E_ENGINE, "it runs no init");
          goto out;
        }
    }
  else
    {
      /* PID 1 must be warmbox's init, as asked: not an engine's init (the
       * program could then kill warmbox's), nor an entrypoint in front. */
      const char *path = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "Path"));
      const cJSON *cmd = cJSON_GetObjectItemCaseSensitive (t->root, "Cmd");
      const char *asked = cJSON_GetStringValue (cJSON_GetArrayItem (cmd, 0));
      if (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (hc, "Init")) || path == NULL
          || asked == NULL || strcmp (path, asked) != 0)
        {
          wb_error (err, WB_E_ENGINE, "its first process is %s%s, not %s",
                    cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (hc, "Init")) ? "an init over "
                                                                                 : "",
                    path ? path : "(none shown)", asked ? asked : "?");
          goto out;
        }
    }
  /* No writable mount but those asked for (and each still noexec). */
  cJSON_ArrayForEach (item, cJSON_GetObjectItemCaseSensitive (hc, "Tmpfs"))
  {
    const cJSON *asked = cJSON_GetObjectItemCaseSensitive (
        cJSON_GetObjectItemCaseSensitive (want, "Tmpfs"), item->string ? item->string : "");
    if (asked == NULL)
      {
        wb_error (err, WB_E_ENGINE, "it adds a writable mount on %s",
                  item->string ? item->string : "?");
        goto out;
      }
    const char *a = cJSON_GetStringValue (asked) ? cJSON_GetStringValue (asked) : "";
    const char *got = cJSON_GetStringValue (item) ? cJSON_GetStringValue (item) : "";
    if (strstr (a, "noexec") && !strstr (got, "noexec"))
      {
        wb_error (err, WB_E_ENGINE, "its %s mount is not noexec", item->string);
        goto out;
      }
    if (strncmp (a, "ro,", 3) == 0 && strncmp (got, "ro,", 3) != 0)
      {
        wb_error (err, WB_E_ENGINE, "its %s mount is writable", item->string);
        goto out;
      }
  }
  cJSON_ArrayForEach (item, cJSON_GetObjectItemCaseSensitive (want, "Ulimits"))
  {
    const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "Name"));
    if (name
        && ulimit_of (cJSON_GetObjectItemCaseSensitive (hc, "Ulimits"), name) != num (item, "Hard"))
      {
        wb_error (err, WB_E_ENGINE, "it does not set the %s limit", name);
        goto out;
      }
  }
  {
    /* As the template was last rendered: the container made from it. */
    const char *user = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (cfg, "User"));
    const char *asked = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (t->root, "User"));
    if (user == NULL || asked == NULL || strcmp (user, asked) != 0)
      {
        wb_error (err, WB_E_ENGINE, "its program would not run as the unprivileged uid asked");
        goto out;
      }
  }
  rc = 0;
out:
  cJSON_Delete (root);
  return rc;
}

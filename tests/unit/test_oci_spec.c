/* tests/unit/test_oci_spec.c: the OCI engine's translation (oci/spec.c).
 *
 * For every shipped profile: the sandbox's create body becomes an OCI
 * configuration with every hardening setting, and what the helper then
 * shows as inspect passes warmboxd's own verification (sbx_verify_created)
 * -- while a bundle that lost any one setting does not.  Bodies that ask
 * for something that would weaken a sandbox are refused, each with its
 * reason. */
#define _GNU_SOURCE
#include "oci/oci.h"
#include "sandbox_int.h"
#include "tap.h"
#include "warmbox/profile.h"
#include "warmbox/sandbox.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define IMAGE "sha256:4221eef95b3472db004fe4d9e15d7a557557a5a576bded1c2c0533feeef52dbe"

static const cJSON *
at (const cJSON *o, const char *path)
{
  char buf[256], *save = NULL;
  snprintf (buf, sizeof buf, "%s", path);
  for (char *k = strtok_r (buf, ".", &save); k && o; k = strtok_r (NULL, ".", &save))
    o = cJSON_GetObjectItemCaseSensitive (o, k);
  return o;
}

static bool
has_string (const cJSON *arr, const char *s)
{
  const cJSON *i;
  cJSON_ArrayForEach (i,
                      arr) if (cJSON_IsString (i) && strcmp (i->valuestring, s) == 0) return true;
  return false;
}

/* The inspect reply the helper gives for spec (server.c's, in short). */
static char *
inspect_of (const cJSON *spec, const char *seccomp_opt)
{
  cJSON *j = cJSON_CreateObject (), *cfg = cJSON_AddObjectToObject (j, "Config");
  char *user = oci_spec_user (spec), *text;
  cJSON_AddStringToObject (cfg, "User", user);
  cJSON_AddItemToObject (j, "HostConfig", oci_spec_hostconfig (spec, seccomp_opt, "runc"));
  if (oci_spec_process (spec, j) < 0)
    printf ("# out of memory\n");
  text = cJSON_PrintUnformatted (j);
  cJSON_Delete (j);
  free (user);
  return text;
}

static int
verify (const sbx_tmpl_t *t, const cJSON *spec, const char *seccomp_opt, wb_err_t *err)
{
  char *json = inspect_of (spec, seccomp_opt);
  int rc = sbx_verify_created (t, json, strlen (json), err);
  free (json);
  return rc;
}

/* Break one setting of a copy of spec: verification must refuse it. */
static void
check_broken (const sbx_tmpl_t *t, const cJSON *spec, const char *seccomp_opt, const char *lang,
              const char *what, void (*breakit) (cJSON *))
{
  cJSON *copy = cJSON_Duplicate (spec, true);
  wb_err_t err = {0};
  breakit (copy);
  ok (verify (t, copy, seccomp_opt, &err) < 0, "%s: a bundle %s is refused (%s)", lang, what,
      err.msg);
  cJSON_Delete (copy);
}

static void
init_over (cJSON *s)
{
  cJSON *args
      = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (s, "process"), "args");
  cJSON_InsertItemInArray (args, 0, cJSON_CreateString ("--"));
  cJSON_InsertItemInArray (args, 0, cJSON_CreateString ("/sbin/docker-init"));
}

static void
drop_network_ns (cJSON *s)
{
  cJSON *ns = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (s, "linux"),
                                                "namespaces");
  for (int i = 0; i < cJSON_GetArraySize (ns); i++)
    if (strcmp (cJSON_GetStringValue (
                    cJSON_GetObjectItemCaseSensitive (cJSON_GetArrayItem (ns, i), "type")),
                "network")
        == 0)
      cJSON_DeleteItemFromArray (ns, i);
}

static void
writable_root (cJSON *s)
{
  cJSON_ReplaceItemInObject (cJSON_GetObjectItemCaseSensitive (s, "root"), "readonly",
                             cJSON_CreateFalse ());
}

static void
no_nnp (cJSON *s)
{
  cJSON_ReplaceItemInObject (cJSON_GetObjectItemCaseSensitive (s, "process"), "noNewPrivileges",
                             cJSON_CreateFalse ());
}

static void
a_capability (cJSON *s)
{
  cJSON *caps = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (s, "process"),
                                                  "capabilities");
  cJSON_AddItemToArray (cJSON_GetObjectItemCaseSensitive (caps, "effective"),
                        cJSON_CreateString ("CAP_SYS_ADMIN"));
}

static void
other_seccomp (cJSON *s)
{
  cJSON *sec
      = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (s, "linux"), "seccomp");
  cJSON_ReplaceItemInObject (sec, "defaultAction", cJSON_CreateString ("SCMP_ACT_ALLOW"));
}

static void
more_memory (cJSON *s)
{
  cJSON *mem = cJSON_GetObjectItemCaseSensitive (
      cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (s, "linux"), "resources"),
      "memory");
  cJSON_ReplaceItemInObject (mem, "limit", cJSON_CreateNumber (1e12));
}

static void
no_pids (cJSON *s)
{
  cJSON *res = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (s, "linux"),
                                                 "resources");
  cJSON_DeleteItemFromObject (res, "pids");
}

static void
root_user (cJSON *s)
{
  cJSON *u
      = cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (s, "process"), "user");
  cJSON_ReplaceItemInObject (u, "uid", cJSON_CreateNumber (0));
}

static void
exec_tmp (cJSON *s)
{
  cJSON *m;
  cJSON_ArrayForEach (m, cJSON_GetObjectItemCaseSensitive (s, "mounts"))
  {
    if (strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (m, "destination")), "/tmp")
        == 0)
      {
        cJSON *o = cJSON_GetObjectItemCaseSensitive (m, "options");
        for (int i = 0; i < cJSON_GetArraySize (o); i++)
          if (strcmp (cJSON_GetArrayItem (o, i)->valuestring, "noexec") == 0)
            cJSON_ReplaceItemInArray (o, i, cJSON_CreateString ("exec"));
      }
  }
}

static void
no_rlimits (cJSON *s)
{
  cJSON_ReplaceItemInObject (cJSON_GetObjectItemCaseSensitive (s, "process"), "rlimits",
                             cJSON_CreateArray ());
}

static void
check_profile (const prof_t *p)
{
  sbx_tmpl_t *t;
  wb_buf_t body = WB_BUF_INIT;
  oci_request_t req;
  cJSON *spec;
  wb_err_t err = {0};
  const char *lang = p->language;

  t = sbx_tmpl_new (p, &p->def, IMAGE, NULL, &err);
  if (!ok (t != NULL, "%s: a template", lang))
    return;
  must (sbx_tmpl_render (t, "inst", "owner", SBX_UID_FIRST + 7, &body, &err));
  {
    oci_spec_opts_t o = {"/images/x/rootfs", "/warmbox-oci/x", "/usr/bin/tini-static", false, 0};
    spec = oci_spec_from_body (body.data, body.len, &o, &req, &err);
  }
  if (!ok (spec != NULL, "%s: the body translates (%s)", lang, spec ? "" : err.msg))
    goto out;
  {
    const cJSON *ns = at (spec, "linux.namespaces"), *n;
    int seen = 0;
    cJSON_ArrayForEach (n, ns)
    {
      const char *type = cJSON_GetStringValue (at (n, "type"));
      seen += type && at (n, "path") == NULL
              && (strcmp (type, "pid") == 0 || strcmp (type, "network") == 0
                  || strcmp (type, "ipc") == 0 || strcmp (type, "uts") == 0
                  || strcmp (type, "mount") == 0 || strcmp (type, "cgroup") == 0);
    }
    is_int (seen, 6, "%s: new pid, network (empty), ipc, uts, mount and cgroup namespaces", lang);
  }
  ok (cJSON_IsTrue (at (spec, "root.readonly"))
          && cJSON_IsTrue (at (spec, "process.noNewPrivileges")),
      "%s: read-only root, no-new-privileges", lang);
  {
    const cJSON *set;
    int n = 0;
    cJSON_ArrayForEach (set, at (spec, "process.capabilities")) n += cJSON_GetArraySize (set);
    is_int (n, 0, "%s: no capability in any set", lang);
  }
  is_int ((long long) cJSON_GetNumberValue (at (spec, "process.user.uid")), SBX_UID_FIRST + 7,
          "%s: the sandbox's uid", lang);
  is_str (cJSON_GetStringValue (at (spec, "linux.seccomp.defaultAction")), "SCMP_ACT_ERRNO",
          "%s: the allowlist denies by default", lang);
  {
    const cJSON *r;
    int names = 0;
    cJSON_ArrayForEach (r, at (spec, "linux.seccomp.syscalls")) names
        += cJSON_GetArraySize (at (r, "names"));
    ok (names > 40 && has_string (at (spec, "linux.maskedPaths"), "/proc/kcore")
            && has_string (at (spec, "linux.maskedPaths"), "/proc/interrupts")
            && has_string (at (spec, "linux.maskedPaths"), "/sys/devices/virtual/powercap")
            && has_string (at (spec, "linux.readonlyPaths"), "/proc/sys"),
        "%s: the allowlist's rules (%d names), Docker's masked and read-only paths", lang, names);
  }
  cJSON *asked = cJSON_Parse (body.data);
  ok (cJSON_GetNumberValue (at (spec, "linux.resources.memory.limit"))
              == cJSON_GetNumberValue (at (asked, "HostConfig.Memory"))
          && cJSON_GetNumberValue (at (spec, "linux.resources.memory.limit"))
                 >= (double) p->def.memory_mb * 1048576
          && cJSON_GetNumberValue (at (spec, "linux.resources.memory.swap"))
                 == cJSON_GetNumberValue (at (spec, "linux.resources.memory.limit"))
          && cJSON_GetNumberValue (at (spec, "linux.resources.pids.limit")) > 0
          && cJSON_GetNumberValue (at (spec, "linux.resources.cpu.quota")) > 0,
      "%s: memory = memory + swap, pids and CPU limits", lang);
  cJSON_Delete (asked);
  is_str (cJSON_GetStringValue (cJSON_GetArrayItem (at (spec, "process.args"), 0)), "/warmbox/init",
          "%s: warmbox's init first: the sandbox's PID 1", lang);
  ok (verify (t, spec, req.seccomp_opt, &err) == 0,
      "%s: what the bundle holds passes warmboxd's verification (%s)", lang, err.msg);
  check_broken (t, spec, req.seccomp_opt, lang, "with the host's network", drop_network_ns);
  check_broken (t, spec, req.seccomp_opt, lang, "with a writable root", writable_root);
  check_broken (t, spec, req.seccomp_opt, lang, "without no-new-privileges", no_nnp);
  check_broken (t, spec, req.seccomp_opt, lang, "with a capability", a_capability);
  check_broken (t, spec, req.seccomp_opt, lang, "with another seccomp filter", other_seccomp);
  check_broken (t, spec, req.seccomp_opt, lang, "with more memory", more_memory);
  check_broken (t, spec, req.seccomp_opt, lang, "without a pids limit", no_pids);
  check_broken (t, spec, req.seccomp_opt, lang, "running as root", root_user);
  check_broken (t, spec, req.seccomp_opt, lang, "with an executable /tmp", exec_tmp);
  check_broken (t, spec, req.seccomp_opt, lang, "without rlimits", no_rlimits);
  check_broken (t, spec, req.seccomp_opt, lang, "with docker-init over warmbox's init", init_over);
  cJSON_Delete (spec);
  oci_request_free (&req);
out:
  wb_buf_free (&body);
  sbx_tmpl_free (t);
}

/* A body with one change (a JSON patch of the top level or HostConfig) is
 * refused, with a sentence. */
static void
refused (const char *base, const char *where, const char *key, const char *value_json,
         const char *what)
{
  cJSON *b = cJSON_Parse (base), *obj = strcmp (where, "HostConfig") == 0
                                            ? cJSON_GetObjectItemCaseSensitive (b, "HostConfig")
                                            : b;
  cJSON *v = value_json ? cJSON_Parse (value_json) : NULL;
  oci_request_t req;
  wb_err_t err = {0};
  char *text;
  cJSON *spec;

  if (v)
    {
      cJSON_DeleteItemFromObject (obj, key);
      cJSON_AddItemToObject (obj, key, v);
    }
  else
    cJSON_DeleteItemFromObject (obj, key);
  text = cJSON_PrintUnformatted (b);
  {
    oci_spec_opts_t o = {"/r", "/c", "/init", false, 0};
    spec = oci_spec_from_body (text, strlen (text), &o, &req, &err);
  }
  ok (spec == NULL && err.code == WB_E_INVALID && err.msg[0], "refused: %s (%s)", what, err.msg);
  cJSON_Delete (spec);
  free (text);
  cJSON_Delete (b);
}

int
main (void)
{
  prof_set_t *set = NULL;
  wb_err_t err = {0};

  if (prof_load_dir (WB_DEFAULT_PROFILES_DIR, &set, &err) < 0)
    {
      ok (0, "the shipped profiles load: %s", err.msg);
      return tap_done ();
    }
  for (size_t i = 0; i < set->n; i++)
    check_profile (set->items[i]);

  {
    const prof_t *p = prof_find (set, "python");
    sbx_tmpl_t *t = sbx_tmpl_new (p, &p->def, IMAGE, NULL, &err);
    wb_buf_t body = WB_BUF_INIT;
    must (sbx_tmpl_render (t, "inst", "owner", SBX_UID_FIRST, &body, &err));
    refused (body.data, "HostConfig", "Privileged", "true", "Privileged");
    refused (body.data, "HostConfig", "Binds", "[\"/:/host\"]", "a bind mount");
    refused (body.data, "HostConfig", "Devices", "[{\"PathOnHost\":\"/dev/kvm\"}]", "a device");
    refused (body.data, "HostConfig", "CapAdd", "[\"SYS_ADMIN\"]", "an added capability");
    refused (body.data, "HostConfig", "CapDrop", "[\"NET_RAW\"]", "capabilities not all dropped");
    refused (body.data, "HostConfig", "NetworkMode", "\"host\"", "the host's network");
    refused (body.data, "HostConfig", "NetworkMode", "\"bridge\"", "a bridge network");
    refused (body.data, "HostConfig", "PidMode", "\"host\"", "the host's pids");
    refused (body.data, "HostConfig", "IpcMode", "\"host\"", "the host's IPC");
    refused (body.data, "HostConfig", "SecurityOpt", "[\"no-new-privileges\"]",
             "no seccomp allowlist");
    refused (body.data, "HostConfig", "SecurityOpt",
             "[\"seccomp=unconfined\",\"no-new-privileges\"]", "seccomp unconfined");
    refused (body.data, "HostConfig", "SecurityOpt",
             "[\"no-new-privileges\",\"seccomp={\\\"defaultAction\\\":\\\"SCMP_ACT_ALLOW\\\","
             "\\\"syscalls\\\":[]}\"]",
             "an allowlist that allows by default");
    refused (body.data, "HostConfig", "SecurityOpt", "[\"seccomp={}\"]", "no no-new-privileges");
    refused (body.data, "HostConfig", "Memory", NULL, "no memory limit");
    refused (body.data, "HostConfig", "PidsLimit", "0", "no pids limit");
    refused (body.data, "HostConfig", "Runtime", "\"kata\"", "another runtime");
    refused (body.data, "HostConfig", "Tmpfs", "{\"/proc/x\":\"rw\"}", "a tmpfs over /proc");
    refused (body.data, "HostConfig", "Tmpfs", "{\"/tmp\":\"rw,suid\"}", "a suid tmpfs");
    refused (body.data, "HostConfig", "Tmpfs", "{\"/tmp\":\"rw,bind\"}",
             "a tmpfs option that is not one");
    refused (body.data, "HostConfig", "Tmpfs", "{\"/a/../etc\":\"rw\"}", "a tmpfs path with ..");
    refused (body.data, "HostConfig", "Ulimits", "[{\"Name\":\"no file\",\"Soft\":1,\"Hard\":1}]",
             "a ulimit that is not one");
    refused (body.data, "HostConfig", "Ulimits", "[{\"Name\":\"nofile\",\"Soft\":10,\"Hard\":1}]",
             "a soft limit above the hard one");
    refused (body.data, "HostConfig", "Ulimits", "[{\"Name\":\"rtprio\",\"Soft\":99,\"Hard\":99}]",
             "a real-time priority limit");
    refused (body.data, "HostConfig", "ReadonlyRootfs", "false",
             "a writable root (the image's folder is shared)");
    refused (body.data, "HostConfig", "ReadonlyRootfs", NULL, "no ReadonlyRootfs");
    refused (body.data, "HostConfig", "Tmpfs", "{\"/./dev\":\"rw,exec\"}", "a tmpfs at /./dev");
    refused (body.data, "HostConfig", "Tmpfs", "{\"/\":\"rw\"}", "a tmpfs at /");
    refused (body.data, "HostConfig", "Tmpfs", "{\"/sbin/docker-init\":\"rw\"}",
             "a tmpfs over the init");
    refused (body.data, "HostConfig", "SecurityOpt",
             "[\"no-new-privileges\",\"seccomp={\\\"defaultAction\\\":\\\"SCMP_ACT_LOG\\\","
             "\\\"syscalls\\\":[]}\"]",
             "an allowlist that only logs by default");
    refused (body.data, "top", "User", "\"0:0\"", "root");
    {
      /* A user namespace: runc's containers get it, runsc's do not. */
      oci_request_t req;
      oci_spec_opts_t o = {"/r", "/c", "/init", true, 1000000};
      cJSON *s = oci_spec_from_body (body.data, body.len, &o, &req, &err);
      const cJSON *n, *m = cJSON_GetArrayItem (at (s, "linux.uidMappings"), 0);
      bool user = false;
      cJSON_ArrayForEach (n, at (s, "linux.namespaces")) user
          |= strcmp (cJSON_GetStringValue (at (n, "type")), "user") == 0;
      ok (s && user && cJSON_GetNumberValue (at (m, "hostID")) == 1000000
              && cJSON_GetNumberValue (at (m, "size")) == 65536
              && cJSON_GetNumberValue (at (m, "containerID")) == 0
              && cJSON_GetArraySize (at (s, "linux.gidMappings")) == 1,
          "userns: a user namespace, ids 0-65535 on the host's 1000000-1065535");
      cJSON *hc = s ? oci_spec_hostconfig (s, req.seccomp_opt, req.runtime) : NULL;
      is_str (cJSON_GetStringValue (at (hc, "UsernsMode")), "private", "userns: inspect says so");
      cJSON_Delete (hc);
      cJSON_Delete (s);
      oci_request_free (&req);
      cJSON *b = cJSON_Parse (body.data);
      cJSON_ReplaceItemInObject (cJSON_GetObjectItemCaseSensitive (b, "HostConfig"), "Runtime",
                                 cJSON_CreateString ("runsc"));
      char *gv = cJSON_PrintUnformatted (b);
      cJSON_Delete (b);
      s = oci_spec_from_body (gv, strlen (gv), &o, &req, &err);
      user = false;
      cJSON_ArrayForEach (n, at (s, "linux.namespaces")) user
          |= strcmp (cJSON_GetStringValue (at (n, "type")), "user") == 0;
      ok (s && !user && at (s, "linux.uidMappings") == NULL,
          "userns: not for runsc, which keeps its own ids (%s)", s ? "" : err.msg);
      cJSON_Delete (s);
      oci_request_free (&req);
      free (gv);
    }
    refused (body.data, "top", "User", "\"nobody\"", "a user by name");
    refused (body.data, "top", "Tty", "true", "a terminal");
    refused (body.data, "top", "Entrypoint", "[\"/bin/sh\"]", "an entrypoint");
    refused (body.data, "top", "Cmd", "[]", "no command");
    refused (body.data, "top", "Env", "[\"NOEQUALS\"]", "an environment word without =");
    refused (body.data, "top", "WorkingDir", "\"tmp\"", "a relative working directory");
    refused (body.data, "top", "Hostname", "\"a b\"", "a host name with a space");
    refused (body.data, "top", "Labels", "{\"a\":1}", "a label that is not a string");
    refused (body.data, "top", "HostConfig", NULL, "no HostConfig");
    {
      oci_request_t req;
      oci_spec_opts_t o = {"/r", "/c", "/i", false, 0}, no_init = {"/r", "/c", NULL, false, 0};
      cJSON *s = oci_spec_from_body ("{", 1, &o, &req, &err);
      ok (s == NULL && err.code == WB_E_INVALID, "refused: a body that is not JSON");
      cJSON *b = cJSON_Parse (body.data);
      char *with_init;
      cJSON_ReplaceItemInObject (cJSON_GetObjectItemCaseSensitive (b, "HostConfig"), "Init",
                                 cJSON_CreateTrue ());
      with_init = cJSON_PrintUnformatted (b);
      s = with_init ? oci_spec_from_body (with_init, strlen (with_init), &no_init, &req, &err)
                    : NULL;
      ok (s == NULL && strstr (err.msg, "init"), "refused: Init on an engine without an init (%s)",
          err.msg);
      free (with_init);
      cJSON_Delete (b);
    }
    wb_buf_free (&body);
    sbx_tmpl_free (t);
  }
  prof_set_free (set);
  return tap_done ();
}

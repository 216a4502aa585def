/* profiles/profile.c: load profiles, check seccomp allowlists, build the
 * hardened container spec.  See include/warmbox/profile.h. */
#define _GNU_SOURCE
#include "warmbox/profile.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <seccomp.h>
#include <string.h>
#include <sys/stat.h>

#define PROFILE_FILE_MAX (1024 * 1024)

static inline void
cleanup_jsonp (cJSON **j)
{
  cJSON_Delete (*j);
}
#define cleanup_json __attribute__ ((cleanup (cleanup_jsonp)))

void
prof_free (prof_t *p)
{
  if (p == NULL)
    return;
  free (p->language);
  for (size_t i = 0; i < p->n_aliases; i++)
    free (p->aliases[i]);
  free (p->version);
  free (p->image);
  free (p->runtime);
  if (p->argv)
    for (size_t i = 0; i < p->argc; i++)
      free (p->argv[i]);
  free (p->argv);
  free (p->source);
  free (p->program_file);
  for (size_t i = 0; i < p->compile_argc; i++)
    free (p->compile_argv[i]);
  free (p->compile_argv);
  for (size_t i = 0; i < p->n_name_suffixes; i++)
    free (p->name_suffixes[i]);
  for (size_t i = 0; i < p->n_name_refused; i++)
    {
      free (p->name_refused[i].pattern);
      free (p->name_refused[i].reason);
    }
  for (size_t i = 0; i < p->n_env; i++)
    free (p->env[i]);
  free (p->env);
  free (p->seccomp_json);
  free (p);
}

void
prof_set_free (prof_set_t *set)
{
  if (set == NULL)
    return;
  for (size_t i = 0; i < set->n; i++)
    prof_free (set->items[i]);
  free (set->items);
  free (set);
}

const prof_t *
prof_find (const prof_set_t *set, const char *language)
{
  if (set == NULL || language == NULL)
    return NULL;
  for (size_t i = 0; i < set->n; i++)
    if (strcmp (set->items[i]->language, language) == 0)
      return set->items[i];
  return NULL;
}

const prof_t *
prof_find_alias (const prof_set_t *set, const char *name)
{
  const prof_t *p = prof_find (set, name);

  if (p != NULL || set == NULL || name == NULL)
    return p;
  for (size_t i = 0; i < set->n; i++)
    for (size_t k = 0; k < set->items[i]->n_aliases; k++)
      if (strcmp (set->items[i]->aliases[k], name) == 0)
        return set->items[i];
  return NULL;
}

/* ---- seccomp --------------------------------------------------------- */

static bool
action_known (const char *a)
{
  static const char *known[]
      = {"SCMP_ACT_ALLOW",        "SCMP_ACT_ERRNO", "SCMP_ACT_KILL", "SCMP_ACT_KILL_THREAD",
         "SCMP_ACT_KILL_PROCESS", "SCMP_ACT_TRAP",  "SCMP_ACT_LOG"};
  for (size_t i = 0; i < WB_ARRAY_SIZE (known); i++)
    if (strcmp (a, known[i]) == 0)
      return true;
  return false;
}

/* Calls no profile may allow, whatever it says (issue 5, DESIGN.md
 * "Container hardening"); the loader refuses a list that allows one. */
static const char *const forbidden_syscalls[] = {
    "ptrace",
    "mount",
    "umount",
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
    "create_module",
    "reboot",
    "swapon",
    "swapoff",
    "pivot_root",
    "chroot",
    "open_by_handle_at",
    "fsopen",
    "fsmount",
    "move_mount",
    "open_tree",
    "process_vm_readv",
    "process_vm_writev",
    "clone3",
};

#define CLONE_NAMESPACE_FLAGS                                                                      \
  0x7E020000ULL /* NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET */
#define SOCK_TYPE_MASK 0xFULL

static bool
rule_allows (const char *action)
{
  return strcmp (action, "SCMP_ACT_ALLOW") == 0 || strcmp (action, "SCMP_ACT_LOG") == 0;
}

/* The condition on argument INDEX with operator OP in RULE, or NULL. */
static cJSON *
rule_arg (cJSON *rule, int index, const char *op)
{
  cJSON *arg;
  cJSON_ArrayForEach (arg, cJSON_GetObjectItemCaseSensitive (rule, "args"))
  {
    const char *o = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (arg, "op"));
    cJSON *i = cJSON_GetObjectItemCaseSensitive (arg, "index");
    if (cJSON_IsNumber (i) && i->valuedouble == index && o && strcmp (o, op) == 0)
      return arg;
  }
  return NULL;
}

static unsigned long long
arg_number (cJSON *arg, const char *key)
{
  cJSON *v = cJSON_GetObjectItemCaseSensitive (arg, key);
  return cJSON_IsNumber (v) && v->valuedouble >= 0 ? (unsigned long long) v->valuedouble : ~0ULL;
}

/* clone must carry "no namespace flag" (MASKED_EQ over every CLONE_NEW*
 * bit, expecting 0); socket must name its family (Unix, IPv4, IPv6) and,
 * for IP, its type (stream or datagram): raw, packet and netlink sockets
 * are never allowed. */
static int
check_conditional (const char *name, cJSON *rule, wb_err_t *err)
{
  if (strcmp (name, "clone") == 0)
    {
      cJSON *a = rule_arg (rule, 0, "SCMP_CMP_MASKED_EQ");
      if (a == NULL || (arg_number (a, "value") & CLONE_NAMESPACE_FLAGS) != CLONE_NAMESPACE_FLAGS
          || arg_number (a, "valueTwo") != 0)
        return wb_error (err, WB_E_INVALID,
                         "seccomp: \"clone\" may only be allowed without namespace flags "
                         "(args: index 0, SCMP_CMP_MASKED_EQ, value 0x%llx, valueTwo 0)",
                         CLONE_NAMESPACE_FLAGS);
    }
  else if (strcmp (name, "socket") == 0)
    {
      cJSON *fam = rule_arg (rule, 0, "SCMP_CMP_EQ"),
            *type = rule_arg (rule, 1, "SCMP_CMP_MASKED_EQ");
      unsigned long long f = fam ? arg_number (fam, "value") : ~0ULL;
      if (f == 1 /* AF_UNIX */)
        return 0;
      if ((f == 2 || f == 10) && type != NULL
          && (arg_number (type, "value") & SOCK_TYPE_MASK) == SOCK_TYPE_MASK
          && (arg_number (type, "valueTwo") == 1 || arg_number (type, "valueTwo") == 2))
        return 0;
      return wb_error (
          err, WB_E_INVALID,
          "seccomp: \"socket\" may only be allowed for AF_UNIX, or for AF_INET/AF_INET6 "
          "with a stream or datagram type (no raw, packet or netlink sockets)");
    }
  return 0;
}

int
prof_seccomp_check (const char *json, size_t len, wb_err_t *err)
{
  cleanup_json cJSON *root = cJSON_ParseWithLength (json, len);
  cJSON *rule;
  const char *def;
  size_t n_names = 0;

  if (root == NULL || !cJSON_IsObject (root))
    return wb_error (err, WB_E_INVALID, "seccomp: not a JSON object");
  def = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "defaultAction"));
  if (def == NULL || !action_known (def))
    return wb_error (err, WB_E_INVALID, "seccomp: defaultAction missing or unknown");
  if (strcmp (def, "SCMP_ACT_ALLOW") == 0 || strcmp (def, "SCMP_ACT_LOG") == 0)
    return wb_error (err, WB_E_INVALID, "seccomp: defaultAction must deny (allowlists only)");
  cJSON *syscalls = cJSON_GetObjectItemCaseSensitive (root, "syscalls");
  if (!cJSON_IsArray (syscalls))
    return wb_error (err, WB_E_INVALID, "seccomp: \"syscalls\" must be an array");
  cJSON_ArrayForEach (rule, syscalls)
  {
    cJSON *names = cJSON_GetObjectItemCaseSensitive (rule, "names"), *name;
    const char *action = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (rule, "action"));
    if (action == NULL || !action_known (action))
      return wb_error (err, WB_E_INVALID, "seccomp: a rule has a missing or unknown action");
    if (!cJSON_IsArray (names) || cJSON_GetArraySize (names) == 0)
      return wb_error (err, WB_E_INVALID, "seccomp: a rule has no \"names\" array");
    cJSON_ArrayForEach (name, names)
    {
      const char *s = cJSON_GetStringValue (name);
      if (s == NULL)
        return wb_error (err, WB_E_INVALID, "seccomp: a syscall name is not a string");
      if (seccomp_syscall_resolve_name (s) == __NR_SCMP_ERROR)
        return wb_error (err, WB_E_INVALID, "seccomp: unknown syscall \"%s\"", s);
      n_names++;
      if (!rule_allows (action))
        continue;
      for (size_t i = 0; i < WB_ARRAY_SIZE (forbidden_syscalls); i++)
        if (strcmp (s, forbidden_syscalls[i]) == 0)
          return wb_error (err, WB_E_INVALID, "seccomp: \"%s\" may never be allowed", s);
      if (check_conditional (s, rule, err) < 0)
        return -1;
    }
  }
  if (n_names == 0)
    return wb_error (err, WB_E_INVALID, "seccomp: the allowlist names no syscall");
  return 0;
}

/* ---- profile.json ---------------------------------------------------- */

static char *
dup_string_key (cJSON *obj, const char *key, wb_err_t *err)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, key);
  const char *s = cJSON_GetStringValue (item);
  char *copy;

  if (s == NULL || *s == '\0')
    {
      wb_error (err, WB_E_INVALID, "profile: \"%s\" must be a non-empty string", key);
      return NULL;
    }
  copy = strdup (s);
  if (copy == NULL)
    wb_error (err, WB_E_NOMEM, "profile: out of memory");
  return copy;
}

static int
get_uint (cJSON *obj, const char *where, const char *key, double lo, double hi, double *out,
          wb_err_t *err)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (obj, key);
  if (!cJSON_IsNumber (item) || !isfinite (item->valuedouble) || item->valuedouble < lo
      || item->valuedouble > hi)
    return wb_error (err, WB_E_INVALID, "profile: %s.%s must be a number in [%g, %g]", where, key,
                     lo, hi);
  *out = item->valuedouble;
  return 0;
}

static int
parse_limits (cJSON *obj, const char *where, bool compiles, prof_limits_t *l, wb_err_t *err)
{
  double v;
  static const char *const compile_keys[]
      = {"compile_timeout_ms", "compile_memory_mb", "compile_output_bytes", "build_mb"};

  if (!cJSON_IsObject (obj))
    return wb_error (err, WB_E_INVALID, "profile: \"limits.%s\" must be an object", where);
#define U(key, lo, hi, field, type)                                                                \
  if (get_uint (obj, where, key, lo, hi, &v, err) < 0)                                             \
    return -1;                                                                                     \
  l->field = (type) v;
  U ("timeout_ms", 1, 3600000, timeout_ms, uint32_t);
  U ("memory_mb", 6, 65536, memory_mb, uint32_t);
  U ("pids", 4, 32768, pids, uint32_t);
  U ("tmpfs_mb", 1, 65536, tmpfs_mb, uint32_t);
  U ("output_bytes", 1, 1073741824.0, output_bytes, uint64_t);
  U ("code_bytes", 1, 67108864.0, code_bytes, uint64_t);
  U ("stdin_bytes", 0, 67108864.0, stdin_bytes, uint64_t);
  U ("nofile", 16, 1048576, nofile, uint32_t);
  U ("fsize_mb", 1, 65536, fsize_mb, uint32_t);
  if (compiles)
    {
      U ("compile_timeout_ms", 1, 3600000, compile_timeout_ms, uint32_t);
      U ("compile_memory_mb", 6, 65536, compile_memory_mb, uint32_t);
      U ("compile_output_bytes", 1, 16777216, compile_output_bytes, uint64_t);
      U ("build_mb", 0, 65536, build_mb, uint32_t);
    }
  else
    for (size_t i = 0; i < WB_ARRAY_SIZE (compile_keys); i++)
      if (cJSON_GetObjectItemCaseSensitive (obj, compile_keys[i]))
        return wb_error (err, WB_E_INVALID, "profile: limits.%s.%s needs a \"compile\" stage",
                         where, compile_keys[i]);
#undef U
  if (get_uint (obj, where, "cpus", 0.01, 256, &v, err) < 0)
    return -1;
  l->cpus = v;
  return 0;
}

static int
limits_within (const prof_limits_t *d, const prof_limits_t *m, wb_err_t *err)
{
#define CHECK(f)                                                                                   \
  if (d->f > m->f)                                                                                 \
    return wb_error (err, WB_E_INVALID, "profile: limits.default." #f " exceeds limits.max." #f);
  CHECK (timeout_ms);
  CHECK (memory_mb);
  CHECK (cpus);
  CHECK (pids);
  CHECK (tmpfs_mb);
  CHECK (output_bytes);
  CHECK (code_bytes);
  CHECK (stdin_bytes);
  CHECK (nofile);
  CHECK (fsize_mb);
  CHECK (compile_timeout_ms);
  CHECK (compile_memory_mb);
  CHECK (compile_output_bytes);
  CHECK (build_mb);
#undef CHECK
  return 0;
}

/* gVisor applies the OCI seccomp profile inside its sandbox (runsc
 * --oci-seccomp) but answers EPERM where the rule says ENOSYS, so glibc
 * never falls back from clone3 and no thread can start.  Under runsc,
 * clone3 is allowed instead: the sentry implements it, and nothing created
 * inside the sandbox reaches the host's namespaces.  Measured with Debian's
 * runsc 20221219. */
static int
runsc_adjust (cJSON *sc)
{
  cJSON *rule;

  cJSON_ArrayForEach (rule, cJSON_GetObjectItemCaseSensitive (sc, "syscalls"))
  {
    cJSON *names = cJSON_GetObjectItemCaseSensitive (rule, "names");
    const char *first = cJSON_GetStringValue (cJSON_GetArrayItem (names, 0));
    if (cJSON_GetArraySize (names) == 1 && first && strcmp (first, "clone3") == 0)
      {
        cJSON *allow = cJSON_CreateString ("SCMP_ACT_ALLOW");
        if (allow == NULL || !cJSON_ReplaceItemInObjectCaseSensitive (rule, "action", allow))
          {
            cJSON_Delete (allow);
            return -1; /* memory: the profile does not load (never half adjusted) */
          }
        cJSON_DeleteItemFromObjectCaseSensitive (rule, "errnoRet");
      }
  }
  return 0;
}

/* [a-z0-9_-]{1,32}; an alias may hold '+' too (Piston's "c++", "g++"). */
static bool
language_name_ok (const char *s, bool alias)
{
  if (*s == '\0' || strlen (s) > 32)
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'
          || (alias && *s == '+')))
      return false;
  return true;
}

/* A file name in the working directory: [A-Za-z0-9._-], not a dot-file. */
static bool
source_name_ok (const char *s)
{
  if (*s == '\0' || *s == '.' || strlen (s) > 64)
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
          || *s == '_' || *s == '-' || *s == '.'))
      return false;
  return true;
}

/* "source" and "compile" (optional both; compile needs source, and both
 * need /warmbox/init as argv[0]: the init reads the frame and runs the
 * stages, profiles/init.c). */
static int
parse_stages (cJSON *root, prof_t *p, wb_err_t *err)
{
  cJSON *source = cJSON_GetObjectItemCaseSensitive (root, "source");
  cJSON *compile = cJSON_GetObjectItemCaseSensitive (root, "compile");
  cJSON *argv, *item;

  cJSON *program = cJSON_GetObjectItemCaseSensitive (root, "program_file");

  if (program && (source || compile))
    return wb_error (err, WB_E_INVALID,
                     "profile: \"program_file\" is for a profile with a bootstrap (the init "
                     "writes \"source\" itself)");
  if (program)
    {
      if (!cJSON_IsString (program) || !source_name_ok (program->valuestring))
        return wb_error (err, WB_E_INVALID,
                         "profile: \"program_file\" must be a file name ([A-Za-z0-9._-], "
                         "not starting with a dot)");
      if ((p->program_file = strdup (program->valuestring)) == NULL)
        return wb_error (err, WB_E_NOMEM, "profile: out of memory");
    }
  cJSON *state = cJSON_GetObjectItemCaseSensitive (root, "session_state");
  if (state && (!cJSON_IsBool (state) || source || compile))
    return wb_error (err, WB_E_INVALID,
                     "profile: \"session_state\" is true or false, for a profile with a "
                     "bootstrap that carries its interpreter's state");
  p->session_state = cJSON_IsTrue (state);
  if (program)
    return 0;
  if (source == NULL && compile == NULL)
    return 0;
  if (source == NULL || !cJSON_IsString (source) || !source_name_ok (source->valuestring))
    return wb_error (err, WB_E_INVALID,
                     "profile: \"source\" must be a file name ([A-Za-z0-9._-], "
                     "not starting with a dot)%s",
                     source == NULL ? ", and a compile stage needs one" : "");
  if (!prof_runs_warmbox_init (p) || p->argc < 2)
    return wb_error (err, WB_E_INVALID,
                     "profile: with \"source\", argv must be /warmbox/init and the "
                     "program's command");
  if ((p->source = strdup (source->valuestring)) == NULL)
    return wb_error (err, WB_E_NOMEM, "profile: out of memory");
  if (compile == NULL)
    return 0;
  argv = cJSON_GetObjectItemCaseSensitive (compile, "argv");
  if (!cJSON_IsObject (compile) || !cJSON_IsArray (argv) || cJSON_GetArraySize (argv) == 0
      || cJSON_GetArraySize (argv) > 64)
    return wb_error (err, WB_E_INVALID,
                     "profile: \"compile\" must be {\"argv\": [1 to 64 strings]}");
  if ((p->compile_argv = calloc ((size_t) cJSON_GetArraySize (argv) + 1, sizeof *p->compile_argv))
      == NULL)
    return wb_error (err, WB_E_NOMEM, "profile: out of memory");
  cJSON_ArrayForEach (item, argv)
  {
    const char *s = cJSON_GetStringValue (item);
    if (s == NULL || *s == '\0')
      return wb_error (err, WB_E_INVALID, "profile: \"compile.argv\" must hold non-empty strings");
    if ((p->compile_argv[p->compile_argc++] = strdup (s)) == NULL)
      return wb_error (err, WB_E_NOMEM, "profile: out of memory");
  }
  if (p->compile_argv[0][0] != '/')
    return wb_error (err, WB_E_INVALID,
                     "profile: \"compile.argv\" must start with an absolute path");
  return 0;
}

/* A suffix of "filename.suffixes": a dot and up to 15 of [A-Za-z0-9+_-]. */
static bool
name_suffix_ok (const char *s)
{
  if (s[0] != '.' || s[1] == '\0' || strlen (s) > 16)
    return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
          || *s == '+' || *s == '_' || *s == '-'))
      return false;
  return true;
}

static bool
ends_with (const char *s, const char *suffix)
{
  size_t n = strlen (s), k = strlen (suffix);

  return n >= k && strcmp (s + n - k, suffix) == 0;
}

/* "source_rule" (optional: "java", with source and compile) and
 * "filename" (optional: {"suffixes": [...], "refuse": [{"pattern",
 * "reason"}...]}, not with "source_rule"): how the program's file is
 * named. */
static int
parse_naming (cJSON *root, prof_t *p, wb_err_t *err)
{
  cJSON *rule = cJSON_GetObjectItemCaseSensitive (root, "source_rule");
  cJSON *naming = cJSON_GetObjectItemCaseSensitive (root, "filename");
  cJSON *suffixes, *refuse, *item;

  if (rule)
    {
      if (!cJSON_IsString (rule) || strcmp (rule->valuestring, "java") != 0)
        return wb_error (err, WB_E_INVALID, "profile: \"source_rule\" can only be \"java\"");
      if (p->compile_argv == NULL || !ends_with (p->source, ".java"))
        return wb_error (err, WB_E_INVALID,
                         "profile: \"source_rule\": \"java\" needs a compile stage and a "
                         "\"source\" ending in .java");
      if (naming)
        return wb_error (err, WB_E_INVALID,
                         "profile: \"filename\" does not go with \"source_rule\" (the code's "
                         "class names the file)");
      p->java_source = true;
    }
  if (naming == NULL)
    return 0;
  suffixes = cJSON_GetObjectItemCaseSensitive (naming, "suffixes");
  refuse = cJSON_GetObjectItemCaseSensitive (naming, "refuse");
  if (!cJSON_IsObject (naming) || (suffixes && !cJSON_IsArray (suffixes))
      || (refuse && !cJSON_IsArray (refuse)) || cJSON_GetArraySize (suffixes) > PROF_MAX_NAME_RULES
      || cJSON_GetArraySize (refuse) > PROF_MAX_NAME_RULES)
    return wb_error (err, WB_E_INVALID,
                     "profile: \"filename\" must be {\"suffixes\": [at most %d], \"refuse\": "
                     "[at most %d {\"pattern\", \"reason\"}]}",
                     PROF_MAX_NAME_RULES, PROF_MAX_NAME_RULES);
  cJSON_ArrayForEach (item, suffixes)
  {
    const char *s = cJSON_GetStringValue (item);
    if (s == NULL || !name_suffix_ok (s))
      return wb_error (err, WB_E_INVALID,
                       "profile: each of \"filename.suffixes\" is a dot and 1 to 15 of "
                       "[A-Za-z0-9+_-]");
    if ((p->name_suffixes[p->n_name_suffixes++] = strdup (s)) == NULL)
      return wb_error (err, WB_E_NOMEM, "profile: out of memory");
  }
  cJSON_ArrayForEach (item, refuse)
  {
    const char *pattern = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "pattern"));
    const char *reason = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (item, "reason"));
    prof_name_rule_t *r = &p->name_refused[p->n_name_refused];
    if (pattern == NULL || reason == NULL || *pattern == '\0' || *reason == '\0'
        || strlen (pattern) > 64 || strlen (reason) > 200)
      return wb_error (err, WB_E_INVALID,
                       "profile: each of \"filename.refuse\" is {\"pattern\": 1 to 64 "
                       "characters, \"reason\": 1 to 200}");
    r->pattern = strdup (pattern);
    r->reason = strdup (reason);
    p->n_name_refused++;
    if (r->pattern == NULL || r->reason == NULL)
      return wb_error (err, WB_E_NOMEM, "profile: out of memory");
  }
  /* The default name obeys the profile's own rules. */
  if (p->source && p->n_name_suffixes)
    {
      bool fits = false;
      for (size_t i = 0; i < p->n_name_suffixes; i++)
        fits = fits || ends_with (p->source, p->name_suffixes[i]);
      if (!fits)
        return wb_error (err, WB_E_INVALID,
                         "profile: \"source\" must end in one of \"filename.suffixes\"");
    }
  return 0;
}

uint32_t
prof_memory_mb (const prof_t *p, const prof_limits_t *lim)
{
  if (p->compile_argv && lim->compile_memory_mb > lim->memory_mb)
    return lim->compile_memory_mb;
  return lim->memory_mb;
}

int
prof_parse (const char *json, size_t json_len, const char *seccomp, size_t seccomp_len,
            prof_t **out, wb_err_t *err)
{
  cleanup_json cJSON *root = NULL;
  cleanup_json cJSON *sc = NULL;
  cJSON *argv, *limits, *item;
  prof_t *p;
  cleanup_buf wb_buf_t both = WB_BUF_INIT;

  root = cJSON_ParseWithLength (json, json_len);
  if (root == NULL || !cJSON_IsObject (root))
    return wb_error (err, WB_E_INVALID, "profile: not a JSON object");
  if (prof_seccomp_check (seccomp, seccomp_len, err) < 0)
    return -1;
  sc = cJSON_ParseWithLength (seccomp, seccomp_len);
  if (sc == NULL)
    return wb_error (err, WB_E_INVALID, "seccomp: not JSON");

  p = calloc (1, sizeof *p);
  if (p == NULL)
    return wb_error (err, WB_E_NOMEM, "profile: out of memory");
  if ((p->language = dup_string_key (root, "language", err)) == NULL
      || (p->image = dup_string_key (root, "image", err)) == NULL
      || (p->version = dup_string_key (root, "version", err)) == NULL)
    goto fail;
  if (!language_name_ok (p->language, false))
    {
      wb_error (err, WB_E_INVALID, "profile: language must match [a-z0-9_-]{1,32}");
      goto fail;
    }
  item = cJSON_GetObjectItemCaseSensitive (root, "aliases");
  if (item != NULL && (!cJSON_IsArray (item) || cJSON_GetArraySize (item) > PROF_MAX_ALIASES))
    {
      wb_error (err, WB_E_INVALID, "profile: \"aliases\" must be an array of at most %d names",
                PROF_MAX_ALIASES);
      goto fail;
    }
  if (item != NULL)
    {
      cJSON *alias;
      cJSON_ArrayForEach (alias, item)
      {
        const char *s = cJSON_GetStringValue (alias);
        if (s == NULL || !language_name_ok (s, true) || strcmp (s, p->language) == 0)
          {
            wb_error (err, WB_E_INVALID,
                      "profile: each alias must match [a-z0-9_+-]{1,32} and differ "
                      "from the language");
            goto fail;
          }
        if ((p->aliases[p->n_aliases++] = strdup (s)) == NULL)
          goto oom;
      }
    }
  if (cJSON_GetObjectItemCaseSensitive (root, "runtime") == NULL)
    p->runtime = strdup ("runc");
  else
    p->runtime = dup_string_key (root, "runtime", err);
  if (p->runtime == NULL)
    goto fail;

  argv = cJSON_GetObjectItemCaseSensitive (root, "argv");
  if (!cJSON_IsArray (argv) || cJSON_GetArraySize (argv) == 0 || cJSON_GetArraySize (argv) > 64)
    {
      wb_error (err, WB_E_INVALID, "profile: \"argv\" must be an array of 1 to 64 strings");
      goto fail;
    }
  p->argv = calloc ((size_t) cJSON_GetArraySize (argv) + 1, sizeof *p->argv);
  if (p->argv == NULL)
    goto oom;
  cJSON_ArrayForEach (item, argv)
  {
    const char *s = cJSON_GetStringValue (item);
    if (s == NULL)
      {
        wb_error (err, WB_E_INVALID, "profile: \"argv\" must hold strings only");
        goto fail;
      }
    if ((p->argv[p->argc++] = strdup (s)) == NULL)
      goto oom;
  }

  /* "env": ["NAME=value", ...], optional: what the language's libraries
   * read (matplotlib's backend, BLAS threads).  The daemon's own (HOME,
   * TMPDIR, LANG, PATH) can't be replaced. */
  item = cJSON_GetObjectItemCaseSensitive (root, "env");
  if (item)
    {
      cJSON *e;
      if (!cJSON_IsArray (item) || cJSON_GetArraySize (item) > 32)
        {
          wb_error (err, WB_E_INVALID,
                    "profile: \"env\" must be an array of at most 32 \"NAME=value\" strings");
          goto fail;
        }
      if ((p->env = calloc ((size_t) cJSON_GetArraySize (item) + 1, sizeof *p->env)) == NULL)
        goto oom;
      cJSON_ArrayForEach (e, item)
      {
        const char *s = cJSON_GetStringValue (e), *eq = s ? strchr (s, '=') : NULL;
        bool good = eq && eq > s && strlen (s) < 1024 && !(s[0] >= '0' && s[0] <= '9');
        for (const char *c = s; good && c < eq; c++)
          good = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')
                 || *c == '_';
        /* Not the daemon's own, nor what steers the sandbox's inits
         * (WARMBOX_INIT_TRACE would make /warmbox/init spare leftovers),
         * nor a name twice (which one wins would be the runtime's choice). */
        for (size_t k = 0; good && k < p->n_env; k++)
          good = strncmp (p->env[k], s, (size_t) (eq - s) + 1) != 0;
        if (!good || strncmp (s, "HOME=", 5) == 0 || strncmp (s, "TMPDIR=", 7) == 0
            || strncmp (s, "LANG=", 5) == 0 || strncmp (s, "PATH=", 5) == 0
            || strncmp (s, "WARMBOX_", 8) == 0 || strncmp (s, "TINI_", 5) == 0)
          {
            wb_error (
                err, WB_E_INVALID,
                "profile: \"env\" entries are NAME=value, each NAME once, not HOME, TMPDIR, LANG, "
                "PATH, WARMBOX_* or TINI_*");
            goto fail;
          }
        if ((p->env[p->n_env++] = strdup (s)) == NULL)
          goto oom;
      }
    }

  if (parse_stages (root, p, err) < 0 || parse_naming (root, p, err) < 0)
    goto fail;

  limits = cJSON_GetObjectItemCaseSensitive (root, "limits");
  if (parse_limits (cJSON_GetObjectItemCaseSensitive (limits, "default"), "default",
                    p->compile_argv != NULL, &p->def, err)
          < 0
      || parse_limits (cJSON_GetObjectItemCaseSensitive (limits, "max"), "max",
                       p->compile_argv != NULL, &p->max, err)
             < 0
      || limits_within (&p->def, &p->max, err) < 0)
    goto fail;

  if (strcmp (p->runtime, "runsc") == 0 && runsc_adjust (sc) < 0)
    goto oom;
  p->seccomp_json = cJSON_PrintUnformatted (sc);
  if (p->seccomp_json == NULL)
    goto oom;
  if (wb_buf_append (&both, json, json_len) < 0 || wb_buf_append (&both, seccomp, seccomp_len) < 0)
    goto oom;
  wb_sha256_hex (both.data, both.len, p->hash);
  *out = p;
  return 0;

oom:
  wb_error (err, WB_E_NOMEM, "profile: out of memory");
fail:
  prof_free (p);
  return -1;
}

static int
read_file (const char *path, size_t max, wb_buf_t *out, wb_err_t *err)
{
  cleanup_file FILE *f = fopen (path, "re");
  char chunk[8192];
  size_t n;

  if (f == NULL)
    return wb_error_errno (err, WB_E_IO, errno, "open %s", path);
  while ((n = fread (chunk, 1, sizeof chunk, f)) > 0)
    {
      if (out->len + n > max)
        return wb_error (err, WB_E_TOO_LARGE, "%s: larger than %zu bytes", path, max);
      if (wb_buf_append (out, chunk, n) < 0)
        return wb_error (err, WB_E_NOMEM, "%s: out of memory", path);
    }
  if (ferror (f))
    return wb_error_errno (err, WB_E_IO, errno, "read %s", path);
  return 0;
}

int
prof_load_file (const char *dir, prof_t **out, wb_err_t *err)
{
  cleanup_buf wb_buf_t path = WB_BUF_INIT;
  cleanup_buf wb_buf_t json = WB_BUF_INIT;
  cleanup_buf wb_buf_t sc = WB_BUF_INIT;
  cleanup_json cJSON *root = NULL;
  const char *sc_name;

  if (wb_buf_printf (&path, "%s/profile.json", dir) < 0)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  if (read_file (path.data, PROFILE_FILE_MAX, &json, err) < 0)
    return -1;
  root = cJSON_ParseWithLength (json.data, json.len);
  sc_name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "seccomp"));
  if (sc_name == NULL || strchr (sc_name, '/') != NULL || *sc_name == '.')
    return wb_error (err, WB_E_INVALID, "%s: \"seccomp\" must name a file in the same folder",
                     path.data);
  wb_buf_reset (&path);
  if (wb_buf_printf (&path, "%s/%s", dir, sc_name) < 0)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  if (read_file (path.data, PROFILE_FILE_MAX, &sc, err) < 0)
    return -1;
  if (prof_seccomp_check (sc.data, sc.len, err) < 0)
    return wb_err_wrap (err, "%s", path.data);
  if (prof_parse (json.data, json.len, sc.data, sc.len, out, err) < 0)
    return wb_err_wrap (err, "%s/profile.json", dir);
  return 0;
}

static int
cmp_prof (const void *a, const void *b)
{
  return strcmp ((*(prof_t *const *) a)->language, (*(prof_t *const *) b)->language);
}

int
prof_load_dir (const char *dir, prof_set_t **out, wb_err_t *err)
{
  DIR *d = opendir (dir);
  struct dirent *de;
  prof_set_t *set;

  if (d == NULL)
    return wb_error_errno (err, WB_E_IO, errno, "profiles folder %s", dir);
  set = calloc (1, sizeof *set);
  if (set == NULL)
    {
      closedir (d);
      return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  while ((de = readdir (d)))
    {
      cleanup_buf wb_buf_t sub = WB_BUF_INIT;
      cleanup_buf wb_buf_t probe = WB_BUF_INIT;
      struct stat st;
      prof_t *p = NULL, **items;

      if (de->d_name[0] == '.')
        continue;
      if (wb_buf_printf (&sub, "%s/%s", dir, de->d_name) < 0
          || wb_buf_printf (&probe, "%s/profile.json", sub.data) < 0)
        goto oom;
      if (stat (probe.data, &st) < 0)
        continue; /* not a profile folder */
      if (prof_load_file (sub.data, &p, err) < 0)
        goto fail;
      if (prof_find_alias (set, p->language))
        {
          wb_error (err, WB_E_INVALID, "%s: language %s is defined twice", sub.data, p->language);
          prof_free (p);
          goto fail;
        }
      for (size_t i = 0; i < p->n_aliases; i++)
        if (prof_find_alias (set, p->aliases[i]))
          {
            wb_error (err, WB_E_INVALID, "%s: alias %s is taken", sub.data, p->aliases[i]);
            prof_free (p);
            goto fail;
          }
      items = realloc (set->items, (set->n + 1) * sizeof *items);
      if (items == NULL)
        {
          prof_free (p);
          goto oom;
        }
      set->items = items;
      set->items[set->n++] = p;
    }
  closedir (d);
  d = NULL;
  if (set->n == 0)
    {
      wb_error (err, WB_E_INVALID, "profiles folder %s holds no profile", dir);
      goto fail;
    }
  qsort (set->items, set->n, sizeof *set->items, cmp_prof);
  *out = set;
  return 0;

oom:
  wb_error (err, WB_E_NOMEM, "out of memory");
fail:
  if (d)
    closedir (d);
  prof_set_free (set);
  return -1;
}

bool
prof_runs_warmbox_init (const prof_t *p)
{
  return p->argv && p->argv[0] && strcmp (p->argv[0], PROF_INIT_PATH) == 0;
}

/* oci/image.c: the image store.  One directory per image, named by its id
 * (the SHA-256 of its config, as Docker names it, so a pool key is the
 * same on every engine), holding the root file system unpacked once and
 * shared read-only by every container of that image, and the config.
 *
 *   <images>/<hex>/rootfs/      the layer, unpacked (owners kept)
 *   <images>/<hex>/config.json  the image's config (its SHA-256 is <hex>)
 *   <images>/tags/<tag>         the id a tag names (the tag %-escaped)
 *
 * An image comes in as a docker-save archive (POST /images/load from a
 * local engine's GET /images/{id}/get, or `warmbox-oci load` at image
 * build).  It is taken only whole and checked: the archive by engine/'s
 * eng_archive_check (plain names, no links, the config's digest is the
 * id), the layer by its diff_id.  It is unpacked beside the store and
 * renamed into place, so an image directory is either absent or whole. */
#define _GNU_SOURCE
#include "oci/oci.h"

#include "warmbox/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MANIFEST_MAX (64 * 1024)
#define CONFIG_MAX (1024 * 1024)

static ssize_t
read_at_fd (void *arg, void *buf, size_t count, uint64_t offset)
{
  int fd = *(int *) arg;
  size_t got = 0;
  while (got < count)
    {
      ssize_t n = pread (fd, (char *) buf + got, count - got, (off_t) (offset + got));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      got += (size_t) n;
    }
  return (ssize_t) got;
}

static bool
is_hex64 (const char *s)
{
  return strlen (s) == 64 && strspn (s, "0123456789abcdef") == 64;
}

/* A tag as a file name: every byte but [A-Za-z0-9._-] as %XX. */
static int
tag_file (const char *images, const char *tag, char *out, size_t size)
{
  char esc[400];
  size_t k = 0;
  for (const char *p = tag; *p; p++)
    {
      unsigned char c = (unsigned char) *p;
      if (k + 4 >= sizeof esc)
        return -1;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
          || c == '_' || c == '-')
        esc[k++] = (char) c;
      else
        k += (size_t) snprintf (esc + k, sizeof esc - k, "%%%02X", c);
    }
  esc[k] = '\0';
  if (k == 0 || esc[0] == '.')
    return -1;
  return snprintf (out, size, "%s/tags/%s", images, esc) < (int) size ? 0 : -1;
}

/* Run argv (stdin from in, unless -1), wait for it.  0 when it exited 0. */
static int
run_wait_in (char *const argv[], int in)
{
  pid_t pid = fork ();
  int st;
  if (pid < 0)
    return -1;
  if (pid == 0)
    {
      if (in >= 0 && (dup2 (in, 0) < 0 || lseek (0, 0, SEEK_SET) < 0))
        _exit (126);
      execv (argv[0], argv);
      _exit (127);
    }
  while (waitpid (pid, &st, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED (st) && WEXITSTATUS (st) == 0 ? 0 : -1;
}

static int
run_wait (char *const argv[])
{
  return run_wait_in (argv, -1);
}

static int
remove_tree (const char *path)
{
  char *argv[] = {"/bin/rm", "-rf", "--one-file-system", (char *) path, NULL};
  return run_wait (argv);
}

static int
sha256_file (const char *path, char out[65])
{
  unsigned char md[32], buf[1 << 16];
  unsigned int len = 0;
  EVP_MD_CTX *ctx = EVP_MD_CTX_new ();
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), rc = -1;
  ssize_t n;

  if (ctx == NULL || fd < 0 || EVP_DigestInit_ex (ctx, EVP_sha256 (), NULL) != 1)
    goto out;
  while ((n = read (fd, buf, sizeof buf)) > 0)
    if (EVP_DigestUpdate (ctx, buf, (size_t) n) != 1)
      goto out;
  if (n < 0 || EVP_DigestFinal_ex (ctx, md, &len) != 1 || len != 32)
    goto out;
  for (int i = 0; i < 32; i++)
    snprintf (out + 2 * i, 3, "%02x", md[i]);
  rc = 0;
out:
  if (fd >= 0)
    close (fd);
  EVP_MD_CTX_free (ctx);
  return rc;
}

static int
write_file (const char *path, const char *data, size_t len)
{
  char tmp[4200];
  int fd;
  snprintf (tmp, sizeof tmp, "%s.new", path);
  if ((fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0)
    return -1;
  if (write (fd, data, len) != (ssize_t) len || fsync (fd) < 0)
    {
      close (fd);
      unlink (tmp);
      return -1;
    }
  close (fd);
  return rename (tmp, path);
}

/* The mount points every container's spec uses (spec.c: /proc, /dev,
 * /sys, /tmp, the init at /sbin/docker-init), made in a freshly unpacked
 * root, so that a create writes nothing into the shared root: a user
 * namespace's root, which is no one on the host, could not, and the store
 * stays as loaded.  A component that is a symbolic link is left to the
 * runtime, which resolves it inside the root (never followed from here). */
static int
make_mount_points (const char *rootfs)
{
  static const char *const dirs[] = {"proc", "dev", "sys", "tmp", "sbin"};
  int root = open (rootfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW), sbin = -1, fd, rc = -1;
  if (root < 0)
    return -1;
  for (size_t i = 0; i < WB_ARRAY_SIZE (dirs); i++)
    if (mkdirat (root, dirs[i], 0755) < 0 && errno != EEXIST)
      goto out;
  sbin = openat (root, "sbin", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (sbin >= 0)
    {
      fd = openat (sbin, "docker-init", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0755);
      if (fd < 0 && errno != EEXIST)
        goto out;
      if (fd >= 0)
        close (fd);
    }
  else if (errno != ELOOP && errno != ENOTDIR)
    goto out;
  rc = 0;
out:
  if (sbin >= 0)
    close (sbin);
  close (root);
  return rc;
}

int
oci_image_load (const char *images, int fd, char *id_out, size_t id_size, wb_err_t *err)
{
  char *manifest = malloc (MANIFEST_MAX), *config = malloc (CONFIG_MAX);
  char work[4096], path[4300], layer[4300], id[72], digest[65];
  size_t mlen = 0, clen = 0;
  cJSON *m = NULL, *c = NULL;
  const char *tag = NULL, *cfg_name, *layer_name, *diff_id;
  int rc = -1;

  work[0] = '\0';
  if (manifest == NULL || config == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      goto out;
    }
  if (eng_tar_member (read_at_fd, &fd, "manifest.json", manifest, MANIFEST_MAX, &mlen) != 1
      || (m = cJSON_ParseWithLength (manifest, mlen)) == NULL || cJSON_GetArraySize (m) != 1)
    {
      wb_error (err, WB_E_INVALID, "the archive has no manifest.json of one image");
      goto out;
    }
  {
    cJSON *img = cJSON_GetArrayItem (m, 0);
    cfg_name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (img, "Config"));
    cJSON *layers = cJSON_GetObjectItemCaseSensitive (img, "Layers");
    tag = cJSON_GetStringValue (
        cJSON_GetArrayItem (cJSON_GetObjectItemCaseSensitive (img, "RepoTags"), 0));
    if (cJSON_GetArraySize (layers) != 1)
      {
        wb_error (err, WB_E_INVALID,
                  "the image has %d layers; this engine takes images of one "
                  "layer (warmbox's own, made by docker import)",
                  cJSON_GetArraySize (layers));
        goto out;
      }
    layer_name = cJSON_GetStringValue (cJSON_GetArrayItem (layers, 0));
  }
  if (cfg_name == NULL || strlen (cfg_name) != 69 || strcmp (cfg_name + 64, ".json") != 0
      || layer_name == NULL)
    {
      wb_error (err, WB_E_INVALID, "the manifest names no config <id>.json or no layer");
      goto out;
    }
  snprintf (id, sizeof id, "sha256:%.64s", cfg_name);
  if (!is_hex64 (id + 7))
    {
      wb_error (err, WB_E_INVALID, "the config's name is not an id");
      goto out;
    }
  if (eng_archive_check (read_at_fd, &fd, id, tag ? tag : "", err) < 0)
    goto out;
  if (eng_tar_member (read_at_fd, &fd, cfg_name, config, CONFIG_MAX, &clen) != 1
      || (c = cJSON_ParseWithLength (config, clen)) == NULL)
    {
      wb_error (err, WB_E_INVALID, "the image's config cannot be read");
      goto out;
    }
  diff_id = cJSON_GetStringValue (cJSON_GetArrayItem (
      cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (c, "rootfs"), "diff_ids"),
      0));
  if (diff_id == NULL || strncmp (diff_id, "sha256:", 7) != 0 || !is_hex64 (diff_id + 7))
    {
      wb_error (err, WB_E_INVALID, "the image's config has no layer digest");
      goto out;
    }
  snprintf (path, sizeof path, "%s/%s", images, id + 7);
  if (access (path, F_OK) == 0)
    goto tagged; /* already here, whole (it was renamed into place) */

  /* Unpack the archive beside the store (checked: plain names, regular
   * files and folders only), check the layer, then unpack the layer. */
  snprintf (work, sizeof work, "%s/.load-XXXXXX", images);
  if (mkdtemp (work) == NULL)
    {
      wb_error_errno (err, WB_E_IO, errno, "mkdtemp in %s", images);
      work[0] = '\0';
      goto out;
    }
  {
    char dir[4200];
    snprintf (dir, sizeof dir, "%s/archive", work);
    char *untar[] = {"/bin/tar", "-x", "--no-same-owner", "--no-same-permissions", "-f", "-", "-C",
                     dir,        NULL};
    if (mkdir (dir, 0700) < 0 || run_wait_in (untar, fd) < 0)
      {
        wb_error (err, WB_E_IO, "the archive could not be unpacked");
        goto out;
      }
    if (strstr (layer_name, "..") || layer_name[0] == '/')
      {
        wb_error (err, WB_E_INVALID, "the layer's name is not plain");
        goto out;
      }
    snprintf (layer, sizeof layer, "%s/%s", dir, layer_name);
  }
  if (sha256_file (layer, digest) < 0 || strcmp (digest, diff_id + 7) != 0)
    {
      wb_error (err, WB_E_INVALID, "the layer's SHA-256 is not the config's diff_id %.19s",
                diff_id);
      goto out;
    }
  {
    char rootfs[4200];
    snprintf (rootfs, sizeof rootfs, "%s/rootfs", work);
    /* The layer is a root file system: owners and modes as they are in
     * it (the root is mounted read-only and nosuid is not needed: no
     * container gets a capability or a new privilege). */
    char *untar[] = {"/bin/tar",
                     "-x",
                     "--numeric-owner",
                     "--same-permissions",
                     "--same-owner",
                     "-f",
                     layer,
                     "-C",
                     rootfs,
                     NULL};
    /* No set-uid or set-gid file and no device node in the store, whatever
     * the layer held: a sandbox gets no new privilege from them anyway, and
     * a user of the host must not get one either. */
    char *strip[] = {"/usr/bin/find", rootfs,       "-xdev", "(",       "-type", "b",     "-o",
                     "-type",         "c",          ")",     "-delete", "-o",    "-perm", "/6000",
                     "-exec",         "/bin/chmod", "ug-s",  "{}",      "+",     NULL};
    if (mkdir (rootfs, 0755) < 0 || run_wait (untar) < 0 || run_wait (strip) < 0
        || make_mount_points (rootfs) < 0)
      {
        wb_error (err, WB_E_IO, "the layer could not be unpacked");
        goto out;
      }
  }
  {
    char dir[4200], cfgpath[4300];
    snprintf (dir, sizeof dir, "%s/archive", work);
    snprintf (cfgpath, sizeof cfgpath, "%s/config.json", work);
    if (remove_tree (dir) < 0 || write_file (cfgpath, config, clen) < 0)
      {
        wb_error (err, WB_E_IO, "the image's config could not be written");
        goto out;
      }
  }
  if (chmod (work, 0755) < 0 || rename (work, path) < 0)
    {
      if (errno != EEXIST && errno != ENOTEMPTY)
        {
          wb_error_errno (err, WB_E_IO, errno, "rename into %s", path);
          goto out;
        }
    }
  else
    work[0] = '\0';
tagged:
  if (tag)
    {
      char tf[4300];
      snprintf (tf, sizeof tf, "%s/tags", images);
      if ((mkdir (tf, 0755) < 0 && errno != EEXIST) || tag_file (images, tag, tf, sizeof tf) < 0
          || write_file (tf, id, strlen (id)) < 0)
        {
          wb_error (err, WB_E_IO, "tag %.100s could not be written", tag);
          goto out;
        }
    }
  snprintf (id_out, id_size, "%s", id);
  rc = 0;
out:
  if (work[0])
    remove_tree (work);
  cJSON_Delete (m);
  cJSON_Delete (c);
  free (manifest);
  free (config);
  return rc;
}

int
oci_image_find (const char *images, const char *ref, char id[72], char *rootfs, size_t rootfs_size,
                wb_err_t *err)
{
  char hex[65], path[4300];
  struct stat st;

  if (strncmp (ref, "sha256:", 7) == 0 && is_hex64 (ref + 7))
    snprintf (hex, sizeof hex, "%s", ref + 7);
  else if (is_hex64 (ref))
    snprintf (hex, sizeof hex, "%s", ref);
  else
    {
      char tf[4300], buf[80];
      char full[300];
      /* "name" means "name:latest", as for Docker. */
      const char *slash = strrchr (ref, '/');
      snprintf (full, sizeof full, "%s%s", ref, strchr (slash ? slash : ref, ':') ? "" : ":latest");
      int fd = tag_file (images, full, tf, sizeof tf) == 0
                   ? open (tf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                   : -1;
      ssize_t n = fd >= 0 ? read (fd, buf, sizeof buf - 1) : -1;
      if (fd >= 0)
        close (fd);
      if (n != 71 || (buf[n] = '\0', strncmp (buf, "sha256:", 7) != 0) || !is_hex64 (buf + 7))
        return wb_error (err, WB_E_NOT_FOUND, "No such image: %.200s", ref);
      snprintf (hex, sizeof hex, "%.64s", buf + 7);
    }
  snprintf (path, sizeof path, "%s/%s/rootfs", images, hex);
  if (stat (path, &st) < 0 || !S_ISDIR (st.st_mode))
    return wb_error (err, WB_E_NOT_FOUND, "No such image: %.200s", ref);
  snprintf (id, 72, "sha256:%s", hex);
  if (rootfs)
    {
      /* For a create: a root loaded before load made them gets its mount
       * points now (a user namespace's runtime could not); cheap, and a
       * failure is left for the runtime to report. */
      (void) make_mount_points (path);
      snprintf (rootfs, rootfs_size, "%s", path);
    }
  return 0;
}

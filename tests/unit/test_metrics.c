/* The /metrics text (exec/metrics.c), parsed back line by line as a
 * Prometheus scraper would: every family has one HELP and one TYPE line
 * before its series, which are contiguous; histogram buckets are
 * cumulative, their le bounds rise and end in +Inf, whose count is the
 * _count; label values are escaped (\\, \", \n) and read back whole;
 * pools and start gates are labelled per engine, transient pools left
 * out.  Then every allocation of a render fails in turn. */
#define _GNU_SOURCE
#include "exec/metrics.h"
#include "failmalloc.h"
#include "tap.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#define MAX_LABELS 8

typedef struct sample
{
  char name[96];
  size_t n_labels;
  char key[MAX_LABELS][32];
  char value[MAX_LABELS][160]; /* unescaped */
  double v;
} sample_t;

/* One series line into s: name, {k="v",...} with the values unescaped, a
 * value.  false when it is not one the text format allows. */
static bool
parse_series (const char *line, sample_t *s)
{
  const char *p = line;
  size_t n = 0;
  char *end;

  memset (s, 0, sizeof *s);
  while (*p && *p != '{' && *p != ' ')
    {
      if (n + 1 >= sizeof s->name || !(isalnum ((unsigned char) *p) || *p == '_' || *p == ':'))
        return false;
      s->name[n++] = *p++;
    }
  if (n == 0)
    return false;
  if (*p == '{')
    {
      p++;
      while (*p != '}')
        {
          size_t k = 0, v = 0;
          if (s->n_labels == MAX_LABELS)
            return false;
          while (*p && *p != '=')
            {
              if (k + 1 >= sizeof s->key[0] || !(isalnum ((unsigned char) *p) || *p == '_'))
                return false;
              s->key[s->n_labels][k++] = *p++;
            }
          if (k == 0 || p[0] != '=' || p[1] != '"')
            return false;
          p += 2;
          while (*p != '"')
            {
              char c = *p++;
              if (c == '\0' || c == '\n' || v + 1 >= sizeof s->value[0])
                return false;
              if (c == '\\')
                {
                  c = *p++;
                  if (c == 'n')
                    c = '\n';
                  else if (c != '\\' && c != '"')
                    return false;
                }
              s->value[s->n_labels][v++] = c;
            }
          p++;
          s->n_labels++;
          if (*p == ',')
            p++;
          else if (*p != '}')
            return false;
        }
      p++;
    }
  if (*p != ' ')
    return false;
  p++;
  if (strcmp (p, "+Inf") == 0)
    {
      s->v = INFINITY;
      return true;
    }
  s->v = strtod (p, &end);
  return end != p && *end == '\0';
}

static const char *
label (const sample_t *s, const char *key)
{
  for (size_t i = 0; i < s->n_labels; i++)
    if (strcmp (s->key[i], key) == 0)
      return s->value[i];
  return NULL;
}

/* The family a series belongs to: its name, less a histogram's suffix
 * when the family is a histogram. */
typedef struct family
{
  char name[96];
  char type[32];
  bool help, closed;
} family_t;

static family_t fams[128];
static size_t n_fams;
static sample_t samples[2048];
static size_t n_samples;

static family_t *
family_of (const char *name)
{
  for (size_t i = 0; i < n_fams; i++)
    if (strcmp (fams[i].name, name) == 0)
      return &fams[i];
  return NULL;
}

/* Parse text; count each rule broken (printing the first few). */
static int
parse_text (const char *text)
{
  char *copy = strdup (text), *save = NULL, *line;
  family_t *cur = NULL;
  int bad = 0;

  n_fams = n_samples = 0;
  if (text[0] == '\0' || text[strlen (text) - 1] != '\n')
    bad++, printf ("# the text does not end in a line feed\n");
  for (line = strtok_r (copy, "\n", &save); line; line = strtok_r (NULL, "\n", &save))
    {
      char name[96], word[32];
      if (strncmp (line, "# HELP ", 7) == 0)
        {
          if (sscanf (line + 7, "%95s", name) != 1 || family_of (name)
              || n_fams == WB_ARRAY_SIZE (fams))
            {
              if (bad++ < 5)
                printf ("# a second or malformed HELP: %s\n", line);
              continue;
            }
          if (cur)
            cur->closed = true;
          cur = &fams[n_fams++];
          memset (cur, 0, sizeof *cur);
          snprintf (cur->name, sizeof cur->name, "%s", name);
          cur->help = strlen (line + 7) > strlen (name) + 1;
        }
      else if (strncmp (line, "# TYPE ", 7) == 0)
        {
          if (sscanf (line + 7, "%95s %31s", name, word) != 2 || cur == NULL
              || strcmp (cur->name, name) != 0 || cur->type[0]
              || (strcmp (word, "counter") && strcmp (word, "gauge") && strcmp (word, "histogram")))
            {
              if (bad++ < 5)
                printf ("# a TYPE not right after its HELP, or malformed: %s\n", line);
              continue;
            }
          snprintf (cur->type, sizeof cur->type, "%s", word);
        }
      else
        {
          sample_t *s = &samples[n_samples];
          char fam[96];
          if (n_samples == WB_ARRAY_SIZE (samples) || !parse_series (line, s))
            {
              if (bad++ < 5)
                printf ("# not a series line: %s\n", line);
              continue;
            }
          snprintf (fam, sizeof fam, "%s", s->name);
          if (cur && strcmp (cur->type, "histogram") == 0)
            for (const char *const *suf = (const char *const[]){"_bucket", "_sum", "_count", NULL};
                 *suf; suf++)
              {
                size_t l = strlen (fam), ls = strlen (*suf);
                if (l > ls && strcmp (fam + l - ls, *suf) == 0)
                  {
                    fam[l - ls] = '\0';
                    break;
                  }
              }
          if (cur == NULL || strcmp (cur->name, fam) != 0 || !cur->help || !cur->type[0])
            {
              if (bad++ < 5)
                printf ("# a series outside its family's block (after its HELP and TYPE): %s\n",
                        line);
              continue;
            }
          if (strcmp (cur->type, "counter") == 0
              && strcmp (s->name + strlen (s->name) - 6, "_total") != 0)
            if (bad++ < 5)
              printf ("# a counter not named *_total: %s\n", line);
          n_samples++;
        }
    }
  free (copy);
  return bad;
}

/* The value of the one series of name whose labels include each pair of
 * want (NULL-ended k, v, k, v ...), or -1 (none, or several; every value
 * here is >= 0). */
static double
value_of (const char *name, const char *const *want)
{
  double v = -1;
  int found = 0;

  for (size_t i = 0; i < n_samples; i++)
    {
      bool match = strcmp (samples[i].name, name) == 0;
      for (const char *const *w = want; match && w && *w; w += 2)
        match = label (&samples[i], w[0]) && strcmp (label (&samples[i], w[0]), w[1]) == 0;
      if (match)
        v = samples[i].v, found++;
    }
  return found == 1 ? v : -1;
}

static size_t
count_of (const char *name)
{
  size_t n = 0;
  for (size_t i = 0; i < n_samples; i++)
    n += strcmp (samples[i].name, name) == 0;
  return n;
}

/* Every histogram's buckets, per language: le rising, ending in +Inf,
 * counts never falling, +Inf's the _count.  Returns the rules broken. */
static int
check_histograms (size_t *n_checked)
{
  int bad = 0;

  *n_checked = 0;
  for (size_t f = 0; f < n_fams; f++)
    {
      char bucket[110], count[110];
      if (strcmp (fams[f].type, "histogram") != 0)
        continue;
      snprintf (bucket, sizeof bucket, "%s_bucket", fams[f].name);
      snprintf (count, sizeof count, "%s_count", fams[f].name);
      for (size_t i = 0; i < n_samples; i++)
        {
          const char *lang;
          double last_le = -INFINITY, last_n = 0;
          if (strcmp (samples[i].name, count) != 0)
            continue;
          lang = label (&samples[i], "language");
          (*n_checked)++;
          for (size_t k = 0; k < n_samples; k++)
            {
              const char *le = label (&samples[k], "le");
              double lev;
              if (strcmp (samples[k].name, bucket) != 0
                  || strcmp (label (&samples[k], "language") ?: "", lang ?: "") != 0)
                continue;
              lev = le && strcmp (le, "+Inf") == 0 ? INFINITY : le ? strtod (le, NULL) : NAN;
              if (!(lev > last_le) || samples[k].v < last_n)
                if (bad++ < 5)
                  printf ("# %s{language=%s,le=%s}: le not rising or the count falling\n", bucket,
                          lang, le);
              last_le = lev;
              last_n = samples[k].v;
            }
          if (last_le != INFINITY || last_n != samples[i].v)
            if (bad++ < 5)
              printf ("# %s{language=%s}: the last bucket is not +Inf holding the count\n", bucket,
                      lang);
        }
    }
  return bad;
}

static startgate_t gate_a, gate_b;
static pool_stats_t pools_a[3], pools_b[1];

static void
state (metrics_t *m, metrics_engine_t engines[2])
{
  startgate_config_t gc = {4, 1, 8};

  memset (m, 0, sizeof *m);
  metrics_observe (m, "python", M_RUN, 0.003);
  metrics_observe (m, "python", M_RUN, 0.02);
  metrics_observe (m, "python", M_RUN, 0.7);
  metrics_observe (m, "python", M_RUN, 100);       /* past the last bound: +Inf only */
  metrics_observe (m, "python", M_RUN, -1);        /* ignored */
  metrics_observe (m, "javascript", M_TOTAL, 1.0); /* on a bound: counted in it */
  metrics_observe (m, "we\"ird\\lang\nx", M_START, 0.2);
  metrics_count_status (m, "python", "ok");
  metrics_count_status (m, "python", "ok");
  metrics_count_status (m, "python", "timeout");
  metrics_count_status (m, "javascript", "ok");

  startgate_init (&gate_a, &gc);
  startgate_init (&gate_b, &gc);
  gate_a.in_flight = 2;
  gate_a.queued = 5;
  pools_a[0]
      = (pool_stats_t){.language = "python", .key = "py-1", .ready = 3, .target = 4, .hits = 7};
  pools_a[1] = (pool_stats_t){.language = "python", .key = "py-tmp", .transient = true, .ready = 1};
  pools_a[2]
      = (pool_stats_t){.language = "javascript", .key = "js\"1\\\n", .ready = 0, .draining = true};
  pools_b[0] = (pool_stats_t){.language = "python", .key = "py-1", .ready = 2, .target = 2};
  engines[0] = (metrics_engine_t){"local", true, &gate_a, pools_a, 3, 2};
  engines[1] = (metrics_engine_t){"remote\"\\", false, &gate_b, pools_b, 1, 0};
}

static void
test_text (void)
{
  metrics_t m;
  metrics_engine_t engines[2];
  cleanup_buf wb_buf_t out = WB_BUF_INIT;
  size_t n_hist;

  state (&m, engines);
  if (!ok (metrics_render (&m, engines, 2, 3, 1, &out) == 0 && out.data, "rendered"))
    return;
  is_int (parse_text (out.data), 0,
          "every line is a HELP, a TYPE or a series, in the family's block");
  is_int (check_histograms (&n_hist), 0,
          "histograms: le rising to +Inf, counts cumulative, +Inf = _count");
  is_int (n_hist, 3 * METRICS_N_HIST, "... for each of the %d histograms and the 3 languages",
          METRICS_N_HIST);

  const char *py_run[] = {"language", "python", "le", NULL, NULL};
  static const struct
  {
    const char *le;
    double n;
  } run[] = {{"0.005", 1}, {"0.01", 1}, {"0.025", 2}, {"0.5", 2}, {"1", 3}, {"60", 3}, {"+Inf", 4}};
  for (size_t i = 0; i < WB_ARRAY_SIZE (run); i++)
    {
      py_run[3] = run[i].le;
      is_int (value_of ("warmbox_run_seconds_bucket", py_run), run[i].n, "python run le=%s: %.0f",
              run[i].le, run[i].n);
    }
  is_int (value_of ("warmbox_run_seconds_count", (const char *[]){"language", "python", NULL}), 4,
          "python run count 4 (a negative time is not observed)");
  ok (fabs (value_of ("warmbox_run_seconds_sum", (const char *[]){"language", "python", NULL})
            - 100.723)
          < 1e-6,
      "python run sum 100.723");
  is_int (value_of ("warmbox_execution_seconds_bucket",
                    (const char *[]){"language", "javascript", "le", "1", NULL}),
          1, "a time on a bound counts in that bucket");
  is_int (value_of ("warmbox_execution_seconds_bucket",
                    (const char *[]){"language", "javascript", "le", "0.5", NULL}),
          0, "... not in the one below");
  is_int (value_of ("warmbox_executions_total",
                    (const char *[]){"language", "python", "status", "ok", NULL}),
          2, "executions by language and status");
  is_int (value_of ("warmbox_executions_total",
                    (const char *[]){"language", "python", "status", "timeout", NULL}),
          1, "... another status");
  is_int (count_of ("warmbox_executions_total"), 3, "... one series per pair seen");

  /* Labels escaped, and read back whole. */
  is_int (value_of ("warmbox_start_seconds_count",
                    (const char *[]){"language", "we\"ird\\lang\nx", NULL}),
          1, "a language with a quote, a backslash and a line feed reads back whole");
  ok (strstr (out.data, "language=\"we\\\"ird\\\\lang\\nx\"") != NULL, "... written escaped");
  is_int (value_of ("warmbox_engine_up", (const char *[]){"engine", "remote\"\\", NULL}), 0,
          "an engine name with a quote and a backslash: down");

  /* Per engine. */
  is_int (value_of ("warmbox_engine_up", (const char *[]){"engine", "local", NULL}), 1,
          "engine local up");
  is_int (count_of ("warmbox_engine_up"), 2, "one warmbox_engine_up per engine");
  is_int (value_of ("warmbox_engine_executions", (const char *[]){"engine", "local", NULL}), 2,
          "executions placed on local");
  is_int (value_of ("warmbox_starts_in_flight", (const char *[]){"engine", "local", NULL}), 2,
          "local's starts in flight");
  is_int (value_of ("warmbox_starts_queued", (const char *[]){"engine", "local", NULL}), 5,
          "local's starts queued");
  is_int (value_of ("warmbox_start_limit", (const char *[]){"engine", "remote\"\\", NULL}), 4,
          "remote's start limit (its gate's initial)");
  is_int (value_of ("warmbox_pool_ready",
                    (const char *[]){"engine", "local", "pool", "py-1", "draining", "false", NULL}),
          3, "a pool is labelled with its engine, language, key and draining");
  is_int (value_of ("warmbox_pool_ready",
                    (const char *[]){"engine", "remote\"\\", "pool", "py-1", NULL}),
          2, "the same key on another engine is another series");
  is_int (value_of ("warmbox_pool_ready",
                    (const char *[]){"pool", "js\"1\\\n", "draining", "true", NULL}),
          0, "a draining pool, its key escaped");
  is_int (value_of ("warmbox_pool_hits_total",
                    (const char *[]){"engine", "local", "pool", "py-1", NULL}),
          7, "hits");
  is_int (count_of ("warmbox_pool_ready"), 3, "transient pools are left out");
  ok (strstr (out.data, "py-tmp") == NULL, "... of every family");
  is_int (value_of ("warmbox_executions_running", NULL), 3, "running");
  is_int (value_of ("warmbox_executions_queued", NULL), 1, "queued");

  /* Every family documented. */
  int typed = 0;
  for (size_t i = 0; i < n_fams; i++)
    typed += fams[i].help && fams[i].type[0];
  is_int (typed, n_fams, "each of the %zu families has a HELP text and a TYPE", n_fams);
}

static void
test_empty (void)
{
  metrics_t m;
  cleanup_buf wb_buf_t out = WB_BUF_INIT;
  size_t n_hist;

  memset (&m, 0, sizeof m);
  ok (metrics_render (&m, NULL, 0, 0, 0, &out) == 0, "nothing observed, no engine: rendered");
  is_int (parse_text (out.data), 0, "... well formed");
  is_int (check_histograms (&n_hist), 0, "... and no histogram series");
  is_int (n_hist, 0, "... none");
  is_int (value_of ("warmbox_executions_queued", NULL), 0, "... the gauges are there");
}

static void
test_alloc_faults (void)
{
  metrics_t m;
  metrics_engine_t engines[2];
  long n;
  int failed = 0, wrong = 0;

  state (&m, engines);
  for (n = 1;; n++)
    {
      wb_buf_t out = WB_BUF_INIT;
      int rc;
      failmalloc_arm (n);
      rc = metrics_render (&m, engines, 2, 3, 1, &out);
      bool fired = failmalloc_fired ();
      failmalloc_arm (0);
      wb_buf_free (&out);
      if (!fired)
        {
          wrong += rc != 0;
          break;
        }
      failed++;
      wrong += rc != -1;
    }
  ok (failed > 0 && wrong == 0,
      "each of the %d allocations of a render failing: -1 (nothing leaks: ASan)", failed);
}

int
main (void)
{
  failmalloc_install ();
  test_text ();
  test_empty ();
  test_alloc_faults ();
  return tap_done ();
}

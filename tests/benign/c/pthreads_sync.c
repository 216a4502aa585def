/* pthreads: mutex, condition variables (a bounded queue), rwlock, barrier, once, TLS, semaphores,
 * detached threads, timed waits, C11 threads and atomics. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); exit(1); } } while (0)
#define NT 8

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static void *add_many(void *arg) {
    for (int i = 0; i < 100000; i++) { pthread_mutex_lock(&mu); counter++; pthread_mutex_unlock(&mu); }
    return arg;
}

/* bounded queue */
#define QCAP 16
static int q[QCAP], qh, qt, qn, done_producing;
static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;
static void *producer(void *arg) {
    int base = *(int *)arg;
    for (int i = 1; i <= 10000; i++) {
        pthread_mutex_lock(&qm);
        while (qn == QCAP) pthread_cond_wait(&not_full, &qm);
        q[qt] = base + i; qt = (qt + 1) % QCAP; qn++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&qm);
    }
    return NULL;
}
static void *consumer(void *arg) {
    long long *sum = arg;
    for (;;) {
        pthread_mutex_lock(&qm);
        while (qn == 0 && !done_producing) pthread_cond_wait(&not_empty, &qm);
        if (qn == 0 && done_producing) { pthread_mutex_unlock(&qm); return NULL; }
        int v = q[qh]; qh = (qh + 1) % QCAP; qn--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&qm);
        *sum += v;
    }
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int table[64];
static pthread_barrier_t bar;
static atomic_int readers_ok, once_runs;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static __thread int tls_value;
static pthread_key_t key;
static void init_once(void) { atomic_fetch_add(&once_runs, 1); }
static void key_dtor(void *p) { free(p); }
static void *rw_worker(void *arg) {
    long id = (long)arg;
    pthread_once(&once, init_once);
    tls_value = (int)id;
    int *mine = malloc(sizeof *mine); *mine = (int)id * 10;
    pthread_setspecific(key, mine);
    pthread_barrier_wait(&bar);
    for (int r = 0; r < 1000; r++) {
        if (r % 10 == 0) { pthread_rwlock_wrlock(&rw); for (int i = 0; i < 64; i++) table[i]++; pthread_rwlock_unlock(&rw); }
        else { pthread_rwlock_rdlock(&rw); int ok = 1; for (int i = 1; i < 64; i++) ok &= table[i] == table[0]; pthread_rwlock_unlock(&rw); if (ok) atomic_fetch_add(&readers_ok, 1); }
        if (r % 100 == 0) sched_yield();
    }
    CHECK(tls_value == id && *(int *)pthread_getspecific(key) == id * 10);
    return NULL;
}

static sem_t sem;
static atomic_int detached_ran;
static void *detached(void *arg) { (void)arg; atomic_fetch_add(&detached_ran, 1); sem_post(&sem); return NULL; }

static atomic_long c11_total;
static mtx_t c11_mu;
static int c11_worker(void *arg) {
    for (int i = 0; i < 1000; i++) { mtx_lock(&c11_mu); atomic_fetch_add(&c11_total, (long)(intptr_t)arg); mtx_unlock(&c11_mu); }
    return 7;
}

int main(void) {
    pthread_t th[NT];
    for (long i = 0; i < NT; i++) CHECK(pthread_create(&th[i], NULL, add_many, (void *)i) == 0);
    for (long i = 0; i < NT; i++) { void *ret; pthread_join(th[i], &ret); CHECK(ret == (void *)i); }
    CHECK(counter == NT * 100000L);

    int bases[3] = {0, 100000, 200000};
    pthread_t prod[3], cons[2]; long long sums[2] = {0, 0};
    for (int i = 0; i < 2; i++) pthread_create(&cons[i], NULL, consumer, &sums[i]);
    for (int i = 0; i < 3; i++) pthread_create(&prod[i], NULL, producer, &bases[i]);
    for (int i = 0; i < 3; i++) pthread_join(prod[i], NULL);
    pthread_mutex_lock(&qm); done_producing = 1; pthread_cond_broadcast(&not_empty); pthread_mutex_unlock(&qm);
    for (int i = 0; i < 2; i++) pthread_join(cons[i], NULL);
    CHECK(sums[0] + sums[1] == 3LL * 10000 * 10001 / 2 + 10000LL * 300000);

    pthread_key_create(&key, key_dtor);
    pthread_barrier_init(&bar, NULL, NT);
    pthread_attr_t attr; pthread_attr_init(&attr); pthread_attr_setstacksize(&attr, 256 * 1024);
    for (long i = 0; i < NT; i++) CHECK(pthread_create(&th[i], &attr, rw_worker, (void *)i) == 0);
    for (int i = 0; i < NT; i++) pthread_join(th[i], NULL);
    CHECK(table[0] == NT * 100 && table[63] == NT * 100 && once_runs == 1 && readers_ok == NT * 900);
    pthread_barrier_destroy(&bar);

    /* detached threads signalling a semaphore */
    sem_init(&sem, 0, 0);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < 4; i++) { pthread_t d; CHECK(pthread_create(&d, &attr, detached, NULL) == 0); }
    for (int i = 0; i < 4; i++) sem_wait(&sem);
    CHECK(detached_ran == 4);
    pthread_attr_destroy(&attr);

    /* a timed wait that times out */
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    struct timespec dl; clock_gettime(CLOCK_REALTIME, &dl); dl.tv_nsec += 20000000;
    if (dl.tv_nsec >= 1000000000) { dl.tv_sec++; dl.tv_nsec -= 1000000000; }
    pthread_mutex_lock(&mu);
    CHECK(pthread_cond_timedwait(&cv, &mu, &dl) == ETIMEDOUT);
    pthread_mutex_unlock(&mu);
    CHECK(pthread_mutex_trylock(&mu) == 0 && pthread_mutex_trylock(&mu) == EBUSY);
    pthread_mutex_unlock(&mu);
    pthread_setname_np(pthread_self(), "main-thread");
    char name[16]; CHECK(pthread_getname_np(pthread_self(), name, sizeof name) == 0 && strcmp(name, "main-thread") == 0);

    /* C11 threads */
    mtx_init(&c11_mu, mtx_plain);
    thrd_t ct[4];
    for (int i = 0; i < 4; i++) CHECK(thrd_create(&ct[i], c11_worker, (void *)(intptr_t)(i + 1)) == thrd_success);
    for (int i = 0; i < 4; i++) { int res; thrd_join(ct[i], &res); CHECK(res == 7); }
    CHECK(c11_total == 1000 * (1 + 2 + 3 + 4));
    mtx_destroy(&c11_mu);
    printf("counter %ld\n", counter);
    puts("OK");
    return 0;
}

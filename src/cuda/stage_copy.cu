/*
 * A small persistent pool of host threads for the copies of the host-data
 * staging pipeline (staging.cu: gather into and scatter out of the
 * pinned buffers).  One memcpy stream from pageable memory runs at 5-10
 * GB/s on one core, far below a PCIe 5.0 link (50+ GB/s each way), so each
 * pipeline spreads its copies over a team: its own thread plus helpers from
 * this pool.
 *
 * A team is posted on a list; idle pool threads join the open teams (at
 * most `helpers` each) and run the team's function, which claims units of
 * work from the job until none is left.  The caller runs the same function,
 * then closes the team (no thread joins it after) and waits for the helpers
 * that did join.  So a job never depends on a pool thread: with no thread
 * free (or none startable) the caller does it all, as before the pool.
 *
 * The pool threads are created on the first team that wants helpers (never
 * in a constructor, never in a process that does not stage host data), run
 * with every signal blocked (the user's handlers run on the user's
 * threads), never touch CUDA, and live for the process (the plugin is never
 * unloaded once its probe succeeded, src/common/cuda_loader.c).  No
 * allocation: the teams live on their callers' stacks.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>
#include "stage_copy.h"

namespace {

struct team {
    void (*fn)(void *);
    void *arg;
    int want;     /* helpers that may still join (0: closed) */
    int running;  /* helpers inside fn */
    team *next;
};

/* Pool threads at most, whatever the caller asks (a guard). */
const int POOL_CAP = 256;

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER; /* a team was posted */
pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER; /* a helper left a team */
team *open_teams = NULL;
int nthreads = 0;   /* pool threads started */

void *worker_main(void *)
{
    pthread_mutex_lock(&mu);
    for (;;) {
        team *t = open_teams;
        while (t && t->want <= 0) t = t->next;
        if (!t) {
            pthread_cond_wait(&work_cv, &mu);
            continue;
        }
        t->want--;
        t->running++;
        pthread_mutex_unlock(&mu);
        t->fn(t->arg);
        pthread_mutex_lock(&mu);
        if (--t->running == 0) pthread_cond_broadcast(&done_cv);
    }
    return NULL; /* not reached */
}

/* Starts pool threads up to `want` (called with mu held). */
void grow(int want)
{
    if (want > POOL_CAP) want = POOL_CAP;
    if (nthreads >= want) return;
    sigset_t all, old;
    sigfillset(&all);
    if (pthread_sigmask(SIG_SETMASK, &all, &old) != 0) return;
    pthread_attr_t at;
    int attr_ok = pthread_attr_init(&at) == 0;
    if (attr_ok) (void)pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    while (nthreads < want) {
        pthread_t th;
        if (pthread_create(&th, attr_ok ? &at : NULL, worker_main, NULL) != 0) break;
        if (!attr_ok) (void)pthread_detach(th);
        (void)pthread_setname_np(th, "bb-stage-copy");
        nthreads++;
    }
    if (attr_ok) (void)pthread_attr_destroy(&at);
    (void)pthread_sigmask(SIG_SETMASK, &old, NULL);
}

} // namespace

void bb_stage_team(void (*fn)(void *), void *arg, int helpers, int pool_max)
{
    if (helpers <= 0 || pool_max <= 0) {
        fn(arg);
        return;
    }
    team t;
    t.fn = fn;
    t.arg = arg;
    t.want = helpers;
    t.running = 0;
    pthread_mutex_lock(&mu);
    grow(pool_max);
    t.next = open_teams;
    open_teams = &t;
    if (nthreads > 0) pthread_cond_broadcast(&work_cv);
    pthread_mutex_unlock(&mu);

    fn(arg);

    pthread_mutex_lock(&mu);
    t.want = 0; /* closed: the work is all claimed */
    for (team **pp = &open_teams; *pp; pp = &(*pp)->next)
        if (*pp == &t) {
            *pp = t.next;
            break;
        }
    while (t.running > 0) pthread_cond_wait(&done_cv, &mu);
    pthread_mutex_unlock(&mu);
}

int bb_stage_host_cores(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

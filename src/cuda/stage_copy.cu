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
 * threads), and live for the process (the plugin is never unloaded once its
 * probe succeeded, src/common/cuda_loader.c).  No allocation: the teams
 * live on their callers' stacks.  A second pool of the same kind runs the
 * pipelines of a batch spread over several devices (bb_stage_pipelines):
 * no thread is created per call, and they too run with signals blocked.
 * (The 2.5-5.5 ms by which the second pipeline started late in the bench
 * were the same with a thread per call and with the pool: the bench's
 * spinning OpenMP threads held the cores; doc/performance.md, session 13.)
 * The copy threads never touch CUDA; the pipeline threads do, each setting
 * its device for its run and restoring it after.
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

/* A pool: its threads and its open teams. */
struct pool {
    const char *name;
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* a team was posted */
    pthread_cond_t done_cv; /* a helper left a team */
    team *open_teams;
    int nthreads;           /* pool threads started */
};

/* The copy helpers, and the threads that run the pipelines of a batch
   spread over several devices (staging.cu) beside the caller's: two pools,
   so that a pipeline never waits for a copy team to free a thread. */
pool copy_pool = {"bb-stage-copy", PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                  PTHREAD_COND_INITIALIZER, NULL, 0};
pool pipe_pool = {"bb-stage-pipe", PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                  PTHREAD_COND_INITIALIZER, NULL, 0};

void *worker_main(void *arg)
{
    pool *P = (pool *)arg;
    pthread_mutex_lock(&P->mu);
    for (;;) {
        team *t = P->open_teams;
        while (t && t->want <= 0) t = t->next;
        if (!t) {
            pthread_cond_wait(&P->work_cv, &P->mu);
            continue;
        }
        t->want--;
        t->running++;
        pthread_mutex_unlock(&P->mu);
        t->fn(t->arg);
        pthread_mutex_lock(&P->mu);
        if (--t->running == 0) pthread_cond_broadcast(&P->done_cv);
    }
    return NULL; /* not reached */
}

/* Starts pool threads up to `want` (called with P->mu held). */
void grow(pool *P, int want)
{
    if (want > POOL_CAP) want = POOL_CAP;
    if (P->nthreads >= want) return;
    sigset_t all, old;
    sigfillset(&all);
    if (pthread_sigmask(SIG_SETMASK, &all, &old) != 0) return;
    pthread_attr_t at;
    int attr_ok = pthread_attr_init(&at) == 0;
    if (attr_ok) (void)pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    while (P->nthreads < want) {
        pthread_t th;
        if (pthread_create(&th, attr_ok ? &at : NULL, worker_main, P) != 0) break;
        if (!attr_ok) (void)pthread_detach(th);
        (void)pthread_setname_np(th, P->name);
        P->nthreads++;
    }
    if (attr_ok) (void)pthread_attr_destroy(&at);
    (void)pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void run_team(pool *P, void (*fn)(void *), void *arg, int helpers, int pool_max)
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
    pthread_mutex_lock(&P->mu);
    grow(P, pool_max);
    t.next = P->open_teams;
    P->open_teams = &t;
    if (P->nthreads > 0) pthread_cond_broadcast(&P->work_cv);
    pthread_mutex_unlock(&P->mu);

    fn(arg);

    pthread_mutex_lock(&P->mu);
    t.want = 0; /* closed: the work is all claimed */
    for (team **pp = &P->open_teams; *pp; pp = &(*pp)->next)
        if (*pp == &t) {
            *pp = t.next;
            break;
        }
    while (t.running > 0) pthread_cond_wait(&P->done_cv, &P->mu);
    pthread_mutex_unlock(&P->mu);
}

} // namespace

void bb_stage_team(void (*fn)(void *), void *arg, int helpers, int pool_max)
{
    run_team(&copy_pool, fn, arg, helpers, pool_max);
}

void bb_stage_pipelines(void (*fn)(void *), void *arg, int helpers)
{
    run_team(&pipe_pool, fn, arg, helpers, helpers);
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

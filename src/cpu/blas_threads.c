/* OpenBLAS runs single-threaded inside our OpenMP loops. */
#include <pthread.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "cpu.h"

#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
void openblas_set_num_threads(int);
/* weak: configure checks only for the setter */
int openblas_get_num_threads(void) __attribute__((weak));
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void single(void)
{
#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    /* OpenBLAS's OpenMP build also sets the OpenMP thread count here:
       restore ours so that our own loops stay parallel. */
#ifdef _OPENMP
    int nt = omp_get_max_threads();
#endif
    openblas_set_num_threads(1);
#ifdef _OPENMP
    omp_set_num_threads(nt);
#endif
#endif
}

/* Once per process, and again whenever the application has raised
   OpenBLAS's thread count since (openblas_set_num_threads between our
   calls): OpenBLAS threads inside each of our threads would oversubscribe
   the cores.  Setting 1 again is idempotent, so concurrent calls agree. */
void bb_cpu_blas_single_thread(void)
{
    pthread_once(&once, single);
#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    if (openblas_get_num_threads && openblas_get_num_threads() != 1) single();
#endif
}

/* Library-level calls: version, error strings, the error handler. */
#include <pthread.h>
#include <stdio.h>
#include "backend.h"

const char *batchblas_version(void) { return PACKAGE_VERSION; }

const char *batchblas_strerror(int code)
{
    static const char *const pos[] = {
        "invalid argument 1", "invalid argument 2", "invalid argument 3",
        "invalid argument 4", "invalid argument 5", "invalid argument 6",
        "invalid argument 7", "invalid argument 8", "invalid argument 9",
        "invalid argument 10", "invalid argument 11", "invalid argument 12",
        "invalid argument 13", "invalid argument 14", "invalid argument 15",
        "invalid argument 16", "invalid argument 17", "invalid argument 18",
        "invalid argument 19", "invalid argument 20", "invalid argument 21",
        "invalid argument 22", "invalid argument 23", "invalid argument 24"};
    if (code == 0) return "success";
    if (code == BB_INFO_NOMEM) return "out of memory";
    if (code == BB_INFO_DEVICE) return "device (CUDA) error";
    if (code == BblasErrInvalid) return "invalid argument to a library call";
    if (code == BblasErrUnavailable) return "backend not available";
    if (code == BblasErrNoMemory) return "out of memory";
    if (code == BblasErrDevice) return "device (CUDA) error";
    if (code < 0 && code >= -(int)(sizeof pos / sizeof pos[0])) return pos[-code - 1];
    if (code < 0) return "invalid argument";
    return "numerical failure: not positive definite, or exactly singular, at the column given by the code";
}

static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static batchblas_error_handler_t handler = NULL;
static void *handler_user = NULL;

void batchblas_set_error_handler(batchblas_error_handler_t h, void *user)
{
    pthread_mutex_lock(&handler_lock);
    handler = h;
    handler_user = user;
    pthread_mutex_unlock(&handler_lock);
}

/* Put a breakpoint here to stop on every failing call. */
void bb_report_error(const char *routine, int code)
{
    pthread_mutex_lock(&handler_lock);
    batchblas_error_handler_t h = handler;
    void *u = handler_user;
    pthread_mutex_unlock(&handler_lock);
    if (h) h(routine, code, u);
}

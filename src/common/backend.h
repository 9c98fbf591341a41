/*
 * The backend interface.  A backend runs a checked batch: it computes every
 * problem i with b->pinfo[i] == 0 and stores that problem's numerical code
 * (0 or LAPACK's k > 0, or BB_INFO_*) in b->pinfo[i].  It never re-checks
 * arguments and never writes a problem whose pinfo is nonzero on entry.
 */
#ifndef BB_BACKEND_H
#define BB_BACKEND_H

#include "batch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_backend {
    const char *name;
    /* 1 if usable in this process; may initialise lazily; called once */
    int (*probe)(void);
    /* 1 if this backend implements the operation in this precision */
    int (*supports)(const bb_batch *b);
    /* runs the batch: synchronously for host data; for device data
       (b->device_data) asynchronously on b->queue, waiting only if
       b->mode != BblasErrorsReportNone (to return the codes in b->pinfo).
       With b->info_on_device it never waits: it folds the codes (those of
       b->pinfo, and its own) into the caller's device info on the queue and
       sets b->info_folded; if it cannot, it stores its failure codes in
       b->pinfo as usual and leaves b->info_folded at 0. */
    void (*run)(bb_batch *b);
    /* queues (device backends only; NULL for the CPU) */
    int (*queue_create)(batchblas_queue_t *q, int device, void *stream);
    int (*queue_sync)(batchblas_queue_t q);
    void *(*queue_stream)(batchblas_queue_t q);
    int (*queue_destroy)(batchblas_queue_t q);
    /* info and parameter arrays of _dev calls in device memory (device
       backends only; NULL for the CPU).  fetch: 0 if src is host memory
       (nothing done); 1 if src is device (or managed) memory, and then,
       unless dst is NULL, its first `bytes` were copied to the host dst,
       synchronously on a private stream (waiting for that copy only, never
       for a queue); < 0 if the copy failed.  store: copies `bytes` of host
       memory to device memory, in the order of queue q without waiting (src
       may be freed at once), or synchronously when q is not a valid queue;
       0 or < 0. */
    int (*fetch)(void *dst, const void *src, size_t bytes);
    int (*store)(batchblas_queue_t q, void *dst, const void *src, size_t bytes);
    /* page-locked host memory (batchblas_malloc_host; device backends only,
       NULL for the CPU): host_alloc 0 or < 0; host_free 1 if p was page-
       locked memory of its own (then freed), 0 if not (nothing done) */
    int (*host_alloc)(void **p, size_t bytes);
    int (*host_free)(void *p);
    /* host data over several devices at once (device backends only; NULL
       elsewhere; spread.c): runs b as run does, over n pipelines, one per
       entry of devices (a device id, -1 for the current device; an id may
       repeat), which take the batch's chunks from one list as each is
       free, so that they finish together; ms (NULL, or n entries): when
       each pipeline finished, in milliseconds after the call's start */
    void (*run_devices)(bb_batch *b, int n, const int *devices, double *ms);
    /* 1 if p is page-locked host memory, which the staging path copies
       directly (device backends only; NULL elsewhere; the cost model,
       cost.h bb_cost_direct) */
    int (*host_pinned)(const void *p);
    /* the variable form on device data with its parameter arrays in device
       memory (device backends only; NULL elsewhere; front.c): evaluates the
       rules r (those of problem 0's options, check.c) for every problem of
       b on b->queue, writes every problem's code to device memory of the
       queue's (*codes, valid for the queue's next run of b) and reads back
       only the summary *vc, the one synchronisation (with the queue: the
       arrays may be written by the caller's earlier work on it).  0, or
       BB_INFO_DEVICE / BB_INFO_NOMEM (nothing decided). */
    int (*var_check)(const bb_batch *b, const bb_rules *r, bb_var_check *vc, int **codes);
} bb_backend;

BB_INTERNAL extern const bb_backend bb_cpu_backend;

/* The CUDA backend, loaded at run time (src/common/cuda_loader.c);
   NULL if not compiled in, not installed or no device. */
BB_INTERNAL const bb_backend *bb_cuda_backend(void);
/* The same if it is loaded already, else NULL (never loads it). */
BB_INTERNAL const bb_backend *bb_cuda_backend_loaded(void);

/* dispatch.c: the one place where the backend is chosen */
BB_INTERNAL const bb_backend *bb_dispatch(const bb_batch *b);
/* the backend of the _dev calls if it can tell device memory from host
   memory (fetch/store), else NULL */
BB_INTERNAL const bb_backend *bb_device_backend(void);
BB_INTERNAL void bb_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
BB_INTERNAL int bb_verbose(void);
/* the weights of the split of a host-data batch over devices (spread.c) */
BB_INTERNAL void bb_split_policy(double *bytes_per_flop, double *min_share_bytes);

/* spread.c: host-data batches over the device set (batchblas_set_devices).
   bb_spread_backend: cu itself when the batch runs unsplit on the caller's
   current device (one visible device and no device list set), else a
   backend that cuts the batch into shares (plan.h) and runs each share
   through cu on its device, one host thread per share; with_cpu: the CPU
   backend takes a share as well (on half the cores, its size from the cost
   model, cost.h, or BATCHBLAS_CPU_SHARE), the devices the rest.
   bb_spread_attach: called by the loader once the plugin (dlopen handle)
   is usable. */
BB_INTERNAL const bb_backend *bb_spread_backend(const bb_backend *cu, int with_cpu);
/* BATCHBLAS_CPU_SHARE: the forced CPU share in (0, 1), 0 (never a CPU share)
   or -1 (unset: the cost model decides) */
BB_INTERNAL double bb_spread_cpu_share_forced(void);
/* host cores usable by this process (its affinity mask), at least 1 */
BB_INTERNAL int bb_host_cores(void);
BB_INTERNAL void bb_spread_attach(void *plugin);
/* tests/test_spread.c: bb_spread_test(inner, n) makes every host-data batch
   go through the split, its shares run by `inner` (the CPU backend) as if
   n devices were visible; NULL restores; bb_spread_test_backend: the
   split's backend while testing, else NULL */
BB_INTERNAL void bb_spread_test(const bb_backend *inner, int nvisible);
BB_INTERNAL const bb_backend *bb_spread_test_backend(void);
/* tests/test_spread.c: the CPU's share as BATCHBLAS_CPU_SHARE would set it */
BB_INTERNAL void bb_spread_test_cpu_share(double f);

/* library.c */
BB_INTERNAL void bb_report_error(const char *routine, int code);

#ifdef __cplusplus
}
#endif
#endif

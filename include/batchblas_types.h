/*
 * BatchBLAS: types, option enums and library-level calls shared by every
 * precision.  Option values are the CBLAS values, so CBLAS_* constants pass
 * through unchanged.
 */
#ifndef BATCHBLAS_TYPES_H
#define BATCHBLAS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#include <complex>
typedef std::complex<float>  bblas_complex32_t;
typedef std::complex<double> bblas_complex64_t;
extern "C" {
#else
#include <complex.h>
typedef float _Complex  bblas_complex32_t;
typedef double _Complex bblas_complex64_t;
#endif

#if defined(_WIN32)
#  define BATCHBLAS_API
#elif defined(__GNUC__)
#  define BATCHBLAS_API __attribute__((visibility("default")))
#else
#  define BATCHBLAS_API
#endif

/** Every option argument has this type; values are the CBLAS values. */
typedef int bblas_enum_t;

enum {
    BblasInvalid = -1,

    BblasRowMajor = 101,
    BblasColMajor = 102,

    BblasNoTrans   = 111,
    BblasTrans     = 112,
    BblasConjTrans = 113,

    BblasUpper   = 121,
    BblasLower   = 122,
    BblasGeneral = 123,

    BblasNonUnit = 131,
    BblasUnit    = 132,

    BblasLeft  = 141,
    BblasRight = 142,

    BblasOneNorm       = 171,
    BblasFrobeniusNorm = 174,
    BblasInfNorm       = 175,
    BblasMaxNorm       = 177
};

/** info[0] on entry selects how errors are reported (the 2018 proposal). */
enum {
    BblasErrorsReportAll   = 0, /* info[1+i] for every problem i (batch_size+1 entries) */
    BblasErrorsReportGroup = 1, /* info[1+g] for every group g (group_count+1 entries) */
    BblasErrorsReportAny   = 2, /* info[0] only */
    BblasErrorsReportNone  = 3  /* nothing is written */
};

/** Per-problem info codes beyond argument positions and LAPACK's k. */
enum {
    BblasInfoNoMemory = -1000, /* workspace allocation failed: problem not computed */
    BblasInfoDevice   = -1001  /* a device (CUDA) call failed: problem not computed */
};

/** Status codes of the library-level calls (distinct from every info code). */
enum {
    BblasSuccess        = 0,
    BblasErrInvalid     = -2001, /* bad argument to a library-level call */
    BblasErrUnavailable = -2002, /* backend not compiled in or not found at run time */
    BblasErrNoMemory    = -2003, /* memory allocation failed */
    BblasErrDevice      = -2004  /* a device (CUDA) call failed */
};

/** Backends. */
typedef enum {
    BatchblasBackendAuto = 0,
    BatchblasBackendCPU  = 1,
    BatchblasBackendCUDA = 2
} batchblas_backend_t;

/* ---- library-level calls --------------------------------------------- */

/** Version as "MAJOR.MINOR.PATCH". */
BATCHBLAS_API const char *batchblas_version(void);

/** Text for a per-problem info code or a library status code (never NULL);
    the two sets of codes do not overlap. */
BATCHBLAS_API const char *batchblas_strerror(int code);

/**
 * Forces a backend for the calls that follow (process-wide).  Auto (the
 * default, or BATCHBLAS_BACKEND=auto) lets the dispatch policy choose.
 * Returns BblasErrUnavailable if the backend is not compiled in or has no
 * device; the previous choice is then kept.
 */
BATCHBLAS_API int batchblas_set_backend(batchblas_backend_t backend);

/** The backend forced by batchblas_set_backend or BATCHBLAS_BACKEND. */
BATCHBLAS_API batchblas_backend_t batchblas_get_backend(void);

/** 1 if the backend is compiled in and usable now (probes lazily). */
BATCHBLAS_API int batchblas_backend_available(batchblas_backend_t backend);

/** Name of a backend ("auto", "cpu", "cuda"). */
BATCHBLAS_API const char *batchblas_backend_name(batchblas_backend_t backend);

/**
 * The CUDA devices of the host-data calls (process-wide).  A plain call that
 * the dispatch policy sends to the GPU is split into shares, one per entry of
 * `ids`, in proportion to each device's rate (variable and group batches
 * balance the cost, bytes and flops, not the count); each share runs through
 * its device's own staging pipeline, all at once, and the codes come back as
 * from one device.  An id may appear more than once: that device then takes
 * that many shares (on one GPU, {0, 0} runs the whole multi-device path).
 * count == 0 restores the default: every visible device (a batch too small
 * to pay for several shares stays on the current device).
 * BATCHBLAS_DEVICES=0,1,... sets the list at the first call.  Returns
 * BblasSuccess, or BblasErrInvalid (and changes nothing) for a negative
 * count, a count above 64, ids == NULL with count > 0, a negative id or,
 * once the CUDA backend is loaded, an id that is not a visible device; a
 * list set before the backend is loaded (this call does not load it) is
 * checked when it is, and ids that do not exist are then left out of each
 * call (BATCHBLAS_VERBOSE says so).  The _dev calls are not affected: they
 * run on their queue's device.
 */
BATCHBLAS_API int batchblas_set_devices(int count, const int *ids);

/**
 * The device list: returns its length and fills ids[0 .. min(max, length))
 * (ids may be NULL when max == 0).  Without a list set, the visible devices
 * 0 .. n-1 (this loads the CUDA backend to count them; 0 without one).
 * BblasErrInvalid for max < 0, or ids == NULL with max > 0.
 */
BATCHBLAS_API int batchblas_get_devices(int max, int *ids);

/**
 * Error handler: called once per call that ends with a nonzero info[0]
 * (argument error or numerical failure), with the routine name and the code.
 * The default handler does nothing.  Pass NULL to restore it.  The handler is
 * process-wide; it must not call back into BatchBLAS.
 */
typedef void (*batchblas_error_handler_t)(const char *routine, int code, void *user);
BATCHBLAS_API void batchblas_set_error_handler(batchblas_error_handler_t handler, void *user);

/**
 * Verbose decision log: level 0 silent (default), 1 prints each dispatch
 * decision to stderr.  BATCHBLAS_VERBOSE=1 sets it at the first call.
 */
BATCHBLAS_API void batchblas_set_verbose(int level);

/* ---- Device data and queues (CUDA backend) --------------------------------
 *
 * The _dev variants of every routine take device pointers and run
 * asynchronously on a queue: a CUDA stream plus the backend's handles and
 * workspace, bound to one device.  Pointer arrays, parameter arrays (sizes,
 * options, leading dimensions, alpha/beta, group_sizes) and info may each be
 * in host or device memory (managed memory counts as device memory).
 * The variable form with every parameter array in device memory is checked
 * on the device, on the queue (after its earlier work): the call waits for
 * those checks, and nothing per problem comes to the host, unless the
 * options, alpha or beta differ between problems or the sizes cannot be
 * bucketed (doc/api.md): then, as in the other forms, a parameter array in
 * device memory is copied to the host at the call (one synchronous copy on a
 * private stream, not waiting for the queue: its values must be in place
 * when the call is made).  Info in device memory: info[0] is
 * read the same way, the codes are written on the queue, and the call never
 * waits.  Info in host memory: with info[0] == BblasErrorsReportNone (or
 * info == NULL) a _dev call never waits for the device; otherwise it waits
 * for the codes of its own batch before returning.  A queue is used by one
 * host thread at a time.
 * Memory: a queue allocates its cuBLAS handle's 32 MiB workspace when it is
 * created; the device workspaces of a call (codes and pointer arrays, which
 * grow with the batch, and the blocked drivers' scratch, at most 1 GiB a
 * workspace: larger batches go in chunks) are grown at the call, before its
 * launches, on the queue's stream, kept for later calls and freed with the
 * queue.
 */
typedef struct batchblas_queue *batchblas_queue_t;

/** Creates a queue on CUDA device `device` with a new stream.
    Returns BblasSuccess, BblasErrUnavailable (no CUDA backend or device),
    BblasErrInvalid or BblasErrDevice. */
BATCHBLAS_API int batchblas_queue_create(batchblas_queue_t *queue, int device);

/** Same, on an existing cudaStream_t (passed as void*; not destroyed with the queue). */
BATCHBLAS_API int batchblas_queue_create_with_stream(batchblas_queue_t *queue, int device,
                                                     void *cuda_stream);

/** Waits for everything submitted to the queue. */
BATCHBLAS_API int batchblas_queue_sync(batchblas_queue_t queue);

/** The queue's cudaStream_t (as void*). */
BATCHBLAS_API void *batchblas_queue_stream(batchblas_queue_t queue);

/** Destroys the queue (waits for its work first). NULL is a no-op. */
BATCHBLAS_API int batchblas_queue_destroy(batchblas_queue_t queue);

/* ---- Page-locked host memory ----------------------------------------------
 *
 * Host-data calls (the plain ones) that the CUDA backend runs copy the
 * operands through pinned staging buffers; an operand of the strided form
 * that already lies in page-locked memory (this allocator, cudaHostAlloc,
 * cudaMallocHost, or cudaHostRegister) is copied between the device and the
 * user's memory directly instead, at the link's rate and without the host
 * copy (which is what limits a batch spread over several GPUs).  Problems
 * skipped for a bad argument are never written either way.
 */

/** Allocates `bytes` of host memory, page-locked and usable by every device
    when the CUDA backend is available, else ordinary memory aligned to 64
    bytes.  *ptr is NULL for bytes == 0.  Returns BblasSuccess,
    BblasErrInvalid (ptr NULL) or BblasErrNoMemory. */
BATCHBLAS_API int batchblas_malloc_host(void **ptr, size_t bytes);

/** Frees memory of batchblas_malloc_host.  NULL is a no-op. */
BATCHBLAS_API void batchblas_free_host(void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* BATCHBLAS_TYPES_H */

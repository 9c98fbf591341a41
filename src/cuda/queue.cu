/*
 * The CUDA driver's queues: bb_cuda_queue (cuda_internal.h; a stream, a
 * cuBLAS handle with its own workspace, the driver's scratch and the
 * kernels' workspaces), created for the user (the backend table's queue
 * entries, bb_cu_queue_*) or privately for each slot of a staging context
 * (staging.cu), and the device memory grown on a queue's stream
 * (bb_cu_dev_grow, bb_cu_dev_free, bb_cuda_workspace, bb_cuda_workspace2,
 * bb_cuda_workspace3).
 */
#include <stdlib.h>
#include "cuda_internal.h"

/* cuBLAS workspace per queue: 32 MiB, what cuBLAS documents for Hopper.  Set
   once with the stream: cublasSetStream resets a handle to the default
   workspace pool, so the kernels never call it again (small_gemm.cu). */
static const size_t BB_CUBLAS_WS = (size_t)32 << 20;

/* Device memory on the queue's stream: stream-ordered (cudaMallocAsync /
   cudaFreeAsync), so memory still read by earlier work on the stream is
   released only after that work; without memory pools the stream is
   synchronised first. */
cudaError_t bb_cu_dev_free(bb_cuda_queue *q, void *p)
{
    if (!p) return cudaSuccess;
    if (q->pools) return chk(cudaFreeAsync(p, q->pub.stream));
    cudaError_t e = chk(cudaStreamSynchronize(q->pub.stream));
    cudaError_t f = chk(cudaFree(p));
    return e != cudaSuccess ? e : f;
}

/* Grows *p to at least `bytes` (contents are not kept). */
cudaError_t bb_cu_dev_grow(bb_cuda_queue *q, void **p, size_t *size, size_t bytes, int geometric)
{
    if (bytes == 0) bytes = 1;
    if (*p && *size >= bytes) return cudaSuccess;
    size_t want = bytes;
    if (geometric && want < *size + *size / 2) want = *size + *size / 2;
    want = align_up(want, (size_t)1 << 16);
    cudaError_t e = bb_cu_dev_free(q, *p);
    *p = NULL;
    *size = 0;
    if (e != cudaSuccess) return e;
    void *n = NULL;
    e = cu_dev_alloc(&n, want, q->pools, q->pub.stream);
    if (e != cudaSuccess) return e;
    *p = n;
    *size = want;
    return cudaSuccess;
}

/* Kernels' workspaces (cuda_internal.h): grown on the queue's stream. */
static void *workspace(batchblas_queue *pq, void **buf, size_t *size, size_t bytes)
{
    if (!pq) return NULL;
    if (bytes == 0) bytes = 1;
    if (*buf && *size >= bytes) return *buf;
    if (bb_cu_dev_grow(priv(pq), buf, size, bytes, 1) != cudaSuccess) {
        bb_cu_log("workspace of %zu bytes: allocation failed", bytes);
        return NULL;
    }
    return *buf;
}

void *bb_cuda_workspace(batchblas_queue *pq, size_t bytes)
{
    return pq ? workspace(pq, &pq->work, &pq->work_size, bytes) : NULL;
}

void *bb_cuda_workspace2(batchblas_queue *pq, size_t bytes)
{
    return pq ? workspace(pq, &pq->work2, &pq->work2_size, bytes) : NULL;
}

void *bb_cuda_workspace3(batchblas_queue *pq, size_t bytes)
{
    return pq ? workspace(pq, &pq->work3, &pq->work3_size, bytes) : NULL;
}

/* Releases everything of a queue; returns the first error. */
cudaError_t bb_cu_queue_release(bb_cuda_queue *q)
{
    cudaError_t first = cudaSuccess;
#define KEEP(e) do { cudaError_t e_ = (e); if (first == cudaSuccess) first = e_; } while (0)
    device_scope ds(q->pub.device);
    if (!ds.ok) KEEP(cudaErrorInvalidDevice);
    if (q->pub.stream || !q->pub.own_stream) KEEP(chk(cudaStreamSynchronize(q->pub.stream)));
    KEEP(bb_cu_dev_free(q, q->scratch));
    KEEP(bb_cu_dev_free(q, q->vcheck));
    q->vcheck = NULL;
    q->vcheck_size = 0;
    KEEP(bb_cu_dev_free(q, q->pub.work));
    KEEP(bb_cu_dev_free(q, q->pub.work2));
    KEEP(bb_cu_dev_free(q, q->pub.work3));
    q->scratch = q->pub.work = q->pub.work2 = q->pub.work3 = NULL;
    q->scratch_size = q->pub.work_size = q->pub.work2_size = q->pub.work3_size = 0;
    if (q->pools) KEEP(chk(cudaStreamSynchronize(q->pub.stream)));
    if (q->pub.cublas) {
        if (cublasDestroy(q->pub.cublas) != CUBLAS_STATUS_SUCCESS) KEEP(cudaErrorUnknown);
        q->pub.cublas = NULL;
    }
    if (q->cublas_ws) KEEP(chk(cudaFree(q->cublas_ws)));
    q->cublas_ws = NULL;
    /* the variable form's buffers (backend_cuda.cu), once the side stream
       and the copies out of the pinned one are done (q is freed below) */
    if (q->side) KEEP(chk(cudaStreamSynchronize(q->side)));
    if (q->pin_done) KEEP(chk(cudaEventSynchronize(q->pin_done)));
    if (q->draw) KEEP(chk(cudaFree(q->draw)));
    if (q->pin) KEEP(chk(cudaFreeHost(q->pin)));
    const cudaEvent_t evs[] = {q->side_done, q->count_done, q->draw_free, q->pin_done};
    for (cudaEvent_t ev : evs)
        if (ev) KEEP(chk(cudaEventDestroy(ev)));
    if (q->side) KEEP(chk(cudaStreamDestroy(q->side)));
    if (q->pub.own_stream && q->pub.stream) {
        KEEP(chk(cudaStreamDestroy(q->pub.stream)));
        q->pub.stream = NULL;
    }
#undef KEEP
    q->magic = 0;
    free(q);
    return first;
}

/* New queue on `device`: on `user_stream` if given (not owned), else on a
   new stream created with `flags`.  Returns a BblasSuccess / BblasErr* code. */
int bb_cu_queue_new(int device, cudaStream_t user_stream, int use_user, unsigned flags,
                    bb_cuda_queue **out)
{
    *out = NULL;
    bb_cuda_queue *q = (bb_cuda_queue *)cu_calloc(1, sizeof *q);
    if (!q) return BblasErrNoMemory;
    q->magic = BB_QUEUE_MAGIC;
    q->vs_hslot = -1; /* no checks' count yet */
    q->pub.device = device;
    q->pub.own_stream = 0;
    device_scope ds(device);
    if (!ds.ok) {
        free(q);
        return BblasErrDevice;
    }
    cudaError_t e;
    if (use_user) {
        q->pub.stream = user_stream;
    } else {
        e = chk(cudaStreamCreateWithFlags(&q->pub.stream, flags));
        if (e != cudaSuccess) {
            bb_cu_log("queue on device %d: cudaStreamCreate: %s", device, cudaGetErrorString(e));
            free(q);
            return BblasErrDevice;
        }
        q->pub.own_stream = 1;
    }
    int v = 0;
    if (chk(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess) v = 0;
    q->pub.sm_count = v > 0 ? v : 1;
    v = 0;
    if (chk(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, device)) != cudaSuccess) v = 0;
    q->pools = v != 0;
    cublasStatus_t s = cublasCreate(&q->pub.cublas);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetStream(q->pub.cublas, q->pub.stream);
    if (s == CUBLAS_STATUS_SUCCESS && cu_dev_alloc(&q->cublas_ws, BB_CUBLAS_WS, 0, NULL) != cudaSuccess) {
        q->cublas_ws = NULL;
        s = CUBLAS_STATUS_ALLOC_FAILED;
    }
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetWorkspace(q->pub.cublas, q->cublas_ws, BB_CUBLAS_WS);
    if (s != CUBLAS_STATUS_SUCCESS) {
        bb_cu_log("queue on device %d: cuBLAS handle: status %d", device, (int)s);
        (void)cudaGetLastError();
        (void)bb_cu_queue_release(q);
        return s == CUBLAS_STATUS_ALLOC_FAILED ? BblasErrNoMemory : BblasErrDevice;
    }
    *out = q;
    return BblasSuccess;
}

/* ------------------------------------------------------------------------- */
/* The backend table's queue entries (backend_cuda.cu)                        */
/* ------------------------------------------------------------------------- */

int bb_cu_queue_create(batchblas_queue_t *out, int device, void *stream)
{
    if (!out) return BblasErrInvalid;
    *out = NULL;
    if (device < 0 || device >= bb_cu_ndev) return BblasErrInvalid;
    bb_cuda_queue *q = NULL;
    int rc = bb_cu_queue_new(device, (cudaStream_t)stream, stream != NULL, cudaStreamDefault, &q);
    if (rc == BblasSuccess) *out = &q->pub;
    return rc;
}

int bb_cu_queue_sync(batchblas_queue_t pq)
{
    bb_cuda_queue *q = checked_queue(pq);
    if (!q) return BblasErrInvalid;
    device_scope ds(q->pub.device);
    if (!ds.ok) return BblasErrDevice;
    return chk(cudaStreamSynchronize(q->pub.stream)) == cudaSuccess ? BblasSuccess : BblasErrDevice;
}

void *bb_cu_queue_stream(batchblas_queue_t pq)
{
    bb_cuda_queue *q = checked_queue(pq);
    return q ? (void *)q->pub.stream : NULL;
}

int bb_cu_queue_destroy(batchblas_queue_t pq)
{
    if (!pq) return BblasSuccess;
    bb_cuda_queue *q = checked_queue(pq);
    if (!q) return BblasErrInvalid;
    return bb_cu_queue_release(q) == cudaSuccess ? BblasSuccess : BblasErrDevice;
}

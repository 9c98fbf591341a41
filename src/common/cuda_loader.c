/*
 * Finds the CUDA backend at run time.  The CUDA code lives in a separate
 * plugin (libbatchblas_cuda.so, installed in $(pkglibdir)) so that
 * libbatchblas itself never links the CUDA driver, runtime or cuBLAS: a
 * machine without them loads the library and runs everything on the CPU.
 * The plugin is opened, and CUDA initialised, on the first call that the
 * dispatch policy would send to the GPU, never earlier.
 * BATCHBLAS_CUDA_PLUGIN=/path/to/libbatchblas_cuda.so overrides the location.
 */
#include <pthread.h>
#include <stdlib.h>
#include "backend.h"

#ifdef BB_HAVE_CUDA
#include <dlfcn.h>
#include <stdatomic.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const bb_backend *cuda = NULL;
/* cuda, once a bb_cuda_backend call has returned it (bb_cuda_backend_loaded) */
static const bb_backend *_Atomic loaded = NULL;

static void load(void)
{
    const char *path = getenv("BATCHBLAS_CUDA_PLUGIN");
    if (!path || !*path) path = BB_PLUGIN_DIR "/libbatchblas_cuda.so";
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        bb_log("cuda backend: cannot load %s: %s", path, dlerror());
        return;
    }
    const bb_backend *(*get)(void) = (const bb_backend *(*)(void))dlsym(h, "bb_cuda_plugin_backend");
    if (!get) {
        bb_log("cuda backend: %s has no bb_cuda_plugin_backend", path);
        dlclose(h);
        return;
    }
    /* optional: the allocation-fault hook (fault.c) for the plugin's
       allocations; set before the probe, which allocates too */
    void (*set_fault)(int (*)(void)) = (void (*)(int (*)(void)))dlsym(h, "bb_cuda_plugin_set_fault");
    if (set_fault) set_fault(bb_fault_hit);
    /* optional: the launch-fault hook (fault.c's second counter), asked by
       every entry of the plugin's launch policy (bb_cuda_launch) */
    void (*set_launch_fault)(int (*)(void)) =
        (void (*)(int (*)(void)))dlsym(h, "bb_cuda_plugin_set_launch_fault");
    if (set_launch_fault) set_launch_fault(bb_fault_launch_hit);
    const bb_backend *be = get();
    if (!be || !be->probe()) {
        bb_log("cuda backend: no usable CUDA device");
        return; /* keep the plugin loaded: CUDA may have started threads */
    }
    bb_log("cuda backend: loaded %s", path);
    bb_spread_attach(h); /* the visible devices, for the device set (spread.c) */
    cuda = be;
}

const bb_backend *bb_cuda_backend(void)
{
    pthread_once(&once, load);
    atomic_store(&loaded, cuda);
    return cuda;
}

const bb_backend *bb_cuda_backend_loaded(void) { return atomic_load(&loaded); }
#else
const bb_backend *bb_cuda_backend(void)
{
    return NULL;
}

const bb_backend *bb_cuda_backend_loaded(void) { return NULL; }
#endif

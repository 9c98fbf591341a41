/*
 * Fault injection, for the tests (tests/test_faults.c, doc/reliability.md).
 * Two independent counters, the same mechanism:
 *
 *   allocations  every internal allocation asks bb_fault_hit() first: the
 *                front end's arrays (front.c), the CPU backend's scratch
 *                (bb_work_get and the driver's arrays, src/cpu/backend_cpu.c)
 *                and, through the pointer the loader hands to the plugin
 *                (bb_cuda_plugin_set_fault, cuda_loader.c), the CUDA
 *                backend's host arrays, pinned staging buffers, device
 *                scratch and workspaces.  bb_fault_arm(k) makes the k-th
 *                allocation from then on fail, once; bb_fault_disarm() says
 *                whether it did.
 *   launches     every entry of the CUDA launch policy (bb_cuda_launch,
 *                src/cuda/launch.cu; the blocked and recursive drivers
 *                re-enter it for their steps, and each entry counts) asks
 *                bb_fault_launch_hit() through the pointer handed over by
 *                bb_cuda_plugin_set_launch_fault; when it fires the launch
 *                returns cudaErrorLaunchOutOfResources without launching.
 *                bb_fault_arm_launch(k) / bb_fault_disarm_launch().
 *
 * Harmless in a release build: unarmed, a hit is one relaxed atomic load of
 * a zero.  The functions are hidden (BB_INTERNAL): nothing outside the
 * library can call them, except a program linked with the static library,
 * as the test is (tests/tests.mk: -static).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include "batch.h"

typedef struct fault_counter {
    atomic_long left;  /* > 0: events until the one that fails */
    atomic_int fired;  /* the armed event failed */
    atomic_long seen;  /* events counted since arming */
} fault_counter;

static fault_counter alloc_fc, launch_fc;

static int counter_hit(fault_counter *c)
{
    if (atomic_load_explicit(&c->left, memory_order_relaxed) <= 0) return 0;
    atomic_fetch_add_explicit(&c->seen, 1, memory_order_relaxed);
    if (atomic_fetch_sub_explicit(&c->left, 1, memory_order_acq_rel) != 1) return 0;
    atomic_store(&c->fired, 1);
    return 1;
}

static void counter_arm(fault_counter *c, long k)
{
    atomic_store(&c->fired, 0);
    atomic_store(&c->seen, 0);
    atomic_store(&c->left, k > 0 ? k : 0);
}

static int counter_disarm(fault_counter *c, long *seen)
{
    atomic_store(&c->left, 0);
    if (seen) *seen = atomic_load(&c->seen);
    return atomic_load(&c->fired);
}

int bb_fault_hit(void) { return counter_hit(&alloc_fc); }
void bb_fault_arm(long k) { counter_arm(&alloc_fc, k); }
int bb_fault_disarm(long *seen) { return counter_disarm(&alloc_fc, seen); }

int bb_fault_launch_hit(void) { return counter_hit(&launch_fc); }
void bb_fault_arm_launch(long k) { counter_arm(&launch_fc, k); }
int bb_fault_disarm_launch(long *seen) { return counter_disarm(&launch_fc, seen); }

void *bb_malloc(size_t bytes) { return bb_fault_hit() ? NULL : malloc(bytes); }
void *bb_calloc(size_t n, size_t size) { return bb_fault_hit() ? NULL : calloc(n, size); }
void *bb_realloc(void *p, size_t bytes) { return bb_fault_hit() ? NULL : realloc(p, bytes); }

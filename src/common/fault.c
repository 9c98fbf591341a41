/*
 * Allocation fault injection, for the tests (tests/test_faults.c,
 * doc/reliability.md).  Every internal allocation asks bb_fault_hit()
 * first: the front end's arrays (front.c), the CPU backend's scratch
 * (bb_work_get and the driver's arrays, src/cpu/backend_cpu.c) and, through
 * the pointer the loader hands to the plugin (bb_cuda_plugin_set_fault,
 * cuda_loader.c), the CUDA backend's host arrays, pinned staging buffers,
 * device scratch and workspaces.  bb_fault_arm(k) makes the k-th allocation
 * from then on fail, once; bb_fault_disarm() says whether it did.
 *
 * Harmless in a release build: unarmed, bb_fault_hit is one relaxed atomic
 * load of a zero.  The functions are hidden (BB_INTERNAL): nothing outside
 * the library can call them, except a program linked with the static
 * library, as the test is (tests/tests.mk: -static).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include "batch.h"

static atomic_long fault_left;  /* > 0: allocations until the one that fails */
static atomic_int fault_fired;  /* the armed allocation failed */
static atomic_long fault_seen;  /* allocations counted since arming */

int bb_fault_hit(void)
{
    if (atomic_load_explicit(&fault_left, memory_order_relaxed) <= 0) return 0;
    atomic_fetch_add_explicit(&fault_seen, 1, memory_order_relaxed);
    if (atomic_fetch_sub_explicit(&fault_left, 1, memory_order_acq_rel) != 1) return 0;
    atomic_store(&fault_fired, 1);
    return 1;
}

void bb_fault_arm(long k)
{
    atomic_store(&fault_fired, 0);
    atomic_store(&fault_seen, 0);
    atomic_store(&fault_left, k > 0 ? k : 0);
}

int bb_fault_disarm(long *seen)
{
    atomic_store(&fault_left, 0);
    if (seen) *seen = atomic_load(&fault_seen);
    return atomic_load(&fault_fired);
}

void *bb_malloc(size_t bytes) { return bb_fault_hit() ? NULL : malloc(bytes); }
void *bb_calloc(size_t n, size_t size) { return bb_fault_hit() ? NULL : calloc(n, size); }
void *bb_realloc(void *p, size_t bytes) { return bb_fault_hit() ? NULL : realloc(p, bytes); }

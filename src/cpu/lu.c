/* CPU kernels of the LU family (compiled once per precision). */
#include "small.h"
#define TODO_KERNEL(name) int X(cpu_##name)(bb_problem *p, bb_work *w) { return 0; }
TODO_KERNEL(getrf) TODO_KERNEL(getrfnp) TODO_KERNEL(getrs) TODO_KERNEL(gesv)
TODO_KERNEL(getri) TODO_KERNEL(getri_oop) TODO_KERNEL(gecon)

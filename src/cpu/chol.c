/* CPU kernels of the Cholesky family (compiled once per precision). */
#include "small.h"
#define TODO_KERNEL(name) int X(cpu_##name)(bb_problem *p, bb_work *w) { return 0; }
TODO_KERNEL(potrf) TODO_KERNEL(potrs) TODO_KERNEL(posv) TODO_KERNEL(trtri)
TODO_KERNEL(lauum) TODO_KERNEL(potri) TODO_KERNEL(poti)

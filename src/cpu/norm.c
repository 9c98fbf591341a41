/* CPU kernels: norms and exact condition numbers (compiled once per precision). */
#include "small.h"
#define TODO_KERNEL(name) int X(cpu_##name)(bb_problem *p, bb_work *w) { return 0; }
TODO_KERNEL(lange) TODO_KERNEL(gecond)

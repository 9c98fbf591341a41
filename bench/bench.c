#include <stdio.h>
int main(void) { puts("batchblas-bench: todo"); return 0; }

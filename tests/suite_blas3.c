/* Tests of the blas3 family (compiled once per precision). */
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

void X(add_blas3_tests)(Suite *s) { (void)s; }

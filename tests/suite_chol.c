/* Tests of the chol family (compiled once per precision). */
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

void X(add_chol_tests)(Suite *s) { (void)s; }

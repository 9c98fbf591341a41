/* Tests of the norm family (compiled once per precision). */
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

void X(add_norm_tests)(Suite *s) { (void)s; }

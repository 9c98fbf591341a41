/* Tests of the lu family (compiled once per precision). */
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

void X(add_lu_tests)(Suite *s) { (void)s; }

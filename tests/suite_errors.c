/* Tests of the errors family (compiled once per precision). */
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

void X(add_errors_tests)(Suite *s) { (void)s; }

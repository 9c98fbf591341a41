/*
 * The test runner: one Check suite per family, each with the cases of all
 * four precisions.  CK_RUN_SUITE=blas3 runs one suite; on a GPU machine run
 * with BATCHBLAS_BACKEND=cuda CK_FORK=no (CUDA must not be initialised
 * before a fork).
 */
#include <check.h>
#include <stdlib.h>
#include <stdio.h>
#include "tests.h"

#define ADD4(s, fam)                                                               \
    do {                                                                           \
        bb_s_add_##fam##_tests(s); bb_d_add_##fam##_tests(s);                     \
        bb_c_add_##fam##_tests(s); bb_z_add_##fam##_tests(s);                     \
    } while (0)

int main(void)
{
    SRunner *sr = srunner_create(NULL);
    Suite *s;

    s = suite_create("blas3"); ADD4(s, blas3); srunner_add_suite(sr, s);
    s = suite_create("chol"); ADD4(s, chol); srunner_add_suite(sr, s);
    s = suite_create("lu"); ADD4(s, lu); srunner_add_suite(sr, s);
    s = suite_create("norm"); ADD4(s, norm); srunner_add_suite(sr, s);
    s = suite_create("errors"); ADD4(s, errors); srunner_add_suite(sr, s);
    s = suite_create("library"); add_library_tests(s); srunner_add_suite(sr, s);

    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

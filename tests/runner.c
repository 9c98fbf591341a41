/*
 * The test runner: one Check suite per family, each with the cases of all
 * four precisions.  CK_RUN_SUITE=blas3 runs one suite; an argument (a
 * subset of "sdcz") keeps only those precisions' cases, so that make check
 * can run the suites as several tests side by side (the files in tests/suites,
 * tests/run_suite.sh).  On a GPU machine run with BATCHBLAS_BACKEND=cuda
 * CK_FORK=no (CUDA must not be initialised before a fork).
 */
#include <check.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"

/* the family's cases of the precisions in `precs` */
#define ADD4(s, fam, precs)                                                        \
    do {                                                                           \
        if (strchr(precs, 's')) bb_s_add_##fam##_tests(s);                        \
        if (strchr(precs, 'd')) bb_d_add_##fam##_tests(s);                        \
        if (strchr(precs, 'c')) bb_c_add_##fam##_tests(s);                        \
        if (strchr(precs, 'z')) bb_z_add_##fam##_tests(s);                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *p = argc > 1 ? argv[1] : "sdcz";
    if (argc > 2 || p[0] == '\0' || strspn(p, "sdcz") != strlen(p)) {
        fprintf(stderr, "usage: %s [precisions, a subset of sdcz]\n", argv[0]);
        return 2;
    }
    SRunner *sr = srunner_create(NULL);
    Suite *s;

    s = suite_create("blas3"); ADD4(s, blas3, p); srunner_add_suite(sr, s);
    s = suite_create("chol"); ADD4(s, chol, p); srunner_add_suite(sr, s);
    s = suite_create("lu"); ADD4(s, lu, p); srunner_add_suite(sr, s);
    s = suite_create("norm"); ADD4(s, norm, p); srunner_add_suite(sr, s);
    s = suite_create("errors"); ADD4(s, errors, p); srunner_add_suite(sr, s);
    s = suite_create("library"); add_library_tests(s); srunner_add_suite(sr, s);

    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

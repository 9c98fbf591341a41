/* Suite registration: each family file is compiled once per precision and
   adds its test cases to the family's suite. */
#ifndef BB_TESTS_H
#define BB_TESTS_H
#include <check.h>

#define BB_DECLARE_FAMILY(fam)                                                     \
    void bb_s_add_##fam##_tests(Suite *s); void bb_d_add_##fam##_tests(Suite *s);  \
    void bb_c_add_##fam##_tests(Suite *s); void bb_z_add_##fam##_tests(Suite *s);
BB_DECLARE_FAMILY(blas3)
BB_DECLARE_FAMILY(chol)
BB_DECLARE_FAMILY(lu)
BB_DECLARE_FAMILY(norm)
BB_DECLARE_FAMILY(errors)

/* precision-independent: version, backend selection, strerror, handler, threads */
void add_library_tests(Suite *s);
#endif

/* Library-level calls (precision-independent). */
#include <string.h>
#include "batchblas.h"
#include "tests.h"

START_TEST(test_version)
{
    ck_assert_str_eq(batchblas_version(), PACKAGE_VERSION);
}
END_TEST

void add_library_tests(Suite *s)
{
    TCase *tc = tcase_create("library");
    tcase_add_test(tc, test_version);
    suite_add_tcase(s, tc);
}

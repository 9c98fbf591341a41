/* Suite registration: each family file is compiled once per precision and
   adds its test cases to the family's suite. */
#ifndef BB_TESTS_H
#define BB_TESTS_H
#include <check.h>
#include <stdio.h>

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

/* Loop tests are added through BB_ADD_LOOP: BB_LOOP_PART=k/K (1 <= k <= K)
   runs only the k-th of K equal parts of every loop's index range, so that
   a long case (e.g. under compute-sanitizer: tools/gpu-check.sh's sweep)
   splits into runs of its own; unset, the whole range. */
#include <stdlib.h>
static inline void bb_loop_part(int *start, int *end)
{
    const char *v = getenv("BB_LOOP_PART");
    int k, K;
    if (!v || sscanf(v, "%d/%d", &k, &K) != 2 || K < 1 || k < 1 || k > K) return;
    int n = *end - *start, s0 = *start;
    *start = s0 + (int)((long long)n * (k - 1) / K);
    *end = s0 + (int)((long long)n * k / K);
}
#define BB_ADD_LOOP(tc, tf, s, e)                                                  \
    do {                                                                           \
        int bb_s_ = (s), bb_e_ = (e);                                              \
        bb_loop_part(&bb_s_, &bb_e_);                                              \
        tcase_add_loop_test(tc, tf, bb_s_, bb_e_);                                 \
    } while (0)
#endif

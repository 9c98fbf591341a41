! test_mkl_fortran: MKL's Fortran batch names of libbatchblas_mkl, called
! from Fortran as code written for MKL calls them (implicit interfaces, every
! argument by reference, options as characters, default INTEGER = MKL_INT
! of LP64, strides included).  Checks scaled residuals against Fortran's own
! matmul; prints "N passed, M failed" and stops with 1 on a failure.
program test_mkl_fortran
    use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_double, c_double_complex
    implicit none
    integer, parameter :: dp = c_double
    integer :: npass = 0, nfail = 0

    call test_lu_solve()
    call test_gemm_strided()
    call test_gemm_group()
    call test_trsm_strided()
    call test_zgemm_strided()

    print '(i0, " passed, ", i0, " failed")', npass, nfail
    if (nfail /= 0) stop 1

contains

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what
        if (ok) then
            npass = npass + 1
        else
            nfail = nfail + 1
            print '("FAIL: ", a)', what
        end if
    end subroutine check

    ! ?getrf_batch_strided then ?getrs_batch_strided ('N' and 'T'), lda > n
    subroutine test_lu_solve()
        integer, parameter :: n = 5, lda = 7, nrhs = 2, ldb = 6, batch = 3
        integer, parameter :: stride_a = lda * n, stride_b = ldb * nrhs, stride_ipiv = n
        real(dp), target :: a(lda, n, batch), a0(lda, n, batch), b(ldb, nrhs, batch), &
            b0(ldb, nrhs, batch)
        integer :: ipiv(stride_ipiv, batch), info(batch), info_rs(batch), i, k
        real(dp) :: r
        character :: tr(2) = ['N', 'T']
        integer :: t

        do t = 1, 2
            call random_number(a)
            do k = 1, batch
                do i = 1, n
                    a(i, i, k) = a(i, i, k) + n
                end do
            end do
            call random_number(b)
            a0 = a
            b0 = b
            info = -99
            call dgetrf_batch_strided(n, n, a, lda, stride_a, ipiv, stride_ipiv, batch, info)
            call check(all(info == 0), 'dgetrf_batch_strided info')
            info_rs = -99
            call dgetrs_batch_strided(tr(t), n, nrhs, a, lda, stride_a, ipiv, stride_ipiv, &
                                      b, ldb, stride_b, batch, info_rs)
            call check(all(info_rs == 0), 'dgetrs_batch_strided info')
            do k = 1, batch
                if (t == 1) then
                    r = maxval(abs(matmul(a0(1:n, 1:n, k), b(1:n, :, k)) - b0(1:n, :, k)))
                else
                    r = maxval(abs(matmul(transpose(a0(1:n, 1:n, k)), b(1:n, :, k)) &
                                   - b0(1:n, :, k)))
                end if
                r = r / (n * epsilon(1.0_dp) * maxval(abs(a0(1:n, 1:n, k))) &
                         * max(1.0_dp, maxval(abs(b(1:n, :, k)))))
                call check(r < 30, 'dgetrf/dgetrs_batch_strided residual ' // tr(t))
                ! the padding rows of A and B are not touched
                call check(all(a(n + 1:, :, k) == a0(n + 1:, :, k)), 'dgetrf_batch_strided padding')
                call check(all(b(n + 1:, :, k) == b0(n + 1:, :, k)), 'dgetrs_batch_strided padding')
            end do
        end do
        ! an illegal argument: lda < n is argument 4 of dgetrf_batch_strided
        info = 0
        call dgetrf_batch_strided(n, n, a, n - 1, stride_a, ipiv, stride_ipiv, batch, info)
        call check(all(info == -4), 'dgetrf_batch_strided lda < n: info == -4')
    end subroutine test_lu_solve

    ! dgemm_batch_strided: C = alpha A B^T + beta C
    subroutine test_gemm_strided()
        integer, parameter :: m = 4, n = 3, k = 5, lda = 6, ldb = 3, ldc = 5, batch = 4
        integer, parameter :: sa = lda * k, sb = ldb * k, sc = ldc * n
        real(dp) :: a(lda, k, batch), b(ldb, k, batch), c(ldc, n, batch), c0(ldc, n, batch)
        real(dp) :: alpha = 1.5_dp, beta = -0.5_dp, r
        integer :: p
        call random_number(a)
        call random_number(b)
        call random_number(c)
        c0 = c
        call dgemm_batch_strided('N', 'T', m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, &
                                 c, ldc, sc, batch)
        do p = 1, batch
            r = maxval(abs(c(1:m, :, p) - (alpha * matmul(a(1:m, :, p), transpose(b(1:n, :, p))) &
                                           + beta * c0(1:m, :, p))))
            call check(r < 30 * k * epsilon(1.0_dp) * 4, 'dgemm_batch_strided result')
            call check(all(c(m + 1:, :, p) == c0(m + 1:, :, p)), 'dgemm_batch_strided padding')
        end do
    end subroutine test_gemm_strided

    ! dgemm_batch, group form: two groups ('N','N' 3x3x3, 2 problems; 'T','N'
    ! 2x4x3, 1 problem), pointer arrays as arrays of type(c_ptr)
    subroutine test_gemm_group()
        character :: transa(2) = ['N', 'T'], transb(2) = ['N', 'N']
        integer :: m(2) = [3, 2], n(2) = [3, 4], k(2) = [3, 3]
        integer :: lda(2) = [3, 3], ldb(2) = [3, 3], ldc(2) = [3, 2]
        integer :: group_size(2) = [2, 1]
        real(dp) :: alpha(2) = [1.0_dp, 2.0_dp], beta(2) = [0.0_dp, 1.0_dp]
        real(dp), target :: a1(3, 3, 2), b1(3, 3, 2), c1(3, 3, 2)
        real(dp), target :: a2(3, 2), b2(3, 4), c2(2, 4), c20(2, 4)
        type(c_ptr) :: ap(3), bp(3), cp(3)
        integer :: p
        call random_number(a1)
        call random_number(b1)
        call random_number(a2)
        call random_number(b2)
        call random_number(c2)
        c1 = -7
        c20 = c2
        do p = 1, 2
            ap(p) = c_loc(a1(1, 1, p))
            bp(p) = c_loc(b1(1, 1, p))
            cp(p) = c_loc(c1(1, 1, p))
        end do
        ap(3) = c_loc(a2)
        bp(3) = c_loc(b2)
        cp(3) = c_loc(c2)
        call dgemm_batch(transa, transb, m, n, k, alpha, ap, lda, bp, ldb, beta, cp, ldc, &
                         2, group_size)
        do p = 1, 2
            call check(maxval(abs(c1(:, :, p) - matmul(a1(:, :, p), b1(:, :, p)))) < 1e-13_dp, &
                       'dgemm_batch group 1')
        end do
        call check(maxval(abs(c2 - (2 * matmul(transpose(a2), b2) + c20))) < 1e-13_dp, &
                   'dgemm_batch group 2 (transa = T)')
    end subroutine test_gemm_group

    ! dtrsm_batch_strided: side 'L', uplo 'U', transa 'N', diag 'N'; and 'R','L','T','U'
    subroutine test_trsm_strided()
        integer, parameter :: m = 4, n = 3, lda = 4, ldb = 5, batch = 2
        real(dp) :: a(lda, lda, batch), b(ldb, n, batch), b0(ldb, n, batch), t(lda, lda)
        real(dp) :: alpha = 2.0_dp, r
        integer :: p, i, j
        call random_number(a)
        do p = 1, batch
            do i = 1, lda
                a(i, i, p) = a(i, i, p) + lda
            end do
        end do
        call random_number(b)
        b0 = b
        call dtrsm_batch_strided('L', 'U', 'N', 'N', m, n, alpha, a, lda, lda * lda, b, ldb, &
                                 ldb * n, batch)
        do p = 1, batch
            t = 0
            do j = 1, m
                do i = 1, j
                    t(i, j) = a(i, j, p)
                end do
            end do
            r = maxval(abs(matmul(t(1:m, 1:m), b(1:m, :, p)) - alpha * b0(1:m, :, p)))
            call check(r < 1e-12_dp, 'dtrsm_batch_strided L U N N')
        end do
        ! right side, lower, transposed, unit diagonal: X op(A) = alpha B, A n x n
        b = b0
        call dtrsm_batch_strided('R', 'L', 'T', 'U', m, n, alpha, a, lda, lda * lda, b, ldb, &
                                 ldb * n, batch)
        do p = 1, batch
            t = 0
            do j = 1, n
                t(j, j) = 1
                do i = j + 1, n
                    t(i, j) = a(i, j, p)
                end do
            end do
            r = maxval(abs(matmul(b(1:m, :, p), transpose(t(1:n, 1:n))) - alpha * b0(1:m, :, p)))
            call check(r < 1e-12_dp, 'dtrsm_batch_strided R L T U')
        end do
    end subroutine test_trsm_strided

    ! zgemm_batch_strided with 'C'
    subroutine test_zgemm_strided()
        integer, parameter :: m = 3, n = 2, k = 3, batch = 2
        complex(c_double_complex) :: a(k, m, batch), b(k, n, batch), c(m, n, batch)
        complex(c_double_complex) :: alpha = (1.0_dp, 1.0_dp), beta = (0.0_dp, 0.0_dp)
        real(dp) :: re(k, m), im(k, m)
        integer :: p
        do p = 1, batch
            call random_number(re)
            call random_number(im)
            a(:, :, p) = cmplx(re, im, kind=dp)
            call random_number(re(:, 1:n))
            call random_number(im(:, 1:n))
            b(:, :, p) = cmplx(re(:, 1:n), im(:, 1:n), kind=dp)
        end do
        c = (9.0_dp, 9.0_dp)
        call zgemm_batch_strided('C', 'N', m, n, k, alpha, a, k, k * m, b, k, k * n, beta, &
                                 c, m, m * n, batch)
        do p = 1, batch
            call check(maxval(abs(c(:, :, p) - alpha * matmul(conjg(transpose(a(:, :, p))), &
                                                              b(:, :, p)))) < 1e-13_dp, &
                       'zgemm_batch_strided C N')
        end do
    end subroutine test_zgemm_strided

end program test_mkl_fortran

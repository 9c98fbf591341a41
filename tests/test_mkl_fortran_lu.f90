! The call pattern of oneAPI-samples' batched LU solver samples
! (Libraries/oneMKL/batched_linear_solver), written anew: MKL's Fortran names
! ?getrf_batch_strided / ?getrs_batch_strided in both real precisions, tightly
! packed batches (lda = ldb = n, stride_a = n*n, stride_ipiv = n,
! stride_b = n*nrhs), trans passed as a literal 'N', default INTEGER (LP64).
! Results are compared with LAPACK's ?getrf / ?getrs (OpenBLAS) run per
! problem, and the solutions by their residual.
program test_mkl_fortran_lu
    implicit none
    integer :: npass = 0, nfail = 0
    integer :: t
    integer, parameter :: cases(3, 4) = reshape([ &
        1, 5, 2, &      ! n, batch, nrhs
        7, 33, 5, &
        64, 8, 1, &
        64, 8, 3], [3, 4])

    ! The shim is LP64: default INTEGER must be 4 bytes (no -i8 /
    ! -fdefault-integer-8, which the samples' ifx makefile uses).
    call check(bit_size(t) == 32, 'default INTEGER is 32-bit (LP64)')
    do t = 1, size(cases, 2)
        call run_d(cases(1, t), cases(2, t), cases(3, t))
        call run_s(cases(1, t), cases(2, t), cases(3, t))
    end do
    print '(a, i0, a, i0, a)', 'test_mkl_fortran_lu: ', npass, ' passed, ', nfail, ' failed'
    if (nfail > 0) stop 1
contains
    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what
        if (ok) then
            npass = npass + 1
        else
            nfail = nfail + 1
            print '(2a)', 'FAIL: ', what
        end if
    end subroutine

    subroutine run_d(n, batch, nrhs)
        integer, intent(in) :: n, batch, nrhs
        integer, parameter :: wp = kind(1.0d0)
        real(wp), allocatable :: a(:, :), b(:, :), a0(:, :), b0(:, :), ra(:, :), rb(:, :)
        integer, allocatable :: ipiv(:, :), rpiv(:, :), info(:), info_rs(:)
        integer :: lda, sa, sp, ldb, sb, i, j, rinfo
        real(wp) :: lu_err, x_err, res, scale
        character(40) :: tag
        lda = n; sa = n * lda; sp = n; ldb = n; sb = n * nrhs
        allocate (a(sa, batch), b(n, batch * nrhs), ipiv(sp, batch), info(batch), &
                  info_rs(batch), rpiv(sp, batch))
        call random_number(a)
        a = 0.5_wp - a
        do i = 1, n ! a dominant tridiagonal band, as the samples build
            a(i + (i - 1) * lda, :) = a(i + (i - 1) * lda, :) + 50
            if (i > 1) a(i + (i - 1) * lda - 1, :) = a(i + (i - 1) * lda - 1, :) + 20
            if (i < n) a(i + (i - 1) * lda + 1, :) = a(i + (i - 1) * lda + 1, :) + 20
        end do
        call random_number(b)
        b = 2.5_wp - 5 * b
        a0 = a; b0 = b; ra = a; rb = b
        info = 99; info_rs = 99
        call dgetrf_batch_strided(n, n, a, lda, sa, ipiv, sp, batch, info)
        call dgetrs_batch_strided('N', n, nrhs, a, lda, sa, ipiv, sp, b, ldb, sb, batch, info_rs)
        write (tag, '(a, i0, a, i0, a, i0)') ' n=', n, ' batch=', batch, ' nrhs=', nrhs
        call check(all(info == 0), 'dgetrf_batch_strided info' // trim(tag))
        call check(all(info_rs == 0), 'dgetrs_batch_strided info' // trim(tag))
        lu_err = 0; x_err = 0; res = 0
        do i = 1, batch
            call dgetrf(n, n, ra(:, i), lda, rpiv(:, i), rinfo)
            call dgetrs('N', n, nrhs, ra(:, i), lda, rpiv(:, i), rb(:, (i - 1) * nrhs + 1:), ldb, rinfo)
            lu_err = max(lu_err, maxval(abs(a(:, i) - ra(:, i))))
            do j = 1, nrhs
                associate (x => b(:, (i - 1) * nrhs + j), x0 => b0(:, (i - 1) * nrhs + j))
                    scale = maxval(abs(x0))
                    res = max(res, maxval(abs(matmul(reshape(a0(:, i), [n, n]), x) - x0)) / scale)
                    x_err = max(x_err, maxval(abs(x - rb(:, (i - 1) * nrhs + j))))
                end associate
            end do
        end do
        call check(all(ipiv == rpiv), 'dgetrf_batch_strided pivots = LAPACK dgetrf' // trim(tag))
        call check(lu_err < 1e-12_wp, 'dgetrf_batch_strided factors vs LAPACK dgetrf' // trim(tag))
        call check(x_err < 1e-12_wp, 'dgetrs_batch_strided solution vs LAPACK dgetrs' // trim(tag))
        call check(res < 1e-13_wp, 'dgetrs_batch_strided residual' // trim(tag))
    end subroutine

    subroutine run_s(n, batch, nrhs)
        integer, intent(in) :: n, batch, nrhs
        integer, parameter :: wp = kind(1.0)
        real(wp), allocatable :: a(:, :), b(:, :), a0(:, :), b0(:, :), ra(:, :), rb(:, :)
        integer, allocatable :: ipiv(:, :), rpiv(:, :), info(:), info_rs(:)
        integer :: lda, sa, sp, ldb, sb, i, j, rinfo
        real(wp) :: lu_err, x_err, res, scale
        character(40) :: tag
        lda = n; sa = n * lda; sp = n; ldb = n; sb = n * nrhs
        allocate (a(sa, batch), b(n, batch * nrhs), ipiv(sp, batch), info(batch), &
                  info_rs(batch), rpiv(sp, batch))
        call random_number(a)
        a = 0.5_wp - a
        do i = 1, n
            a(i + (i - 1) * lda, :) = a(i + (i - 1) * lda, :) + 50
            if (i > 1) a(i + (i - 1) * lda - 1, :) = a(i + (i - 1) * lda - 1, :) + 20
            if (i < n) a(i + (i - 1) * lda + 1, :) = a(i + (i - 1) * lda + 1, :) + 20
        end do
        call random_number(b)
        b = 2.5_wp - 5 * b
        a0 = a; b0 = b; ra = a; rb = b
        info = 99; info_rs = 99
        call sgetrf_batch_strided(n, n, a, lda, sa, ipiv, sp, batch, info)
        call sgetrs_batch_strided('N', n, nrhs, a, lda, sa, ipiv, sp, b, ldb, sb, batch, info_rs)
        write (tag, '(a, i0, a, i0, a, i0)') ' n=', n, ' batch=', batch, ' nrhs=', nrhs
        call check(all(info == 0), 'sgetrf_batch_strided info' // trim(tag))
        call check(all(info_rs == 0), 'sgetrs_batch_strided info' // trim(tag))
        lu_err = 0; x_err = 0; res = 0
        do i = 1, batch
            call sgetrf(n, n, ra(:, i), lda, rpiv(:, i), rinfo)
            call sgetrs('N', n, nrhs, ra(:, i), lda, rpiv(:, i), rb(:, (i - 1) * nrhs + 1:), ldb, rinfo)
            lu_err = max(lu_err, maxval(abs(a(:, i) - ra(:, i))))
            do j = 1, nrhs
                associate (x => b(:, (i - 1) * nrhs + j), x0 => b0(:, (i - 1) * nrhs + j))
                    scale = maxval(abs(x0))
                    res = max(res, maxval(abs(matmul(reshape(a0(:, i), [n, n]), x) - x0)) / scale)
                    x_err = max(x_err, maxval(abs(x - rb(:, (i - 1) * nrhs + j))))
                end associate
            end do
        end do
        ! factors: a reordered float sum may differ in the last bits
        call check(all(ipiv == rpiv), 'sgetrf_batch_strided pivots = LAPACK sgetrf' // trim(tag))
        call check(lu_err < 1e-4_wp, 'sgetrf_batch_strided factors vs LAPACK sgetrf' // trim(tag))
        call check(x_err < 1e-5_wp, 'sgetrs_batch_strided solution vs LAPACK sgetrs' // trim(tag))
        call check(res < 1e-5_wp, 'sgetrs_batch_strided residual' // trim(tag))
    end subroutine
end program

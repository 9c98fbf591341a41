! The Fortran module against plain Fortran loops: blas_dgemm_batch (group
! form, two groups with different sizes, options, alpha and beta, pointer
! arrays built with c_loc), blas_zgemm_batch_strided (complex alpha and beta
! by value) and lapack_dgetrf_batch_strided + lapack_dgetrs_batch_strided
! (pivots and a strided solve).  Exits nonzero on any mismatch.
program test_fortran
  use iso_c_binding
  use batchblas
  implicit none
  integer :: failures = 0

  call group_gemm()
  call strided_zgemm()
  call strided_lu()
  if (failures /= 0) then
    print '(a, i0, a)', 'test_fortran: ', failures, ' failure(s)'
    stop 1
  end if
  print '(a)', 'test_fortran: all passed'

contains

  subroutine check(name, err, scale)
    character(*), intent(in) :: name
    real(c_double), intent(in) :: err, scale
    real(c_double) :: ratio
    ratio = err / (scale * epsilon(1.0_c_double))
    if (.not. (ratio < 30)) then
      print '(a, a, a, es10.3)', 'FAIL ', name, ': error/(scale*eps) = ', ratio
      failures = failures + 1
    else
      print '(a, a, a, es10.3)', 'ok   ', name, ': error/(scale*eps) = ', ratio
    end if
  end subroutine check

  ! group 1: 3 problems C = 1.5*A*B + 0.5*C, A 4x3, B 3x5, C 4x5 (lda padded to 6)
  ! group 2: 2 problems C = -1*A^T*B^T + 0*C, A 6x2 (op(A) 2x6), B 3x6, C 2x3
  subroutine group_gemm()
    integer(c_int), parameter :: ng = 2
    integer(c_int) :: gs(ng) = [3, 2]
    integer(c_int) :: ta(ng) = [BblasNoTrans, BblasTrans], tb(ng) = [BblasNoTrans, BblasTrans]
    integer(c_int) :: m(ng) = [4, 2], n(ng) = [5, 3], k(ng) = [3, 6]
    integer(c_int) :: lda(ng) = [6, 6], ldb(ng) = [3, 3], ldc(ng) = [4, 2]
    real(c_double) :: alpha(ng) = [1.5d0, -1.0d0], beta(ng) = [0.5d0, 0.0d0]
    real(c_double), target :: A1(6, 3, 3), B1(3, 5, 3), C1(4, 5, 3)
    real(c_double), target :: A2(6, 2, 2), B2(3, 6, 2), C2(2, 3, 2)
    real(c_double) :: R1(4, 5, 3), R2(2, 3, 2), err, scale
    type(c_ptr) :: pa(5), pb(5), pc(5)
    integer(c_int) :: info(6)
    integer :: i

    call random_number(A1); call random_number(B1); call random_number(C1)
    call random_number(A2); call random_number(B2); call random_number(C2)
    C2 = huge(1.0d0)                    ! beta = 0: C must not be read
    do i = 1, 3
      R1(:, :, i) = 1.5d0 * matmul(A1(1:4, :, i), B1(:, :, i)) + 0.5d0 * C1(:, :, i)
      pa(i) = c_loc(A1(1, 1, i)); pb(i) = c_loc(B1(1, 1, i)); pc(i) = c_loc(C1(1, 1, i))
    end do
    do i = 1, 2
      R2(:, :, i) = -matmul(transpose(A2(:, :, i)), transpose(B2(:, :, i)))
      pa(3 + i) = c_loc(A2(1, 1, i)); pb(3 + i) = c_loc(B2(1, 1, i)); pc(3 + i) = c_loc(C2(1, 1, i))
    end do

    info(1) = BblasErrorsReportAll
    call blas_dgemm_batch(ng, gs, BblasColMajor, ta, tb, m, n, k, alpha, pa, lda, &
         pb, ldb, beta, pc, ldc, info)
    if (any(info /= 0)) then
      print '(a, 6(1x, i0))', 'FAIL dgemm_batch: info =', info
      failures = failures + 1
      return
    end if
    err = max(maxval(abs(C1 - R1)), maxval(abs(C2 - R2)))
    scale = 6 * max(maxval(abs(R1)), maxval(abs(R2)), 1.0d0)
    call check('blas_dgemm_batch (2 groups)', err, scale)
  end subroutine group_gemm

  subroutine strided_zgemm()
    integer(c_int), parameter :: m = 5, n = 4, k = 3, count = 7
    complex(c_double_complex) :: A(m, k, count), B(k, n, count), C(m, n, count), R(m, n, count)
    complex(c_double_complex), parameter :: alpha = (0.5d0, -2.0d0), beta = (1.0d0, 0.25d0)
    real(c_double) :: re(m, k), im(m, k), re2(k, n), im2(k, n), re3(m, n), im3(m, n)
    integer(c_int) :: info(count + 1)
    integer :: i

    do i = 1, count
      call random_number(re); call random_number(im); A(:, :, i) = cmplx(re, im, c_double)
      call random_number(re2); call random_number(im2); B(:, :, i) = cmplx(re2, im2, c_double)
      call random_number(re3); call random_number(im3); C(:, :, i) = cmplx(re3, im3, c_double)
      R(:, :, i) = alpha * matmul(A(:, :, i), B(:, :, i)) + beta * C(:, :, i)
    end do
    info(1) = BblasErrorsReportAll
    call blas_zgemm_batch_strided(BblasColMajor, BblasNoTrans, BblasNoTrans, m, n, k, alpha, &
         A, m, int(m * k, c_int64_t), B, k, int(k * n, c_int64_t), beta, &
         C, m, int(m * n, c_int64_t), count, info)
    if (any(info /= 0)) then
      print '(a, i0)', 'FAIL zgemm_batch_strided: info(1) = ', info(1)
      failures = failures + 1
      return
    end if
    call check('blas_zgemm_batch_strided', maxval(abs(C - R)), 8 * maxval(abs(R)))
  end subroutine strided_zgemm

  subroutine strided_lu()
    integer(c_int), parameter :: n = 6, nrhs = 3, count = 50
    real(c_double) :: A(n, n, count), A0(n, n, count), B(n, nrhs, count), B0(n, nrhs, count)
    integer(c_int) :: ipiv(n, count), info(count + 1)
    real(c_double) :: err, scale
    integer :: i

    call random_number(A); call random_number(B)
    A0 = A; B0 = B
    info(1) = BblasErrorsReportAll
    call lapack_dgetrf_batch_strided(BblasColMajor, n, n, A, n, int(n * n, c_int64_t), &
         ipiv, int(n, c_int64_t), count, info)
    if (any(info /= 0)) then
      print '(a, i0)', 'FAIL dgetrf_batch_strided: info(1) = ', info(1)
      failures = failures + 1
      return
    end if
    call lapack_dgetrs_batch_strided(BblasColMajor, BblasNoTrans, n, nrhs, A, n, &
         int(n * n, c_int64_t), ipiv, int(n, c_int64_t), B, n, int(n * nrhs, c_int64_t), &
         count, info)
    if (any(info /= 0)) then
      print '(a, i0)', 'FAIL dgetrs_batch_strided: info(1) = ', info(1)
      failures = failures + 1
      return
    end if
    err = 0; scale = 0
    do i = 1, count
      err = max(err, maxval(abs(matmul(A0(:, :, i), B(:, :, i)) - B0(:, :, i))) &
                     / (maxval(abs(A0(:, :, i))) * maxval(abs(B(:, :, i)))))
    end do
    call check('lapack_dgetrf/dgetrs_batch_strided', err, real(n, c_double))
  end subroutine strided_lu
end program test_fortran

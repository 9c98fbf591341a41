! Batched Cholesky solve from Fortran: lapack_dposv_batch_strided on count
! random SPD systems of order n with nrhs right-hand sides, then the largest
! scaled residual ||A*X - B|| / (||A|| ||X|| n eps).  Exits nonzero if a
! problem failed or a residual is too large.
!
! Build: gfortran posv_fortran.f90 -I$(pkg-config --variable=fmoddir batchblas) \
!            $(pkg-config --libs batchblas)
program posv_fortran
  use iso_c_binding
  use batchblas
  implicit none
  integer(c_int), parameter :: n = 8, nrhs = 2, count = 1000
  real(c_double), allocatable :: A(:,:,:), B(:,:,:), A0(:,:,:), B0(:,:,:), R(:,:)
  integer(c_int), allocatable :: info(:)
  real(c_double) :: worst, res
  integer :: i, j

  allocate(A(n, n, count), B(n, nrhs, count), info(count + 1))
  allocate(A0(n, n, count), B0(n, nrhs, count), R(n, nrhs))
  call random_number(A)
  call random_number(B)
  do i = 1, count                       ! A = M + M^T + n*I: symmetric positive definite
    A(:, :, i) = A(:, :, i) + transpose(A(:, :, i))
    do j = 1, n
      A(j, j, i) = A(j, j, i) + n
    end do
  end do
  A0(:, :, :) = A
  B0(:, :, :) = B

  info(1) = BblasErrorsReportAll        ! one code per problem in info(2:)
  call lapack_dposv_batch_strided(BblasColMajor, BblasLower, n, nrhs, &
       A, n, int(n, c_int64_t) * n, B, n, int(n, c_int64_t) * nrhs, count, info)
  if (info(1) /= 0) then
    print '(a, i0)', 'posv_fortran: info(1) = ', info(1)
    stop 1
  end if

  worst = 0
  do i = 1, count                       ! B now holds X
    R(:, :) = matmul(A0(:, :, i), B(:, :, i)) - B0(:, :, i)
    res = maxval(abs(R)) / (maxval(abs(A0(:, :, i))) * maxval(abs(B(:, :, i))) &
          * n * epsilon(1.0_c_double))
    worst = max(worst, res)
  end do
  print '(a, i0, a, i0, a, es10.3)', 'posv_fortran: ', count, ' systems of order ', n, &
       ', max scaled residual ', worst
  deallocate(A, B, info, A0, B0, R)     ! the main program's arrays are not freed at the end
  if (.not. (worst < 30)) stop 1
end program posv_fortran

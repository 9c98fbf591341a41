/*
 * The FP64 tensor-core step and the asynchronous copies shared by the
 * kernels that multiply double blocks with mma.sync: k_vgemm_tc
 * (vardriver.cu), k_trsm_panel (trsm_panel.cu) and the kernels on chip
 * (potrf_chip.cu, getrf_chip.cu).  Device code only;
 * callers test the compute capability (8.0 or later) before they launch.
 */
#pragma once

/* c += a b, the 8 x 8 x 4 step (sm_80 and later): a = A(lane / 4, lane %
   4), b = B(lane % 4, lane / 4), c = C(lane / 4, 2 (lane % 4) + 0..1) */
__device__ __forceinline__ void bb_dmma8(double (&c)[2], double a, double b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(c[0]), "+d"(c[1])
        : "d"(a), "d"(b));
#endif
}

/* c0 += a0 b + a1 b' and c1 likewise: the 16 x 8 x 8 step of sm_90 (two
   8 x 8 blocks of C, rows 0..7 in c0 and 8..15 in c1, c = C(lane / 4, 2
   (lane % 4) + 0..1) of its block), with a0[q] = A(lane / 4, lane % 4 + 4
   q) of the upper block, a1[q] of the lower, b[q] = B(lane % 4 + 4 q, lane
   / 4); sm_80 has the 8 x 8 x 4 step only, four of them.  On the H200 the
   m8n8k4 shape kept the FP64 tensor pipe 81% busy for about 27 TFLOP/s
   executed: half of the pipe's rate (session 31's profile). */
__device__ __forceinline__ void bb_dmma16(double (&c0)[2], double (&c1)[2], const double (&a0)[2],
                                         const double (&a1)[2], const double (&b)[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+d"(c0[0]), "+d"(c0[1]), "+d"(c1[0]), "+d"(c1[1])
        : "d"(a0[0]), "d"(a1[0]), "d"(a0[1]), "d"(a1[1]), "d"(b[0]), "d"(b[1]));
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#pragma unroll
    for (int q = 0; q < 2; q++) {
        bb_dmma8(c0, a0[q], b[q]);
        bb_dmma8(c1, a1[q], b[q]);
    }
#endif
}

/* 8 bytes from global memory to shared address sa, asynchronously
   (cp.async, sm_80): zeros where !in; bb_cp_commit closes a group of copies, bb_cp_wait<N> waits
   until at most N groups are in flight */
__device__ __forceinline__ void bb_cp8(unsigned sa, const double *g, bool in)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(sa), "l"(g), "r"(in ? 8 : 0) : "memory");
#endif
}
/* 16 bytes from 16-byte aligned global memory to 16-byte aligned shared
   address sa, asynchronously: the first `bytes` (0, 8 or 16) copied, the
   rest zeros */
__device__ __forceinline__ void bb_cp16(unsigned sa, const double *g, int bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa), "l"(g), "r"(bytes) : "memory");
#endif
}
__device__ __forceinline__ void bb_cp_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void bb_cp_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/* Programmatic dependent launch (sm_90): a kernel launched with
   bb_launch_pdl may start while the kernel before it in the stream still
   runs, once every block of that one has called bb_pdl_trigger;
   bb_pdl_wait returns when it has finished and its writes are visible.
   Without the launch attribute (or before sm_90) both are no-ops. */
__device__ __forceinline__ void bb_pdl_trigger()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void bb_pdl_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

/* The matrix on chip of potrf_chip.cu and getrf_chip.cu: up to CHIP_T x
   CHIP_T doubles in shared memory column by column (S[j * CHIP_LD + i]:
   the tensor-core fragments' loads of 16 x 8 tiles are conflict-free),
   padded to blocks of CHIP_B, a thread block of four warps a problem. */
constexpr int CHIP_T = 64;             /* the largest padded order */
constexpr int CHIP_B = 16;             /* block columns */
constexpr int CHIP_THREADS = 128;      /* four warps */
/* a column in shared memory, and the matrix's bytes, for order t <= CHIP_T
   (getrf_chip.cu has a smaller form too) */
__host__ __device__ constexpr int bb_chip_ld(int t) { return t + 4; }
__host__ __device__ constexpr size_t bb_chip_smem(int t) { return (size_t)t * bb_chip_ld(t) * sizeof(double); }
constexpr int CHIP_LD = bb_chip_ld(CHIP_T);
constexpr size_t CHIP_SMEM = bb_chip_smem(CHIP_T);

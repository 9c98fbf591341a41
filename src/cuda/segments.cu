/*
 * The CUDA driver's grouping of a batch into launches (both paths: host
 * data, staging.cu; device data, run_device in backend_cuda.cu).
 *
 * Launches.  A launch is one uniform normalised parameter set (bb_problem)
 * applied to a run of problems: the fixed and strided forms are one launch,
 * the group form one per group, the variable form one per distinct
 * parameter set (problems sorted by their parameters).  Launches are issued
 * largest first.  Operand slots in bb_dev_batch are the NORMALISED slots:
 * when the normalisation swapped A and B (row-major gemm) the driver swaps
 * the user's operands accordingly and passes the launch's bb_problem with
 * swap_ab = 0, so a kernel never exchanges them again.
 *
 * The segment (one launch's run of problems) is in cuda_internal.h.
 */
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "cuda_internal.h"

/* Equality of two problems' raw parameters in a variable batch (layout is
   uniform, so equal raw parameters mean equal normalised problems).
   Leading dimensions count only for device data. */
struct var_key {
    const bb_batch *b;
    size_t asz, bsz;
    const int *act[BB_NPAR]; /* the parameter arrays that count */
    int na;
    var_key(const bb_batch *bt, int with_ld) : b(bt), asz(bb_scalar_bytes(bt, 0)), bsz(bb_scalar_bytes(bt, 1)), na(0)
    {
        for (int s = 0; s < BB_NPAR; s++)
            if (b->par[s] && (with_ld || (s != BB_LDA && s != BB_LDB && s != BB_LDC))) act[na++] = b->par[s];
    }
    bool same(int64_t x, int64_t y) const
    {
        for (int s = 0; s < na; s++)
            if (act[s][x] != act[s][y]) return false;
        if (b->alpha && memcmp((const char *)b->alpha + x * asz, (const char *)b->alpha + y * asz, asz))
            return false;
        if (b->beta && memcmp((const char *)b->beta + x * bsz, (const char *)b->beta + y * bsz, bsz))
            return false;
        return true;
    }
};

/* Groups the not-skipped problems of a variable batch by their raw
   parameters in linear time: a hash table (open addressing, grown at half
   load) maps each parameter set to a segment; the problems are then laid
   out segment by segment, in index order within each (a counting sort).
   (It replaces a comparison sort of the problems.) */
struct var_groups {
    std::vector<int64_t> rep, start, count; /* per segment: first problem, offset, size */
    int64_t nseg = 0;

    static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }
    static uint64_t hash(const var_key &l, int64_t x)
    {
        const bb_batch *b = l.b;
        uint64_t h = 0xcbf29ce484222325ull;
        for (int s = 0; s < l.na; s++) h = mix(h, (uint32_t)l.act[s][x]);
        const unsigned char *ab[2] = {b->alpha ? (const unsigned char *)b->alpha + x * l.asz : NULL,
                                      b->beta ? (const unsigned char *)b->beta + x * l.bsz : NULL};
        const size_t sz[2] = {l.asz, l.bsz};
        for (int k = 0; k < 2; k++)
            if (ab[k])
                for (size_t e = 0; e < sz[k]; e++) h = mix(h, ab[k][e]);
        return h ^ (h >> 29);
    }

    /* Returns the problems in segment order (malloc'ed, ngood entries), or
       NULL if out of memory. */
    int64_t *run(const var_key &l, int64_t ngood, const unsigned char *only)
    {
        const bb_batch *b = l.b;
        std::vector<int32_t> seg_of;
        struct slot { uint64_t h; int64_t seg; };
        std::vector<slot> tab;
        try {
            seg_of.resize((size_t)ngood);
            tab.assign(1024, slot{0, -1});
        } catch (...) {
            return NULL;
        }
        size_t mask = tab.size() - 1;
        int64_t t = 0;
        for (int64_t i = 0; i < b->count; i++) {
            if (b->pinfo[i] || (only && !only[i])) continue;
            const uint64_t h = hash(l, i);
            size_t at = (size_t)h & mask;
            while (tab[at].seg >= 0 && !(tab[at].h == h && l.same(rep[(size_t)tab[at].seg], i))) at = (at + 1) & mask;
            int64_t sg = tab[at].seg;
            if (sg < 0) { /* a new parameter set */
                try {
                    rep.push_back(i);
                    count.push_back(0);
                } catch (...) {
                    return NULL;
                }
                sg = nseg++;
                tab[at] = slot{h, sg};
                if ((size_t)nseg * 2 > tab.size()) { /* grow and re-insert */
                    std::vector<slot> big;
                    try {
                        big.assign(tab.size() * 2, slot{0, -1});
                    } catch (...) {
                        return NULL;
                    }
                    const size_t bm = big.size() - 1;
                    for (const slot &e : tab) {
                        if (e.seg < 0) continue;
                        size_t a = (size_t)e.h & bm;
                        while (big[a].seg >= 0) a = (a + 1) & bm;
                        big[a] = e;
                    }
                    tab.swap(big);
                    mask = bm;
                }
            }
            seg_of[(size_t)t++] = (int32_t)sg;
            count[(size_t)sg]++;
        }
        try {
            start.resize((size_t)nseg);
        } catch (...) {
            return NULL;
        }
        int64_t off = 0;
        for (int64_t k = 0; k < nseg; k++) {
            start[(size_t)k] = off;
            off += count[(size_t)k];
        }
        std::vector<int64_t> pos;
        try {
            pos = start;
        } catch (...) {
            return NULL;
        }
        int64_t *idx = (int64_t *)cu_malloc((size_t)ngood * sizeof *idx);
        if (!idx) return NULL;
        t = 0;
        for (int64_t i = 0; i < b->count; i++)
            if (!b->pinfo[i] && (!only || only[i])) idx[pos[(size_t)seg_of[(size_t)t++]]++] = i;
        return idx;
    }
};

static bool seg_bigger(const segment &x, const segment &y)
{
    if (x.cost != y.cost) return x.cost > y.cost;
    return x.first < y.first;
}

/*
 * Splits the batch into launches.  *idx (variable form only) receives the
 * problems that are not skipped, sorted so that each segment is a run of it;
 * other forms leave *idx NULL and segments are ranges of problems.  Segments
 * whose problems are all skipped are left out.  Returns 0, or -1 if out of
 * host memory.
 */
int bb_cu_build_segments(const bb_batch *b, int with_ld, segment **segs_out, int64_t *nseg_out,
                         int64_t **idx_out, int64_t *nidx_out, const unsigned char *only)
{
    *segs_out = NULL;
    *nseg_out = 0;
    *idx_out = NULL;
    *nidx_out = 0;
    segment *segs = NULL;
    int64_t nseg = 0;

    if (b->form == BB_FORM_VAR) {
        int64_t ngood = 0;
        for (int64_t i = 0; i < b->count; i++) ngood += b->pinfo[i] == 0 && (!only || only[i]);
        if (ngood == 0) return 0;
        const var_key key(b, with_ld);
        var_groups vg;
        int64_t *idx = vg.run(key, ngood, only);
        if (!idx) return -1;
        segs = (segment *)cu_malloc((size_t)vg.nseg * sizeof *segs);
        if (!segs) {
            free(idx);
            return -1;
        }
        for (int64_t k = 0; k < vg.nseg; k++) {
            segment &s = segs[nseg++];
            bb_group_problem(b, vg.rep[k], &s.gp);
            s.first = vg.start[k];
            s.n = vg.count[k];
        }
        *idx_out = idx;
        *nidx_out = ngood;
    } else {
        segs = (segment *)cu_malloc((size_t)(b->ngroups > 0 ? b->ngroups : 1) * sizeof *segs);
        if (!segs) return -1;
        for (int64_t g = 0; g < b->ngroups; g++) {
            int64_t first = bb_group_first(b, g), last = bb_group_first(b, g + 1);
            int any = 0;
            for (int64_t i = first; i < last && !any; i++) any = b->pinfo[i] == 0;
            if (!any) continue;
            segment &s = segs[nseg++];
            bb_group_problem(b, g, &s.gp);
            s.first = first;
            s.n = last - first;
        }
    }
    for (int64_t k = 0; k < nseg; k++) {
        segment &s = segs[k];
        s.cost = bb_problem_flops(b, &s.gp) * (double)s.n + (double)s.n;
    }
    std::sort(segs, segs + nseg, seg_bigger);
    *segs_out = segs;
    *nseg_out = nseg;
    return 0;
}

static size_t real_size(bb_prec p) { return (p == BB_P_S || p == BB_P_C) ? sizeof(float) : sizeof(double); }

/* Bytes of one element of normalised operand slot o. */
size_t bb_cu_operand_elem(const bb_batch *b, int o)
{
    if (o == BB_IPIV) return sizeof(int);
    if (o == BB_X || o == BB_Y) return real_size(b->prec);
    return bb_prec_size(b->prec);
}

/* Marks every not-skipped problem of the segments as failed with `code`,
   and the batch as failed on the device (b->device_fail, for the front
   end's error handler call). */
void bb_cu_fail_all(bb_batch *b, int code)
{
    if (!b->device_fail) b->device_fail = code;
    for (int64_t i = 0; i < b->count; i++)
        if (b->pinfo[i] == 0) b->pinfo[i] = code;
}

/*
 * The CUDA plugin's side of the device set (src/common/spread.c, which
 * spreads a host-data batch over several devices): the visible devices and
 * their relative rates, read once when the library has loaded the plugin.
 * A share of a spread batch reaches the driver with b->share_device set
 * (1 + its device) and runs on that device through the ordinary host-data
 * staging pipeline (backend_cuda.cu, cu_run).
 */
#include <cuda_runtime.h>

/* Returns the number of visible devices (0 if none or on error) and fills
   rates[d] (d < max) with device d's relative rate for the split: its
   multiprocessor count (equal devices get equal shares).  Called by the
   library (bb_spread_attach) after the plugin's probe. */
extern "C" __attribute__((visibility("default"))) int bb_cuda_plugin_devices(double *rates, int max)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n <= 0) {
        (void)cudaGetLastError();
        return 0;
    }
    for (int d = 0; d < n && d < max; d++) {
        int sm = 0;
        if (cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, d) != cudaSuccess) {
            (void)cudaGetLastError();
            sm = 1;
        }
        rates[d] = sm > 0 ? (double)sm : 1.0;
    }
    return n;
}

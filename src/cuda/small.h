/* Register-resident kernels for tiny matrices (n <= 32). */
#pragma once
#include "cuda_internal.h"

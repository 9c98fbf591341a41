/* CUDA backend internals. */
#pragma once
#include "backend.h"

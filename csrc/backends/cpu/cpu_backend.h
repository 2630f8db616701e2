// CPU kernel families. Each prepare_* reads the step's shapes/strides/params once and returns a
// Kernel that only runs on pointers.
#pragma once
#include <memory>

#include "backends/backend.h"

namespace mnn::cpu {

backend::Backend& cpu_backend();

std::unique_ptr<backend::Kernel> prepare_reduce(const backend::StepDesc& step);     // kernels/reduce.cpp
std::unique_ptr<backend::Kernel> prepare_argreduce(const backend::StepDesc& step);  // kernels/reduce.cpp
std::unique_ptr<backend::Kernel> prepare_scan(const backend::StepDesc& step);       // kernels/scan.cpp
std::unique_ptr<backend::Kernel> prepare_matmul(const backend::StepDesc& step);     // kernels/matmul.cpp
std::unique_ptr<backend::Kernel> prepare_concat(const backend::StepDesc& step);     // kernels/concat.cpp
std::unique_ptr<backend::Kernel> prepare_region(const backend::RegionProgram& region);  // region.cpp
std::unique_ptr<backend::Kernel> prepare_arange(const backend::StepDesc& step);     // kernels/arange.cpp

}  // namespace mnn::cpu

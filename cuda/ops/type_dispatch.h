#pragma once
// Turns a run-time weight type into a compile-time one for the templated kernels.
#include <string>
#include <type_traits>

#include "core/error.h"
#include "gguf/ggml_type.h"

namespace dlab::cuda {

// The weight types the device kernels read (cuda/quant_hd.h).
inline bool deviceReadsType(GgmlType t) {
    switch (t) {
    case GgmlType::F32: case GgmlType::F16: case GgmlType::BF16: case GgmlType::Q4_0: case GgmlType::Q4_1:
    case GgmlType::Q8_0: case GgmlType::Q4_K: case GgmlType::Q5_K: case GgmlType::Q6_K: return true;
    default: return false;
    }
}
inline const char* deviceTypeList() { return "F32, F16, BF16, Q4_0, Q4_1, Q8_0, Q4_K, Q5_K, Q6_K"; }

template <class F>
void dispatchWeightType(GgmlType t, const char* what, F&& f) {
    using G = GgmlType;
    switch (t) {
    case G::F32: return f(std::integral_constant<G, G::F32>{});
    case G::F16: return f(std::integral_constant<G, G::F16>{});
    case G::BF16: return f(std::integral_constant<G, G::BF16>{});
    case G::Q4_0: return f(std::integral_constant<G, G::Q4_0>{});
    case G::Q4_1: return f(std::integral_constant<G, G::Q4_1>{});
    case G::Q8_0: return f(std::integral_constant<G, G::Q8_0>{});
    case G::Q4_K: return f(std::integral_constant<G, G::Q4_K>{});
    case G::Q5_K: return f(std::integral_constant<G, G::Q5_K>{});
    case G::Q6_K: return f(std::integral_constant<G, G::Q6_K>{});
    default: break;
    }
    throw Error(std::string(what) + ": weight type " + ggmlTypeName(t) + " is not supported on the GPU (supported: " +
                deviceTypeList() + ")");
}

}  // namespace dlab::cuda

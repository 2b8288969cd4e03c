// What GA_Diag_reuse keeps between calls (eigen.cpp), freed by GA_Terminate.
#pragma once

namespace armada::ga {

/// Frees what GA_Diag_reuse keeps between calls (GA_Terminate; collective).
void forget_saved_diag();

}  // namespace armada::ga

#pragma once
// Numbers rounded to a count of significant digits, the way every figure of the rig is
// printed.

#include <string>

namespace pullsched::rig {

/// Renders v with `significant` significant digits in fixed notation (exponents only for
/// |v| < 1e-4); "-0.000" never appears, non-finite values print as fmt writes them.
std::string formatSignificant(double v, int significant);

}  // namespace pullsched::rig

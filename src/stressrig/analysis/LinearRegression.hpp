#pragma once
// Least-squares line through measured points, as used for parameter series.

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace pullsched::rig {

/// Fits y = gradient·x + socket by ordinary least squares and keeps the figures the
/// parameter series reports: correlation r, the largest absolute residual Δmax and
/// the residual standard deviation σ (denominator n−2, the unbiased estimate for a
/// two-parameter fit).
///
/// Degenerate input throws std::invalid_argument: fewer than two points, x and y of
/// different length, non-finite values, or all x equal (no slope is defined). With
/// exactly two points σ is NaN (0/0 degrees of freedom); with all y equal the
/// correlation is NaN (undefined) while gradient 0 and the socket are exact.
class LinearRegression {
  public:
    LinearRegression(std::span<const double> x, std::span<const double> y);
    explicit LinearRegression(std::span<const std::pair<double, double>> points);

    double gradient() const noexcept { return gradient_; }
    double socket() const noexcept { return socket_; }
    double correlation() const noexcept { return correlation_; }
    double maxDelta() const noexcept { return maxDelta_; }  ///< largest |y − model(x)|
    double sigma() const noexcept { return sigma_; }
    std::size_t size() const noexcept { return n_; }
    double predict(double x) const noexcept { return gradient_ * x + socket_; }

    /// `Model: 0.518·p + 8.57 corr=0.983 Δmax=0.42 σ=0.211` — every figure with
    /// `significant` digits (fixed notation; exponents only for |v| < 1e-4); a
    /// negative socket is written `0.21·p - 1.92` (ASCII minus, easy to grep).
    std::string format(int significant = 3) const;
    /// Only the `Model: a·p + b` part, e.g. for a plot legend.
    std::string formatModel(int significant = 3) const;

  private:
    void fit(std::span<const double> x, std::span<const double> y);

    double gradient_ = 0, socket_ = 0, correlation_ = 0, maxDelta_ = 0, sigma_ = 0;
    std::size_t n_ = 0;
};

}  // namespace pullsched::rig

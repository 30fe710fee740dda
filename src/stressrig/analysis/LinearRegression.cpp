#include "analysis/LinearRegression.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "format/SignificantDigits.hpp"

namespace pullsched::rig {

LinearRegression::LinearRegression(std::span<const double> x, std::span<const double> y) {
    fit(x, y);
}

LinearRegression::LinearRegression(std::span<const std::pair<double, double>> points) {
    std::vector<double> x, y;
    x.reserve(points.size());
    y.reserve(points.size());
    for (const auto& [px, py] : points) {
        x.push_back(px);
        y.push_back(py);
    }
    fit(x, y);
}

void LinearRegression::fit(std::span<const double> x, std::span<const double> y) {
    if (x.size() != y.size())
        throw std::invalid_argument(
            fmt::format("LinearRegression: {} x values but {} y values", x.size(), y.size()));
    n_ = x.size();
    if (n_ < 2)
        throw std::invalid_argument(
            fmt::format("LinearRegression: need at least 2 points, got {}", n_));
    for (std::size_t i = 0; i < n_; ++i)
        if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
            throw std::invalid_argument(
                fmt::format("LinearRegression: point {} ({}, {}) is not finite", i, x[i], y[i]));

    // Two-pass: centre first, which keeps the sums well conditioned for large x.
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n_; ++i) {
        mx += x[i];
        my += y[i];
    }
    const double n = static_cast<double>(n_);
    mx /= n;
    my /= n;
    double sxx = 0, syy = 0, sxy = 0;
    for (std::size_t i = 0; i < n_; ++i) {
        const double dx = x[i] - mx, dy = y[i] - my;
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    if (sxx == 0)
        throw std::invalid_argument(
            fmt::format("LinearRegression: all {} x values equal ({}), no slope defined", n_, mx));

    gradient_ = sxy / sxx;
    socket_ = my - gradient_ * mx;
    correlation_ = syy == 0 ? std::numeric_limits<double>::quiet_NaN() : sxy / std::sqrt(sxx * syy);

    double sumSq = 0;
    maxDelta_ = 0;
    for (std::size_t i = 0; i < n_; ++i) {
        const double r = y[i] - predict(x[i]);
        sumSq += r * r;
        maxDelta_ = std::max(maxDelta_, std::abs(r));
    }
    sigma_ = n_ > 2 ? std::sqrt(sumSq / (n - 2)) : std::numeric_limits<double>::quiet_NaN();
}

std::string LinearRegression::formatModel(int significant) const {
    const char* sign = socket_ < 0 ? "-" : "+";
    return fmt::format("Model: {}·p {} {}", formatSignificant(gradient_, significant), sign,
                       formatSignificant(std::abs(socket_), significant));
}

std::string LinearRegression::format(int significant) const {
    return fmt::format("{} corr={} Δmax={} σ={}", formatModel(significant),
                       formatSignificant(correlation_, significant),
                       formatSignificant(maxDelta_, significant),
                       formatSignificant(sigma_, significant));
}

}  // namespace pullsched::rig

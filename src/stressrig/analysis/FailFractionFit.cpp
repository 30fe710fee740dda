#include "analysis/FailFractionFit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace pullsched::rig {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// The interval is searched this far (in ln stress) beyond the probed stresses: ln 4.
const double kMargin = std::log(4.0);
constexpr int kGrid = 512;

struct Point {
    double x;  ///< ln stress
    double runs, failed;
};

/// ln σ(z), stable for large |z|.
double logSigmoid(double z) {
    return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}
double sigmoid(double z) {
    return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
}

double logLikelihood(const std::vector<Point>& pts, double beta, double x50) {
    double l = 0;
    for (const Point& p : pts) {
        const double z = beta * (p.x - x50);
        l += p.failed * logSigmoid(z) + (p.runs - p.failed) * logSigmoid(-z);
    }
    return l;
}

/// d/dβ of the log-likelihood: Σ d (failed − runs σ(β d)); decreasing in β (concave).
double slopeDerivative(const std::vector<Point>& pts, double beta, double x50) {
    double g = 0;
    for (const Point& p : pts) {
        const double d = p.x - x50;
        g += d * (p.failed - p.runs * sigmoid(beta * d));
    }
    return g;
}

struct Profile {
    double logLik;
    double beta;
};

Profile profile(const std::vector<Point>& pts, double x50) {
    if (slopeDerivative(pts, 0, x50) <= 0) return {logLikelihood(pts, 0, x50), 0};
    // Runs on the wrong side of x50 (holding above it, failing below): none means the
    // likelihood grows without bound in β, towards the limit where only runs exactly
    // at x50 keep probability ½.
    double wrong = 0, atX50 = 0;
    for (const Point& p : pts) {
        const double d = p.x - x50;
        if (d > 0) wrong += (p.runs - p.failed) * d;
        if (d < 0) wrong += p.failed * -d;
        if (d == 0) atX50 += p.runs;
    }
    if (wrong == 0) return {atX50 * std::log(0.5), kInf};
    double lo = 0, hi = 1;
    while (slopeDerivative(pts, hi, x50) > 0 && hi < 1e15) {
        lo = hi;
        hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        (slopeDerivative(pts, mid, x50) > 0 ? lo : hi) = mid;
    }
    const double beta = (lo + hi) / 2;
    return {logLikelihood(pts, beta, x50), beta};
}

std::vector<Point> points(std::span<const StressOutcomes> data) {
    std::vector<Point> pts;
    for (const StressOutcomes& o : data) {
        if (!(o.stress > 0) || !std::isfinite(o.stress))
            throw std::invalid_argument(
                fmt::format("FailFractionFit: stress {} is not a positive number", o.stress));
        if (o.failed > o.runs)
            throw std::invalid_argument(fmt::format(
                "FailFractionFit: {} failed of {} runs at stress {}", o.failed, o.runs, o.stress));
        if (o.runs > 0) pts.push_back({std::log(o.stress), double(o.runs), double(o.failed)});
    }
    return pts;
}

/// The probed range in ln stress and where holding and failing meet.
struct Span {
    double xmin = kInf, xmax = -kInf;
    double passMax = -kInf;  ///< highest stress with a run that held
    double failMin = kInf;   ///< lowest stress with a failed run
};

/// Counts runs, failures and distinct stresses into f, and the reason when the data
/// cannot be fitted (f.reason stays empty when they can).
Span countOutcomes(const std::vector<Point>& pts, FailFractionFit& f) {
    Span span;
    std::vector<double> xs;
    for (const Point& p : pts) {
        f.runs += std::size_t(p.runs);
        f.failed += std::size_t(p.failed);
        span.xmin = std::min(span.xmin, p.x);
        span.xmax = std::max(span.xmax, p.x);
        if (p.failed < p.runs) span.passMax = std::max(span.passMax, p.x);
        if (p.failed > 0) span.failMin = std::min(span.failMin, p.x);
        xs.push_back(p.x);
    }
    std::sort(xs.begin(), xs.end());
    f.stresses = std::size_t(std::unique(xs.begin(), xs.end()) - xs.begin());
    if (f.runs == 0)
        f.reason = "no runs";
    else if (f.failed == 0)
        f.reason = "no run failed";
    else if (f.failed == f.runs)
        f.reason = "every run failed";
    else if (f.stresses < 2)
        f.reason = "all runs at one stress";
    return span;
}

struct Maximum {
    double x;       ///< ln s50
    double logLik;  ///< the profile log-likelihood there
};

/// The profile likelihood's maximum over [lo, hi]: the best of kGrid + 1 grid points,
/// refined by golden-section search between its neighbours (the grid point is kept if
/// the refinement ends lower, as it can on a flat or kinked profile).
Maximum maximiseProfile(const std::vector<Point>& pts, double lo, double hi) {
    auto ll = [&](double x) { return profile(pts, x).logLik; };
    const double h = (hi - lo) / kGrid;
    int bi = 0;
    double bl = -kInf;
    for (int i = 0; i <= kGrid; ++i) {
        const double l = ll(lo + i * h);
        if (l > bl) {
            bl = l;
            bi = i;
        }
    }
    double a = lo + std::max(bi - 1, 0) * h, b = lo + std::min(bi + 1, kGrid) * h;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a);
    double lc = ll(c), ld = ll(d);
    for (int i = 0; i < 100 && b - a > 1e-12; ++i) {
        if (lc >= ld) {
            b = d;
            d = c;
            ld = lc;
            c = b - g * (b - a);
            lc = ll(c);
        } else {
            a = c;
            c = d;
            lc = ld;
            d = a + g * (b - a);
            ld = ll(d);
        }
    }
    const double refined = (a + b) / 2;
    const double lRefined = ll(refined);
    if (bl > lRefined) return {lo + bi * h, bl};
    return {refined, lRefined};
}

/// One end of the interval (dir −1 or +1 from best): where the deviance 2 (ℓmax − ℓp)
/// first exceeds χ², scanning outward on the grid, then bisecting; missing if the search
/// range ends first.
double intervalEnd(const std::vector<Point>& pts, double lmax, double best, double lo, double hi,
                   double dir) {
    auto outside = [&](double x) {
        return 2 * (lmax - profile(pts, x).logLik) > FailFractionFit::kChiSquare95;
    };
    const double limit = dir > 0 ? hi : lo;
    const double step = (hi - lo) / kGrid;
    double in = best;
    for (double x = best + dir * step; dir > 0 ? x <= limit : x >= limit; x += dir * step) {
        if (outside(x)) {
            double out = x;
            for (int i = 0; i < 100 && std::abs(out - in) > 1e-12; ++i) {
                const double mid = (in + out) / 2;
                (outside(mid) ? out : in) = mid;
            }
            return std::exp((in + out) / 2);
        }
        in = x;
    }
    return kMissing;
}

}  // namespace

double FailFractionFit::failProbability(double stress) const {
    if (!fitted || !(stress > 0)) return kMissing;
    const double d = std::log(stress) - std::log(stress50);
    if (std::isinf(slope)) return d > 0 ? 1.0 : d < 0 ? 0.0 : 0.5;
    return sigmoid(slope * d);
}

double FailFractionFit::profileLogLikelihood(std::span<const StressOutcomes> data,
                                             double stress50) {
    return profile(points(data), std::log(stress50)).logLik;
}

FailFractionFit FailFractionFit::fit(std::span<const StressOutcomes> data) {
    FailFractionFit f;
    const std::vector<Point> pts = points(data);
    const Span span = countOutcomes(pts, f);
    if (!f.reason.empty()) return f;

    const double lo = span.xmin - kMargin, hi = span.xmax + kMargin;
    double best;
    if (span.passMax < span.failMin) {
        // Separation: every x50 strictly inside the gap reaches the supremum 0.
        f.separated = true;
        best = (span.passMax + span.failMin) / 2;
        f.logLikelihood = 0;
        f.slope = kInf;
    } else {
        const Maximum m = maximiseProfile(pts, lo, hi);
        best = m.x;
        const Profile p = profile(pts, best);
        f.logLikelihood = m.logLik;
        f.slope = p.beta;
        if (!(p.beta > 0) || best < span.xmin || best > span.xmax) {
            f.reason = !(p.beta > 0) ? "failing does not grow with stress"
                                     : "the 50 % point lies outside the probed stresses";
            f.slope = kMissing;
            f.logLikelihood = kMissing;
            return f;
        }
    }
    f.fitted = true;
    f.stress50 = std::exp(best);
    f.low = intervalEnd(pts, f.logLikelihood, best, lo, hi, -1);
    f.high = intervalEnd(pts, f.logLikelihood, best, lo, hi, +1);
    return f;
}

}  // namespace pullsched::rig

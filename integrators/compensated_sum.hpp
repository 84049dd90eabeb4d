#pragma once
// Compensated summation of a state update y <- y + dy, the option `compensated` of a fixed-step
// run (integrators/step_control.hpp: FixedStep). Each coordinate keeps the rounding error c of
// its last sum, exactly (Knuth's TwoSum: s = y + d, the error (y - (s - (s - y))) + (d - (s - y))
// is representable and found without a branch on |y| >= |d|), and adds it to the next increment,
// as Kahan's compensated summation does (Kahan 1965; Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., Sec. 4.3). Over N steps the update's own rounding, about
// eps |y| a step, then no longer random-walks to eps |y| sqrt(N) (Brouwer's law): what is left
// is the rounding of the increments, about eps |dy| a step, smaller by |dy| / |y| ~ h. The rest
// of a method's arithmetic (its stages, its solves) is as without the option. c is at most half
// an ulp of y, so a compensation carried over to a state its integrator did not produce (a new
// run on the same object) moves that state by at most half an ulp. GCC is built with
// -std=c++20, where floating-point contraction is off; the sums below are evaluated as written.
// Which integrators offer it (CompensatedUpdate): the explicit VI ((3.17) and (3.18)), the
// implicit VI ((3.15); its w is a solve's solution, not a sum) and their compositions; the
// explicit VI's plain step, a few dozen instructions, compiles as without the option (it is a
// template argument, out of line). The RKMK methods (Lie-Euler to RKMK5) on a group action that
// gives exp(sigma) . y - y in closed form (IncrementalAction: SO(3) on R^3, SO(3) x R^3 on
// itself, SE(3)^n on (TS^2)^n, all through geometry/so3.hpp's expm1), and SLGI and its
// compositions on a model that gives its state's increment (models/views.hpp:
// CotangentIncrement: the free rigid body, the heavy top): their update exp(sigma) . y is a
// product, summed as y + (exp(sigma) . y - y). Not the commutator-free and Crouch-Grossman
// methods (a product of several exponentials); not the explicit Runge-Kutta methods, whose
// y + h sum b_i k_i could take it, but where the flag's test alone cost RK2 and RK4 on the small
// models 4 to 13 % more instructions a step (scripts/perf-gate, 2026-11-28); not the constrained
// VIs, nor adaptive methods (a case asking it of them is "n/a").

#include <Eigen/Core>

namespace geomint {

/// y <- y + (d + c) rounded, c <- the rounding error of that sum.
inline void compensated_add(double& y, double d, double& c) {
  const double corrected = d + c;
  const double s = y + corrected;
  const double d_part = s - y;  // TwoSum (Knuth, TAOCP vol. 2, 4.2.2)
  c = (y - (s - d_part)) + (corrected - d_part);
  y = s;
}

/// The same for each coefficient of the vectors (or blocks, e.g. q.col(i)) y, dy and c.
template <class Y, class D, class C>
  requires requires(Y& y) { y.coeffRef(Eigen::Index{0}); }  // an Eigen vector or block, not a double
void compensated_add(Y&& y, const D& dy, C&& c) {
  for (Eigen::Index k = 0; k < y.size(); ++k) compensated_add(y.coeffRef(k), dy.coeff(k), c.coeffRef(k));
}

/// A Lie group action that gives exp(xi) . y - y in closed form, to its own relative accuracy
/// (geometry/so3.hpp: expm1), so that an update exp(xi) . y can be summed compensated.
template <class G>
concept IncrementalAction = requires(const typename G::Algebra& xi, const typename G::Point& y,
                                     typename G::Point& dy) { G::exp_act_increment(xi, y, dy); };

/// An integrator that offers the option: compensate() turns it on for the rest of its run.
template <class I>
concept CompensatedUpdate = requires(I& i) { i.compensate(); };

}  // namespace geomint

#pragma once
// The seam between SundialsCore and a SUNDIALS integrator module (CVODE, ARKODE's ERKStep): the
// state the core keeps (SundialsSolver), and what a module plugs in (SundialsModule): the entry
// points in which the modules differ only by their prefix, as data, and hooks for what they do
// differently. Included only by reference/sundials_core.cpp, cvode.cpp and arkode.cpp: it
// includes SUNDIALS headers, which the public headers never do.

#include <sundials/sundials_context.h>
#include <sundials/sundials_nvector.h>

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "integrators/work.hpp"
#include "reference/sundials_support.hpp"

namespace geomint::detail {

/// A SUNDIALS function with the name the failure messages give it.
template <class Function>
struct Named {
  Function function;
  std::string_view name;
};

/// The entry points CVODE and ERKStep both have, with the same signatures and their own prefix,
/// and the return flags the core tells apart.
struct SundialsEntryPoints {
  Named<int (*)(void*, sunrealtype)> set_stop_time;
  Named<int (*)(void*, sunrealtype, N_Vector, sunrealtype*, int)> evolve;
  int one_step;  // evolve's task: one internal step
  Named<int (*)(void*, sunrealtype*)> get_last_step;
  int (*get_current_time)(void*, sunrealtype*);
  char* (*get_return_flag_name)(long);   // a string the caller must free
  int too_much_work;                     // -> TooMuchWork
  int too_much_accuracy, error_failure;  // -> StepSizeUnderflow
  bool restart_keeps_counters;           // false: a restart zeroes the module's counters
};

struct SundialsSolver;

/// What one module does differently. It owns its solver memory and the SUNDIALS objects
/// attached to it, and frees them before the core frees the N_Vector and the context.
class SundialsModule {
 public:
  explicit SundialsModule(const SundialsEntryPoints& entry_points) : entry_points_(entry_points) {}
  virtual ~SundialsModule() = default;
  SundialsModule(const SundialsModule&) = delete;
  SundialsModule& operator=(const SundialsModule&) = delete;

  const SundialsEntryPoints& entry_points() const { return entry_points_; }
  /// The solver memory; null until the module has created it.
  virtual void* memory() const = 0;
  /// Once, when the core has its context and N_Vector: what the module creates up front.
  virtual void create(SundialsSolver& s) = 0;
  /// The first step's set-up at (t, s.y).
  virtual void start(SundialsSolver& s, double t) = 0;
  /// Resumes at (t, s.y); `after_projection`: the core has projected the last step's result.
  virtual void restart(SundialsSolver& s, double t, bool after_projection) = 0;
  /// Adds the module's counters since its last (re)start to `work`.
  virtual void count(const SundialsSolver& s, Work& work) const = 0;
  /// True if the module projects inside its steps (through the record's callback), so the
  /// core must not project its results again.
  virtual bool projects_in_step() const = 0;

 private:
  const SundialsEntryPoints& entry_points_;
};

/// The state of one SundialsCore, which the modules' hooks act on.
struct SundialsSolver {
  SundialsSolver() = default;
  SundialsSolver(const SundialsSolver&) = delete;
  SundialsSolver& operator=(const SundialsSolver&) = delete;
  ~SundialsSolver();

  /// fail() unless flag >= 0.
  void check(int flag, std::string_view function) const;
  /// Throws the typed failure for a negative flag returned by `function`.
  [[noreturn]] void fail(long flag, std::string_view function) const;
  /// One of the module's counters, read by `getter` (a *GetNum* function).
  std::int64_t counter(int (*getter)(void*, long*), std::string_view function) const;

  std::string name;
  Eigen::Index n = 0;
  double rtol = 0.0, atol = 0.0;
  std::int64_t max_steps = 0;
  SUNContext context = nullptr;
  N_Vector y = nullptr;  // y0 on (re)start, then each step's result
  std::unique_ptr<SundialsModule> module;
  std::vector<double> unprojected;  // the core projects: a step's result before projection
  CallbackRecord record;

  bool started = false;
  bool projected = false;  // the core projected the last step's result
  double t = 0.0;
  Work base;  // counters of the runs before the last restart that zeroed the module's
  Work work;
};

}  // namespace geomint::detail

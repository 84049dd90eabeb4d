#include "studies/study_tables.hpp"

#include "studies/atomic_file.hpp"
#include "studies/claims.hpp"
#include "studies/reproduction.hpp"
#include "studies/result_files.hpp"
#include "studies/verdicts.hpp"

namespace geomint {

void write_study_tables(const std::filesystem::path& dir, const StudySpec& spec,
                        const std::vector<nlohmann::json>& records,
                        const std::map<std::string, ErrorScale>& error_scales) {
  std::string cases = cases_csv_header();
  for (const auto& r : records) cases += cases_csv_row(r);
  write_file_atomically(dir / "cases.csv", cases);
  const std::vector<PairConvergence> convergence = measure_convergence(spec, records, error_scales);
  write_file_atomically(dir / "orders.csv", orders_csv(spec.name, convergence));
  write_file_atomically(dir / "verdicts.csv", verdicts_csv(spec.name, judge_study(spec, records, convergence)));
  bool any_published = false, any_claims = false;
  for (const auto& ex : spec.experiments) {
    any_published |= !ex.published.empty();
    any_claims |= !ex.claims.empty();
  }
  if (any_published) write_file_atomically(dir / "reproduction.csv", reproduction_csv(spec, records));
  if (any_claims) write_file_atomically(dir / "claims.csv", claims_csv(spec, records));
}

}  // namespace geomint

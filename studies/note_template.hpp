#pragma once
// A reproduction note (a published row's `note`, reproduction.csv) is a template the engine fills
// from the row's case, so that every number in it is computed from the result, never typed:
//   {ours.M}        the case's value of M, a metric column of cases.csv (kNoteMetrics)
//   {published.M}   the published value of M, one of the row's published metrics
//   {ratio.M}       ours / published for M
//   {h} {rtol} {atol} {T}   the case's settings
// A note holds no number outside its placeholders (a digit that starts a word: names such as
// ode45 or e3 are words): a typed number would drift from the result.
// Numbers are written with four significant digits (a ratio with more where four would put it on
// the other side of a reproduction band's edge), counts (steps, f_evals) whole.

#include <functional>
#include <optional>
#include <set>
#include <string>

namespace geomint {

/// The columns of cases.csv a note may quote as {ours.M}.
extern const std::set<std::string> kNoteMetrics;

/// What is wrong with `note` as a template (an unclosed brace, an unknown placeholder, a typed
/// digit), or nothing; `published` are the row's published metrics.
std::optional<std::string> note_template_problem(const std::string& note, const std::set<std::string>& published);

/// The note with each placeholder replaced by its number: value(kind, name) with kind "ours",
/// "published", "ratio" or "setting" (name h, rtol, atol or T). Called only on a note without a
/// problem.
std::string expand_note(const std::string& note,
                        const std::function<double(const std::string& kind, const std::string& name)>& value);

}  // namespace geomint

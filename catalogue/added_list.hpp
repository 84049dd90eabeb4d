#pragma once
// A list of the catalogue that projects outside geomint add to while their program starts, from
// the static initialisers of their units (catalogue/add_integrator.hpp), and that geomint reads
// once it runs. Its first read fixes it: an item added after that would be missing from what was
// read (from a static initialiser that read the catalogue before every unit had added to it), so
// it is refused, loudly, rather than lost.

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace geomint {

template <class T>
class AddedList {
 public:
  void add(T item) {
    if (read_)
      throw std::logic_error("an integrator was added to geomint's catalogue after it was read");
    items_.push_back(std::move(item));
  }

  /// Whether an item already added satisfies `pred` (the list is not read, not fixed, by this).
  template <class Pred>
  bool contains(Pred pred) const {
    return std::any_of(items_.begin(), items_.end(), pred);
  }

  /// Everything added; the list is fixed from now on.
  const std::vector<T>& read() {
    read_ = true;
    return items_;
  }

 private:
  std::vector<T> items_;
  bool read_ = false;
};

/// `builtin` followed by `added` in the order of their names, `name_of` of each: units add to a
/// list at start-up in no defined order, and every list of the catalogue must come out the same in
/// every program. A name taken twice is a project's mistake, and refused.
template <class T, class NameOf>
std::vector<T> with_added(std::span<const T> builtin, std::vector<T> added, NameOf name_of) {
  std::sort(added.begin(), added.end(),
            [&](const T& a, const T& b) { return name_of(a) < name_of(b); });
  std::vector<T> out(builtin.begin(), builtin.end());
  for (const T& item : added) {
    const std::string_view name = name_of(item);
    if (std::any_of(out.begin(), out.end(), [&](const T& o) { return name_of(o) == name; }))
      throw std::logic_error("two integrators of geomint's catalogue are named '" +
                             std::string(name) + "'");
    out.push_back(item);
  }
  return out;
}

}  // namespace geomint

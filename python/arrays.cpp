#include "python/arrays.hpp"

#include <algorithm>
#include <string>

#include "errors/exit_status_errors.hpp"

namespace py = pybind11;

namespace geomint::python {

Eigen::VectorXd to_vector(const py::handle& values, const char* what) {
  using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const Array a = Array::ensure(values);  // empty, with the Python error cleared, if not numbers
  if (!a) throw InputError(std::string(what) + ": expected an array of numbers");
  if (a.ndim() != 1)
    throw InputError(std::string(what) + ": expected a 1-D array, got " + std::to_string(a.ndim()) +
                     " dimensions");
  return Eigen::Map<const Eigen::VectorXd>(a.data(), a.shape(0));
}

py::array_t<double> to_array(const Eigen::Ref<const Eigen::VectorXd>& v) {
  py::array_t<double> a(v.size());
  std::copy(v.data(), v.data() + v.size(), a.mutable_data());
  return a;
}

py::array_t<double> to_array(const std::vector<double>& values, py::ssize_t rows,
                             py::ssize_t columns) {
  py::array_t<double> a({rows, columns});
  std::copy(values.begin(), values.end(), a.mutable_data());
  return a;
}

}  // namespace geomint::python

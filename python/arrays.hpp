#pragma once
// Numbers between NumPy and Eigen, copied both ways: states and algebra elements are small, and a
// copy keeps the caller's array apart from the model's.

#include <pybind11/numpy.h>

#include <Eigen/Core>
#include <vector>

namespace geomint::python {

/// A 1-D array of numbers (a NumPy array, a list, ...) as a vector of doubles; anything else is
/// an InputError naming `what`.
Eigen::VectorXd to_vector(const pybind11::handle& values, const char* what);

/// A 1-D float64 array holding v.
pybind11::array_t<double> to_array(const Eigen::Ref<const Eigen::VectorXd>& v);

/// A rows x columns float64 array of `values`, row after row.
pybind11::array_t<double> to_array(const std::vector<double>& values, pybind11::ssize_t rows,
                                   pybind11::ssize_t columns);

}  // namespace geomint::python

#pragma once
// A study's series/ files, as the tests of its plots find them.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace geomint::testing {

/// The one file of DIR/series whose name ends with `suffix` (a failure if not exactly one).
inline std::filesystem::path series_file(const std::filesystem::path& dir, const std::string& suffix) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir / "series"))
    if (e.path().string().ends_with(suffix)) files.push_back(e.path());
  EXPECT_EQ(files.size(), 1u) << suffix;
  return files.empty() ? std::filesystem::path() : files[0];
}

}  // namespace geomint::testing

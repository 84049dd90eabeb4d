#pragma once
// A study's result folder as a run finds it: held by one process at a time, cleared of the
// temporary files killed runs left behind, and with a place to set damaged records aside.
//
// Two processes on one --out are refused: the second gets an InputError naming the first's
// pid. The lock is an flock(2) on DIR/.lock, which the kernel releases when its process ends,
// however it ends, so a killed run never leaves the folder locked.

#include <filesystem>
#include <optional>
#include <string>

namespace geomint {

class ResultFolder {
 public:
  /// Creates (or opens) the folder, takes its lock, removes stale temporary files and sets
  /// aside a file where one of its subfolders belongs. InputError if another process holds
  /// it; IoError if the path is a file or cannot be created.
  explicit ResultFolder(std::filesystem::path dir);
  ResultFolder(const ResultFolder&) = delete;
  ResultFolder& operator=(const ResultFolder&) = delete;
  ~ResultFolder();

  const std::filesystem::path& path() const { return dir_; }

  /// The whole text of a file of the folder, or nothing if there is no such file.
  std::optional<std::string> read(const std::filesystem::path& file) const;

  /// Moves a damaged file into DIR/damaged/ and says so on stderr, with the reason.
  void set_aside(const std::filesystem::path& file, const std::string& why) const;

 private:
  std::filesystem::path dir_;
  int lock_fd_ = -1;
};

}  // namespace geomint

#pragma once
// Writing a file so that no reader (and no later run) ever sees half of it: the text goes to
// PATH.tmp.<pid> and is renamed over PATH only when complete. A write that fails (disk full)
// throws IoError and removes the temporary file, leaving the previous PATH as it was; so does
// an AtomicFile destroyed before commit() (bad input found after it was opened). A path that
// is not a regular file (/dev/null, a terminal, a pipe) is written in place: it cannot be
// renamed over, and there is nothing to keep.

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace geomint {

class AtomicFile {
 public:
  /// Opens the temporary file next to `path` (its folder is created); IoError if it cannot.
  explicit AtomicFile(std::filesystem::path path);
  /// The process's standard output, written in place and checked like a file.
  static AtomicFile standard_output();
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  AtomicFile& operator=(AtomicFile&&) = delete;
  ~AtomicFile();

  /// IoError at the first write that fails (checked at once, not at close).
  void write(std::string_view text);
  /// Flushes, closes and renames over the path; IoError if any of it fails.
  void commit();
  /// Bytes written so far.
  std::size_t size() const { return size_; }

 private:
  AtomicFile() = default;
  void discard() noexcept;
  std::filesystem::path path_, tmp_;
  std::FILE* file_ = nullptr;
  bool in_place_ = false;
  bool owns_file_ = true;  // false for standard output, which stays open
  std::size_t size_ = 0;
};

/// `content` as the whole of `path`, atomically (AtomicFile).
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

/// Whether `name` is a temporary file of AtomicFile (NAME.tmp.<pid>) whose process no longer
/// runs: a kill left it behind.
bool is_stale_temporary(const std::string& name);

}  // namespace geomint

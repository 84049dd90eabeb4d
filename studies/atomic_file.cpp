#include "studies/atomic_file.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

#include "errors/exit_status_errors.hpp"

namespace geomint {

namespace fs = std::filesystem;

AtomicFile::AtomicFile(fs::path path) : path_(std::move(path)) {
  std::error_code ec;
  const auto status = fs::status(path_, ec);
  if (fs::is_directory(status)) throw IoError("cannot write " + path_.string() + ": it is a directory");
  in_place_ = fs::exists(status) && !fs::is_regular_file(status);
  if (!in_place_ && path_.has_parent_path()) {
    fs::create_directories(path_.parent_path(), ec);
    if (ec) throw IoError("cannot create the folder " + path_.parent_path().string() + ": " + ec.message());
  }
  tmp_ = in_place_ ? path_ : fs::path(path_.string() + ".tmp." + std::to_string(getpid()));
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw io_error("write", path_.string());
}

AtomicFile AtomicFile::standard_output() {
  AtomicFile out;
  out.path_ = "standard output";
  out.file_ = stdout;
  out.in_place_ = true;
  out.owns_file_ = false;
  return out;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      tmp_(std::move(other.tmp_)),
      file_(std::exchange(other.file_, nullptr)),
      in_place_(other.in_place_),
      owns_file_(other.owns_file_),
      size_(other.size_) {
  other.tmp_.clear();
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() noexcept {
  if (file_ && owns_file_) std::fclose(file_);
  file_ = nullptr;
  if (!in_place_ && !tmp_.empty()) {
    std::error_code ec;
    fs::remove(tmp_, ec);
  }
  tmp_.clear();
}

void AtomicFile::write(std::string_view text) {
  if (!file_) throw IoError("cannot write " + path_.string() + ": already closed");
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    const int error = errno;
    discard();
    throw io_error("write", path_.string(), error);
  }
  size_ += text.size();
}

void AtomicFile::commit() {
  if (!file_) throw IoError("cannot write " + path_.string() + ": already closed");
  const bool flushed = std::fflush(file_) == 0;
  int error = errno;
  const bool closed = !owns_file_ || std::fclose(file_) == 0;
  if (flushed) error = errno;
  file_ = nullptr;
  if (!flushed || !closed) {
    discard();
    throw io_error("write", path_.string(), error);
  }
  if (!in_place_ && std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    error = errno;
    discard();
    throw io_error("write", path_.string(), error);
  }
  tmp_.clear();
}

void write_file_atomically(const fs::path& path, std::string_view content) {
  AtomicFile file(path);
  file.write(content);
  file.commit();
}

bool is_stale_temporary(const std::string& name) {
  const auto dot = name.rfind(".tmp.");
  if (dot == std::string::npos || dot + 5 >= name.size()) return false;
  long pid = 0;
  for (std::size_t i = dot + 5; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || pid > 1'000'000'000) return false;
    pid = pid * 10 + (name[i] - '0');
  }
  return pid > 0 && pid != getpid() && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace geomint

#include "studies/result_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>

#include "errors/exit_status_errors.hpp"
#include "studies/atomic_file.hpp"

namespace geomint {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSubfolders[] = {"cases", "series", "references"};

/// Removes the temporary files of dead processes in the folder and its subfolders.
int remove_stale_temporaries(const fs::path& dir) {
  int removed = 0;
  std::error_code ec;
  for (const fs::path& d : {dir, dir / "cases", dir / "series", dir / "references"}) {
    // The subfolders themselves, not where a link would lead (the constructor set links aside).
    if (!fs::is_directory(d == dir ? fs::status(d, ec) : fs::symlink_status(d, ec))) continue;
    for (const auto& entry : fs::directory_iterator(d, ec))
      if (is_stale_temporary(entry.path().filename().string()) && fs::remove(entry.path(), ec)) ++removed;
  }
  return removed;
}

}  // namespace

ResultFolder::ResultFolder(fs::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    throw IoError("cannot write the folder " + dir_.string() + ": it is a file");
  fs::create_directories(dir_, ec);
  if (ec) throw IoError("cannot create the folder " + dir_.string() + ": " + ec.message());
  const fs::path lock = dir_ / ".lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw io_error("write", lock.string());
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    char holder[32] = {};
    const ssize_t n = pread(lock_fd_, holder, sizeof holder - 1, 0);
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw InputError("--out " + dir_.string() + " is in use by another geomint process" +
                     (n > 0 ? " (pid " + std::string(holder, static_cast<std::size_t>(n)) + ")" : std::string()) +
                     ": wait for it to finish, or choose another --out");
  }
  const std::string pid = std::to_string(getpid());
  if (ftruncate(lock_fd_, 0) != 0 || pwrite(lock_fd_, pid.data(), pid.size(), 0) < 0)
    throw io_error("write", lock.string());
  // A subfolder that is a link leads out of the result folder: the records, temporary files and
  // damaged files a rerun would read, remove or move are another folder's. The link is set
  // aside (moved, its target left alone) and the subfolder made anew.
  if (fs::is_symlink(fs::symlink_status(dir_ / "damaged", ec)))
    throw IoError("cannot use " + (dir_ / "damaged").string() + ": it is a link, and damaged records are moved there; remove it");
  for (const char* sub : kSubfolders) {
    const fs::path p = dir_ / sub;
    const auto status = fs::symlink_status(p, ec);
    if (fs::is_symlink(status))
      set_aside(p, "a link where a folder belongs; what it leads to is left alone");
    else if (fs::exists(status) && !fs::is_directory(status))
      set_aside(p, "a file where a folder belongs");
  }
  if (const int n = remove_stale_temporaries(dir_))
    std::fprintf(stderr, "geomint: %s: removed %d temporary file(s) that killed runs left behind\n",
                 dir_.c_str(), n);
}

ResultFolder::~ResultFolder() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock
}

std::optional<std::string> ResultFolder::read(const fs::path& file) const {
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  if (!fs::is_regular_file(file, ec)) return std::string();  // not a record: damaged
  std::ifstream in(file, std::ios::binary);
  if (!in) throw io_error("read", file.string());
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw io_error("read", file.string());
  return text.str();
}

void ResultFolder::set_aside(const fs::path& file, const std::string& why) const {
  const fs::path damaged = dir_ / "damaged";
  std::error_code ec;
  fs::create_directories(damaged, ec);
  if (ec) throw IoError("cannot create the folder " + damaged.string() + ": " + ec.message());
  const std::string stem = file.lexically_relative(dir_).string();  // of the path, not a link's target
  std::string name;
  for (char c : stem) name += c == '/' ? '_' : c;
  fs::path target = damaged / name;
  for (int k = 1; fs::exists(target, ec); ++k) target = damaged / (name + "." + std::to_string(k));
  fs::rename(file, target, ec);
  if (ec) throw IoError("cannot move " + file.string() + " to " + target.string() + ": " + ec.message());
  std::fprintf(stderr, "geomint: %s is damaged (%s): set aside as %s, recomputing\n", file.c_str(),
               why.c_str(), target.c_str());
}

}  // namespace geomint

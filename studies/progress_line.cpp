#include "studies/progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace geomint {

namespace {
bool is_terminal(std::FILE* out) { return isatty(fileno(out)) == 1; }

std::size_t terminal_width(std::FILE* out) {
  winsize size{};
  if (ioctl(fileno(out), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}
}  // namespace

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%ld s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%ld min %02ld s", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
  return buf;
}

ProgressLine::ProgressLine(std::size_t total, bool enabled, std::FILE* out)
    : out_(out), enabled_(enabled), terminal_(enabled && is_terminal(out)), total_(total) {}

ProgressLine::~ProgressLine() {
  if (line_open_) std::fputc('\n', out_);
}

void ProgressLine::finished(const std::string& line, const std::string& status, std::optional<double> ran_at) {
  const bool failed = status != "ok" && status != "n/a";
  ++done_;
  failed_ += failed;
  if (ran_at) {
    ++ran_;
    --pending_;
    expected_done_ += *ran_at;
    expected_left_ = std::max(0.0, expected_left_ - *ran_at);
  }
  if (!enabled_) return;
  if (!terminal_) {
    std::fprintf(out_, "%s %s\n", counts().c_str(), line.c_str());
    return;
  }
  if (failed) {  // a failure keeps a line of its own
    std::fprintf(out_, "\r\033[K%s\n", line.c_str());
    line_open_ = false;
  }
  print_in_place(line);
}

std::string ProgressLine::time_left() const {
  if (ran_ == 0 || expected_done_ <= 0.0) return "";
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const auto unscheduled = static_cast<double>(total_ - done_ - pending_);
  const double left = expected_left_ + unscheduled * expected_done_ / static_cast<double>(ran_);
  return "about " + duration_text(elapsed * left / expected_done_) + " left";
}

std::string ProgressLine::counts() const {
  char buf[64];
  const int width = static_cast<int>(std::to_string(total_).size());
  std::snprintf(buf, sizeof buf, "[%*zu/%zu] %zu failed", width, done_, total_, failed_);
  const std::string left = done_ < total_ ? time_left() : "";
  return std::string(buf) + (left.empty() ? "" : ", " + left) + " |";
}

/// "\r" and erase to the end of the line, then the counts and the last case, cut to the
/// terminal's width so that the line never wraps (a wrapped line cannot be rewritten).
void ProgressLine::print_in_place(const std::string& line) {
  std::string text = counts() + " " + line;
  const std::size_t width = terminal_width(out_);
  if (text.size() >= width) text.resize(width - 1);
  std::fprintf(out_, "\r\033[K%s", text.c_str());
  std::fflush(out_);
  line_open_ = true;
}

}  // namespace geomint

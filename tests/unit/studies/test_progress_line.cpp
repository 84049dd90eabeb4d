// The progress line (studies/progress_line.hpp): one line per case with the counts when not on
// a terminal; on a terminal (a pseudo-terminal here) one line rewritten in place, failures kept.
#include "studies/progress_line.hpp"

#include <gtest/gtest.h>
#include <pty.h>
#include <unistd.h>

#include <regex>
#include <string>

namespace geomint {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int ch = std::fgetc(f); ch != EOF; ch = std::fgetc(f)) text += static_cast<char>(ch);
  return text;
}

TEST(ProgressLine, OneLinePerCaseWithCountsWhenNotATerminal) {
  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  {
    ProgressLine progress(4, true, log);
    progress.finished("ex a h = 0.1: ok, resumed", "ok", std::nullopt);
    progress.expect(1.0);
    progress.expect(3.0);
    progress.finished("ex b h = 0.1: ok (0.50 s)", "ok", 1.0);
    progress.finished("ex c h = 0.1: NonFinite (0.10 s)", "NonFinite", 3.0);
  }
  const std::string text = contents(log);
  std::fclose(log);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find('\033'), std::string::npos);
  // Before any case ran there is no estimate; after one there is; with one case unscheduled
  // after the last there still is.
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(^\[1/4\] 0 failed \| ex a h = 0\.1: ok, resumed\n)"))) << text;
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(\n\[2/4\] 0 failed, about \d+ s left \| ex b h = 0\.1: ok \(0\.50 s\)\n)"))) << text;
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(\n\[3/4\] 1 failed, about \d+ s left \| ex c h = 0\.1: NonFinite \(0\.10 s\)\n$)"))) << text;
}

TEST(ProgressLine, TimeLeftScalesTheElapsedTimeByTheExpectedCostLeft) {
  ProgressLine progress(3, false);
  EXPECT_EQ(progress.time_left(), "");
  progress.expect(1.0);
  progress.expect(1.0);
  progress.expect(1e6);  // the estimate must see this case still to run
  usleep(20000);
  progress.finished("a", "ok", 1.0);
  const std::string left = progress.time_left();
  std::smatch m;
  ASSERT_TRUE(std::regex_match(left, m, std::regex(R"(about (\d+) h (\d+) min left)"))) << left;
  // (1e6 + 1) x elapsed (>= 20 ms): at least 5.5 h
  EXPECT_GE(std::stoi(m[1]) * 60 + std::stoi(m[2]), 5 * 60 + 30);
}

TEST(ProgressLine, RewritesOneLineInPlaceOnATerminalAndKeepsFailures) {
  int controller = -1, terminal = -1;
  winsize size{};
  size.ws_col = 60;
  size.ws_row = 24;
  ASSERT_EQ(openpty(&controller, &terminal, nullptr, nullptr, &size), 0);
  std::FILE* out = fdopen(terminal, "w");
  ASSERT_NE(out, nullptr);
  {
    ProgressLine progress(3, true, out);
    progress.expect(1.0);
    progress.expect(1.0);
    progress.expect(1.0);
    progress.finished("first: ok (0.10 s)", "ok", 1.0);
    progress.finished("second: StepUnderflow (0.10 s)", "StepUnderflow", 1.0);
    progress.finished("a case whose description is far longer than the sixty columns: ok", "ok", 1.0);
  }
  std::fclose(out);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(controller, buf, sizeof buf)) > 0;) {
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > 2 && text.substr(text.size() - 2) == "\r\n") break;  // the closing newline
  }
  close(controller);
  // The pty turns "\n" into "\r\n"; a line is rewritten with "\r", erase-to-end-of-line.
  EXPECT_NE(text.find("\r\033[K[1/3] 0 failed, about "), std::string::npos) << text;
  EXPECT_NE(text.find("\r\033[Ksecond: StepUnderflow (0.10 s)\r\n"), std::string::npos) << text;
  const std::size_t last = text.rfind("\r\033[K");
  ASSERT_NE(last, std::string::npos);
  const std::string final_line = text.substr(last + 4, text.size() - 2 - (last + 4));
  EXPECT_EQ(final_line.size(), 59u) << final_line;  // cut short of the terminal's width
  EXPECT_EQ(final_line.rfind("[3/3] 1 failed | a case", 0), 0u) << final_line;
}

}  // namespace
}  // namespace geomint

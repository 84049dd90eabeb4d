#include "cli/python_script.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "errors/exit_status_errors.hpp"
#include "studies/build_info.hpp"

namespace geomint::cli {

int run_report_script(const std::string& script, const std::vector<std::string>& arguments) {
  const std::string path = (std::filesystem::path(build_info::kSourceDir) / "reports" / script).string();
  if (!std::filesystem::exists(path)) throw InputError("report generator not found: " + path);
  std::vector<std::string> words = {build_info::kPython, "-B", path};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execv(build_info::kPython, argv.data());
    _exit(127);
  }
  if (pid < 0) throw IoError("cannot start " + path + ": out of processes");
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status))
    throw std::runtime_error(path + " was killed by signal " + std::to_string(WTERMSIG(status)));
  if (WEXITSTATUS(status) == 127) throw IoError(std::string("cannot run ") + build_info::kPython);
  return WEXITSTATUS(status);
}

}  // namespace geomint::cli

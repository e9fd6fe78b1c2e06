#include "bench/speed/child_process.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace abstracts::speed {

ChildUsage run_child(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::runtime_error("no command to run");
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("wait4: ") + std::strerror(errno));
  }
  ChildUsage out;
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.user_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
  out.sys_seconds = usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  out.max_rss_kb = usage.ru_maxrss;  // kilobytes on Linux
  out.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (out.exit_status == 127) throw std::runtime_error("cannot run " + argv[0]);
  return out;
}

std::uint64_t disk_usage(const std::filesystem::path& path) {
  auto blocks = [](const std::filesystem::path& p) -> std::uint64_t {
    struct stat st{};
    return lstat(p.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_blocks) * 512 : 0;
  };
  std::uint64_t total = blocks(path);
  if (std::filesystem::is_directory(path)) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(path)) total += blocks(e.path());
  }
  return total;
}

}  // namespace abstracts::speed

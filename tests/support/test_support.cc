#include "tests/support/test_support.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace abstracts::testing {

TempDir::TempDir() {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto candidate = std::filesystem::temp_directory_path() /
                     ("abstracts-test-" + std::to_string(rd()) + std::to_string(rd()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

SpawnArgs::SpawnArgs(const std::string& program, const std::vector<std::string>& args,
                     const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> merged;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) merged[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : env) {
    if (v == kUnset) {
      merged.erase(k);
    } else {
      merged[k] = v;
    }
  }
  for (const auto& [k, v] : merged) env_strings_.push_back(k + "=" + v);
  for (auto& s : env_strings_) envp_.push_back(s.data());
  envp_.push_back(nullptr);
  argv_strings_.push_back(program);
  argv_strings_.insert(argv_strings_.end(), args.begin(), args.end());
  for (auto& s : argv_strings_) argv_.push_back(s.data());
  argv_.push_back(nullptr);
}

namespace {

using Clock = std::chrono::steady_clock;

// Runs `program` as run() documents; with a deadline, kills it there.
RunResult run_until(const std::string& program, const std::vector<std::string>& args,
                    const std::map<std::string, std::string>& env,
                    const std::filesystem::path& cwd, const std::string& input,
                    std::optional<Clock::time_point> deadline) {
  SpawnArgs spawn_args(program, args, env);
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) {
    posix_spawn_file_actions_addclose(&actions, fd);
  }
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());

  pid_t pid;
  int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, spawn_args.argv(), spawn_args.envp());
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    throw std::runtime_error("cannot run " + program + ": " + std::strerror(rc));
  }

  RunResult result;
  size_t written = 0;
  if (input.empty()) {
    close(in_pipe[1]);
    in_pipe[1] = -1;
  } else {
    set_nonblocking(in_pipe[1]);
  }
  set_nonblocking(out_pipe[0]);
  set_nonblocking(err_pipe[0]);
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    std::vector<pollfd> fds;
    if (out_open) fds.push_back({out_pipe[0], POLLIN, 0});
    if (err_open) fds.push_back({err_pipe[0], POLLIN, 0});
    if (in_pipe[1] >= 0) fds.push_back({in_pipe[1], POLLOUT, 0});
    int wait_ms = -1;
    if (deadline) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      if (left <= 0) {
        // A child the program started may hold the pipes open: stop reading.
        kill(pid, SIGKILL);
        result.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left);
    }
    if (poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) break;
    for (const auto& p : fds) {
      if (p.revents == 0) continue;
      if (p.fd == in_pipe[1]) {
        ssize_t n = write(in_pipe[1], input.data() + written, input.size() - written);
        if (n > 0) written += static_cast<size_t>(n);
        if (n < 0 || written == input.size()) {
          close(in_pipe[1]);
          in_pipe[1] = -1;
        }
        continue;
      }
      ssize_t n = read(p.fd, buf, sizeof buf);
      if (n > 0) {
        (p.fd == out_pipe[0] ? result.out : result.err).append(buf, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        (p.fd == out_pipe[0] ? out_open : err_open) = false;
      }
    }
  }
  if (in_pipe[1] >= 0) close(in_pipe[1]);
  close(out_pipe[0]);
  close(err_pipe[0]);
  int wstatus = 0;
  struct rusage usage {};
  while (wait4(pid, &wstatus, 0, &usage) < 0 && errno == EINTR) {
  }
  result.peak_rss_kb = usage.ru_maxrss;
  result.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  return result;
}

}  // namespace

RunResult run(const std::string& program, const std::vector<std::string>& args,
              const std::map<std::string, std::string>& env,
              const std::filesystem::path& cwd, const std::string& input) {
  return run_until(program, args, env, cwd, input, std::nullopt);
}

RunResult run_with_limit(std::chrono::milliseconds limit, const std::string& program,
                         const std::vector<std::string>& args,
                         const std::map<std::string, std::string>& env,
                         const std::filesystem::path& cwd) {
  return run_until(program, args, env, cwd, {}, Clock::now() + limit);
}

RunResult run_abstracts(const std::vector<std::string>& args,
                        const std::map<std::string, std::string>& env,
                        const std::filesystem::path& cwd) {
  return run(ABSTRACTS_BIN, args, env, cwd);
}

void write_file(const std::filesystem::path& path, const std::string& content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::string::size_type start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    result.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return result;
}

std::map<std::string, std::string> sandbox_env(const std::filesystem::path& dir) {
  return {{"HOME", (dir / "home").string()},
          {"XDG_DATA_HOME", (dir / "xdg").string()},
          {"ABSTRACTS_INDEX", kUnset},
          {"ABSTRACTS_CORPUS", kUnset},
          {"NO_COLOR", kUnset}};
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) stop(SIGKILL);
}

int ChildProcess::stop(int signal) {
  int status = 0;
  if (pid_ <= 0) return status;
  kill(pid_, signal);
  waitpid(pid_, &status, 0);
  pid_ = 0;
  return status;
}

}  // namespace abstracts::testing

// Running a measured program as a child process: wall time, CPU time and peak
// memory from wait4(), and the disk size of what it wrote.
#ifndef ABSTRACTS_BENCH_SPEED_CHILD_PROCESS_H_
#define ABSTRACTS_BENCH_SPEED_CHILD_PROCESS_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace abstracts::speed {

struct ChildUsage {
  double wall_seconds = 0;  // fork to reaped exit
  double user_seconds = 0;
  double sys_seconds = 0;
  std::int64_t max_rss_kb = 0;  // the child's peak resident set (ru_maxrss)
  int exit_status = 0;          // exit code, or 128 + signal number
};

// Runs argv[0] (looked up in PATH) with `argv`, stdin from /dev/null, stdout
// and stderr inherited, and waits for it. Throws std::runtime_error when it
// cannot be started.
ChildUsage run_child(const std::vector<std::string>& argv);

// Bytes allocated on disk for `path` (a file, or a directory and everything in
// it), as `du` counts them: st_blocks * 512.
std::uint64_t disk_usage(const std::filesystem::path& path);

}  // namespace abstracts::speed

#endif  // ABSTRACTS_BENCH_SPEED_CHILD_PROCESS_H_

// Cluster files and shard settings (engine/cluster.h): what a line means, what
// is refused, and how ids spread over shards.
#include "engine/cluster.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "abstracts/error.h"
#include "tests/support/test_support.h"

namespace abstracts::cluster {
namespace {

using testing::TempDir;
using testing::write_file;

TEST(ShardSetting, ParsesKOfN) {
  struct Case {
    const char* text;
    bool valid;
    unsigned index, count;
  };
  const Case cases[] = {
      {"1/1", true, 1, 1},   {"2/3", true, 2, 3},  {"4096/4096", true, 4096, 4096},
      {"0/3", false, 0, 0},  {"4/3", false, 0, 0}, {"1/4097", false, 0, 0},
      {"1/", false, 0, 0},   {"/3", false, 0, 0},  {"a/b", false, 0, 0},
      {"1/3x", false, 0, 0}, {"-1/3", false, 0, 0}, {"", false, 0, 0},
  };
  for (const auto& c : cases) {
    const auto s = Shard::parse(c.text);
    ASSERT_EQ(s.has_value(), c.valid) << c.text;
    if (!c.valid) continue;
    EXPECT_EQ(s->index, c.index) << c.text;
    EXPECT_EQ(s->count, c.count) << c.text;
    EXPECT_EQ(to_string(*s), c.text);
  }
}

TEST(ShardSetting, IdsSpreadEvenlyAndStably) {
  std::map<unsigned, int> per_shard;
  for (int i = 0; i < 30000; ++i) ++per_shard[shard_of("2401." + std::to_string(10000 + i), 3)];
  ASSERT_EQ(per_shard.size(), 3u);
  for (const auto& [shard, n] : per_shard) {
    EXPECT_GE(shard, 1u);
    EXPECT_LE(shard, 3u);
    EXPECT_NEAR(n, 10000, 400) << "shard " << shard;
  }
  // The hash is part of the on-disk format: shards built by different
  // machines and versions must agree.
  EXPECT_EQ(shard_of("10.1103/physrevd.76.013009", 4), shard_of("10.1103/physrevd.76.013009", 4));
  EXPECT_EQ(shard_of("anything", 1), 1u);
}

TEST(ClusterFile, ReadsRemoteAndLocalShardsAndTheTimeout) {
  TempDir dir;
  write_file(dir / "c",
             "# a comment Xapian ignores\n"
             "# abstracts: timeout 2.5\n"
             "\n"
             "remote 10.0.0.1:33333\n"
             "  remote [::1]:4000  \n"
             "auto shard-3\n"
             "glass /srv/shard-4\n");
  const ClusterFile c = read_cluster_file(dir / "c");
  ASSERT_EQ(c.shards.size(), 4u);
  EXPECT_EQ(c.timeout.count(), 2500);
  EXPECT_EQ(c.shards[0].kind, Member::Kind::kRemote);
  EXPECT_EQ(c.shards[0].host, "10.0.0.1");
  EXPECT_EQ(c.shards[0].port, 33333u);
  EXPECT_EQ(c.shards[0].name(), "10.0.0.1:33333");
  EXPECT_EQ(c.shards[0].line, 4u);
  EXPECT_EQ(c.shards[1].host, "::1");
  EXPECT_EQ(c.shards[1].name(), "[::1]:4000");
  EXPECT_EQ(c.shards[2].kind, Member::Kind::kLocal);
  EXPECT_EQ(c.shards[2].path, std::filesystem::absolute(dir.path()) / "shard-3");
  EXPECT_EQ(c.shards[3].path, "/srv/shard-4");
  EXPECT_TRUE(is_cluster_file(dir / "c"));
  EXPECT_FALSE(is_cluster_file(dir.path()));
}

TEST(ClusterFile, TheDefaultTimeoutIsXapians) {
  TempDir dir;
  write_file(dir / "c", "remote h:1\n");
  EXPECT_EQ(read_cluster_file(dir / "c").timeout, ClusterFile::kDefaultTimeout);
}

TEST(ClusterFile, RefusesWhatIsNoShardNamingTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"remote :xapian-progsrv /srv/db\n", "runs a program"},
      {"remote host\n", "HOST:PORT"},
      {"remote host:0\n", "no port"},
      {"remote host:65536\n", "no port"},
      {"remote host:http\n", "no port"},
      {"inmemory\n", "is not a shard"},
      {"/srv/db\n", "is not a shard"},
      {"auto\n", "wants the path"},
      {"# abstracts: timeout 0\nremote h:1\n", "timeout"},
      {"# abstracts: timeout soon\nremote h:1\n", "timeout"},
      {"# abstracts: retries 3\nremote h:1\n", "unknown setting"},
  };
  for (const auto& [text, why] : cases) {
    TempDir dir;
    write_file(dir / "c", std::string("remote ok:1\n") + text);
    try {
      read_cluster_file(dir / "c");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const CorruptIndex& e) {
      EXPECT_TRUE(testing::contains(e.what(), (dir / "c").string() + ":2: ")) << e.what();
      EXPECT_TRUE(testing::contains(e.what(), why)) << e.what();
    }
  }
}

TEST(ClusterFile, AnyBytesMakeAShortPrintableError) {
  TempDir dir;
  const std::string hosts[] = {std::string(2'000'000, 'h'), std::string(300, 'a') + "\x1b[2J"};
  for (const auto& host : hosts) {
    write_file(dir / "c", "remote " + host + ":1\n");
    try {
      read_cluster_file(dir / "c");
      ADD_FAILURE() << "accepted a host of " << host.size() << " bytes";
    } catch (const CorruptIndex& e) {
      EXPECT_LT(std::string(e.what()).size(), 300u);
      EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos);
    }
  }
  using namespace std::string_literals;
  write_file(dir / "c", "remote 10.0.0.1:1\0\n"s);
  try {
    read_cluster_file(dir / "c");
    ADD_FAILURE() << "accepted a NUL byte";
  } catch (const CorruptIndex& e) {
    EXPECT_TRUE(testing::contains(e.what(), "\"1\\x00\" is no port")) << e.what();
  }
  write_file(dir / "c", std::string(5000, 'x') + "\x1b\n");
  try {
    read_cluster_file(dir / "c");
    ADD_FAILURE() << "accepted a line of junk";
  } catch (const CorruptIndex& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u) << e.what();
  }
}

TEST(ClusterFile, AnEmptyOrMissingFileIsAnError) {
  TempDir dir;
  write_file(dir / "c", "# only comments\n\n");
  EXPECT_THROW(read_cluster_file(dir / "c"), CorruptIndex);
  EXPECT_THROW(read_cluster_file(dir / "missing"), IndexNotFound);
}

}  // namespace
}  // namespace abstracts::cluster

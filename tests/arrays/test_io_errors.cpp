// Bad input to the HDF5 I/O: every case fails on every rank with a message naming the
// operation, the file and the cause; nothing is left half-written; HDF5 prints nothing.
#include <gtest/gtest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <pwd.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "armada/arrays/io.hpp"
#include "io_util.hpp"

extern char** environ;

namespace armada::arrays::test {
namespace {

using rma::InvalidArgument;
using rma::SystemError;

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class IoErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    ArrayOptions o;
    o.name = "A";
    o.ghosts = {1, 1};
    a = GlobalArray<double>::create({12, 10}, o);
    fill_io(a, 1);
    save(dir / "good.h5", {a});
  }
  void TearDown() override {
    if (a.valid()) a.destroy();
  }
  /// Rank 0 changes the file with `f` while the others wait.
  template <class F>
  void on_root(F&& f) {
    if (rma::rank() == 0) f();
    rma::barrier();
  }
  /// good.h5 still holds what SetUp saved.
  void expect_good_file_intact() {
    auto b = load_as<double>(dir / "good.h5", "A");
    expect_io_values(b, {12, 10}, {0, 0}, 1);
    b.destroy();
  }
  SharedDir dir;
  GlobalArray<double> a;
};

TEST_F(IoErrors, MissingFile) {
  expect_error<SystemError>([&] { (void)load(dir / "missing.h5", "A"); },
                            {"arrays::load", "missing.h5", "cannot be opened", "No such file"});
  expect_error<SystemError>([&] { load(dir / "missing.h5", "A", a); }, {"arrays::load", "missing.h5"});
  expect_error<SystemError>([&] { (void)list(dir / "missing.h5"); }, {"arrays::list", "missing.h5"});
}

TEST_F(IoErrors, NotAnHdf5File) {
  on_root([&] { std::ofstream(dir / "text.h5") << "just some text, not HDF5\n"; });
  expect_error<SystemError>([&] { (void)load(dir / "text.h5", "A"); }, {"arrays::load", "text.h5", "is not an HDF5 file"});
  expect_error<SystemError>([&] { (void)load(dir.path(), "A"); }, {"arrays::load", "is not a regular file"});
}

TEST_F(IoErrors, DatasetOfAnotherNameShapeOrType) {
  expect_error<InvalidArgument>([&] { (void)load(dir / "good.h5", "B"); },
                                {"arrays::load", "'name' = B", "has no dataset of this name (it has: A)"});
  ArrayOptions o;
  o.name = "other_shape";
  auto wrong_shape = GlobalArray<double>::create({10, 12}, o);
  fill(wrong_shape, 4.0);
  expect_error<InvalidArgument>([&] { load(dir / "good.h5", "A", wrong_shape); },
                                {"arrays::load", "extents [12, 10]", "the array dims [10, 12]"});
  o.name = "other_type";
  auto wrong_type = GlobalArray<float>::create({12, 10}, o);
  fill(wrong_type, 4.0f);
  expect_error<InvalidArgument>([&] { load(dir / "good.h5", "A", wrong_type); },
                                {"arrays::load", "holds double elements, the array float"});
  expect_error<InvalidArgument>([&] { load_patch(dir / "good.h5", "A", {0, 0}, {13, 10}, wrong_shape); },
                                {"arrays::load_patch", "[13, 10]", "not inside"});
  expect_error<InvalidArgument>([&] { (void)load_patch(dir / "good.h5", "A", {0}, {3}); },
                                {"arrays::load_patch", "'lo' = [0]", "one entry per dimension"});
  // Nothing was loaded into the arrays that did not match.
  for (double x : wrong_shape.get({0, 0}, {10, 12})) EXPECT_EQ(x, 4.0);
  for (float x : wrong_type.get({0, 0}, {12, 10})) EXPECT_EQ(x, 4.0f);
  wrong_shape.destroy();
  wrong_type.destroy();
}

TEST_F(IoErrors, TruncatedFile) {
  on_root([&] {
    std::filesystem::copy_file(dir / "good.h5", dir / "cut.h5");
    std::filesystem::resize_file(dir / "cut.h5", std::filesystem::file_size(dir / "cut.h5") / 2);
  });
  expect_error<SystemError>([&] { (void)load(dir / "cut.h5", "A"); }, {"arrays::load", "cut.h5", "truncated"});
}

// Overwrites `count` bytes at `offset` of a copy of good.h5 with 0x5a.
std::string corrupt_copy(const SharedDir& dir, const std::string& name, std::streamoff offset, std::size_t count) {
  const std::string path = dir / name;
  if (rma::rank() == 0) {
    std::filesystem::copy_file(dir / "good.h5", path);
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(offset);
    const std::string junk(count, '\x5a');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  rma::barrier();
  return path;
}

TEST_F(IoErrors, CorruptFile) {
  // The superblock after its signature (checksummed), then the root group's object header.
  const std::string super = corrupt_copy(dir, "bad_super.h5", 12, 20);
  expect_error<SystemError>([&] { (void)load(super, "A"); }, {"arrays::load", "bad_super.h5", "failed (HDF5:"});
  const std::string header = corrupt_copy(dir, "bad_header.h5", 60, 64);
  expect_error<SystemError>([&] { (void)load(header, "A"); }, {"arrays::load", "bad_header.h5", "failed (HDF5:"});
  const std::string signature = corrupt_copy(dir, "bad_signature.h5", 0, 8);
  expect_error<SystemError>([&] { (void)load(signature, "A"); }, {"arrays::load", "is not an HDF5 file"});
}

// The object header of dataset A (the file's second "OHDR": the root group's comes first) is
// damaged: its link in the root group is intact, so the dataset is there but cannot be read.
// That is corruption, not "no dataset of this name".
TEST_F(IoErrors, CorruptDatasetHeaderIsCorruption) {
  const std::string bytes = contents(dir / "good.h5");
  const std::size_t root = bytes.find("OHDR"), dataset = bytes.find("OHDR", root + 4);
  ASSERT_NE(dataset, std::string::npos) << "good.h5 has no second object header";
  const std::string bad = corrupt_copy(dir, "bad_dataset.h5", static_cast<std::streamoff>(dataset + 6), 16);
  expect_error<SystemError>([&] { (void)load(bad, "A"); },
                            {"arrays::load", "object 'A' of file", "bad_dataset.h5", "corrupt", "failed (HDF5:"});
  expect_error<SystemError>([&] { load(bad, "A", a); }, {"arrays::load", "object 'A'", "corrupt"});
  expect_error<SystemError>([&] { (void)list(bad); }, {"arrays::list", "object 'A'", "corrupt"});
  // No HDF5 file handle was left open: it would hold HDF5's lock and the save would fail.
  save(bad, {a});
  auto b = load_as<double>(bad, "A");
  expect_io_values(b, {12, 10}, {0, 0}, 1);
  b.destroy();
  expect_good_file_intact();
}

TEST_F(IoErrors, HdfPrintsNothing) {
  const std::string super = corrupt_copy(dir, "bad.h5", 12, 20);
  std::fflush(stderr);
  const std::string capture = dir / ("stderr." + std::to_string(rma::rank()));
  const int saved = dup(2);
  const int fd = ::open(capture.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  bool threw = false;
  try {
    (void)load(super, "A");
  } catch (const SystemError&) {
    threw = true;
  }
  std::fflush(stderr);
  dup2(saved, 2);
  ::close(saved);
  ::close(fd);
  EXPECT_TRUE(threw);
  std::ifstream in(capture);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().find("HDF5-DIAG"), std::string::npos) << "HDF5 printed its error stack:\n" << text.str();
}

TEST_F(IoErrors, ArgumentsDifferingBetweenRanks) {
  if (rma::size() < 2) GTEST_SKIP() << "needs 2 ranks to pass different arguments";
  const std::string mine = dir / ("f" + std::to_string(rma::rank()) + ".h5");
  expect_error<InvalidArgument>([&] { save(mine, {a}); }, {"arrays::save", "differs from group rank 0's value"});
  expect_error<InvalidArgument>([&] { (void)load(dir / "good.h5", rma::rank() ? "A" : "B"); }, {"arrays::load", "differs"});
  rma::barrier();
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"good.h5"});
}

TEST_F(IoErrors, BadArraySets) {
  auto twin = a.duplicate("A");
  expect_error<InvalidArgument>([&] { save(dir / "twins.h5", {a, twin}); }, {"arrays::save", "two arrays of one call have this name"});
  twin.set_name("x/y");
  expect_error<InvalidArgument>([&] { save(dir / "slash.h5", {twin}); }, {"arrays::save", "cannot name a dataset"});
  expect_error<InvalidArgument>([&] { save(dir / "none.h5", std::span<const Array>()); }, {"arrays::save", "at least one array"});
  expect_error<InvalidArgument>([&] { checkpoint(dir / "ck", -1, {a}); }, {"arrays::checkpoint", "'step' = -1"});
  twin.destroy();
  rma::barrier();
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"good.h5"});
}

// A file name without a directory (the working directory's): the save's own temporary file is
// not mistaken for another save's (the listing of "." spells it "./name").
TEST_F(IoErrors, RelativeFileName) {
  struct InDirectory {  // back to the working directory even when the save throws
    std::filesystem::path before = std::filesystem::current_path();
    explicit InDirectory(const std::string& d) { std::filesystem::current_path(d); }
    ~InDirectory() { std::filesystem::current_path(before); }
  };
  fill_io(a, 3);
  {
    InDirectory in(dir.path());
    save("relative.h5", {a});
    checkpoint("rel", 1, {a});
  }
  auto b = load_as<double>(dir / "relative.h5", "A");
  expect_io_values(b, {12, 10}, {0, 0}, 3);
  b.destroy();
  rma::barrier();
  EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"good.h5", "rel.1.h5", "relative.h5"}));
}

// A small tmpfs mounted by rank 0 in the shared directory; unmounted on destruction.
class SmallTmpfs {
 public:
  SmallTmpfs(const std::string& where, const char* options) : path_(where) {
    int error = 0;
    if (rma::rank() == 0) {
      std::filesystem::create_directory(path_);
      if (::mount("tmpfs", path_.c_str(), "tmpfs", 0, options) != 0) error = errno;
    }
    rma::broadcast(&error, sizeof error, 0);
    mounted_ = error == 0;
    reason_ = std::strerror(error);
  }
  ~SmallTmpfs() {
    rma::barrier();
    if (rma::rank() == 0 && mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& reason() const { return reason_; }
  std::string operator/(const std::string& f) const { return path_ + "/" + f; }
  const std::string& path() const { return path_; }

 private:
  std::string path_, reason_;
  bool mounted_ = false;
};

TEST_F(IoErrors, FullDisk) {
  SmallTmpfs fs(dir / "small", "size=1m");
  if (!fs.mounted()) GTEST_SKIP() << "cannot mount a 1 MiB tmpfs here (" << fs.reason() << "): needs root";
  ArrayOptions o;
  o.name = "big";
  auto big = GlobalArray<double>::create({400, 400}, o);  // 1.28 MB
  fill_io(big);
  expect_error<SystemError>([&] { save(fs / "big.h5", {big}); },
                            {"arrays::save", "big.h5", "needs about", "No space left on device"});
  // A file that fits still saves, and a failed save next to it leaves it alone.
  save(fs / "fits.h5", {a});
  expect_error<SystemError>([&] { save(fs / "fits.h5", {big}); }, {"arrays::save", "No space left on device"});
  auto b = load_as<double>(fs / "fits.h5", "A");
  expect_io_values(b, {12, 10}, {0, 0}, 1);
  rma::barrier();
  EXPECT_EQ(files_in(fs.path()), std::vector<std::string>{"fits.h5"});
  b.destroy();
  big.destroy();
}

TEST_F(IoErrors, NoInodeLeftToCreateTheFile) {
  SmallTmpfs fs(dir / "inodes", "size=1m,nr_inodes=3");
  if (!fs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << fs.reason() << "): needs root";
  // Use up the inodes (the root directory holds one).
  on_root([&] {
    for (int i = 0; i < 8; ++i) std::ofstream(fs / ("filler" + std::to_string(i)));
  });
  const auto before = files_in(fs.path());
  expect_error<SystemError>([&] { save(fs / "new.h5", {a}); }, {"arrays::save", "new.h5.armada-tmp", "No space left on device"});
  rma::barrier();
  EXPECT_EQ(files_in(fs.path()), before);
}

// The file would grow past the process's file size limit: reserving its space gets EFBIG
// (SIGXFSZ ignored) before any raw data is written, every rank fails, the old file stays.
TEST_F(IoErrors, FileSizeLimit) {
  ArrayOptions o;
  o.name = "A";
  auto big = GlobalArray<double>::create({300, 300}, o);
  fill_io(big, 2);
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  auto old_handler = signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 256 * 1024;
  setrlimit(RLIMIT_FSIZE, &small);
  expect_error<SystemError>([&] { save(dir / "good.h5", {big}); }, {"arrays::save", "good.h5.armada-tmp", "File too large"});
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, old_handler);
  rma::barrier();
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"good.h5"}) << "the temporary file was left behind";
  expect_good_file_intact();
  big.destroy();
}

// A process started by rank 0 (`argv`) that holds `path` open with an exclusive lock — flock(1),
// or h5py, which takes HDF5's lock — once our own shared lock attempt fails; ended on destruction.
class LockHolder {
 public:
  LockHolder(const std::string& path, std::vector<std::string> argv) {
    if (rma::rank() == 0) {
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      spawned_ = posix_spawnp(&pid_, args[0], nullptr, nullptr, args.data(), environ);
      locked_ = 0;
      for (int i = 0; spawned_ == 0 && i < 1000 && !locked_; ++i) {
        const int fd = ::open(path.c_str(), O_RDONLY);
        locked_ = fd >= 0 && ::flock(fd, LOCK_SH | LOCK_NB) != 0;
        if (fd >= 0) ::close(fd);
        if (!locked_) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    rma::broadcast(&spawned_, sizeof spawned_, 0);
    rma::broadcast(&locked_, sizeof locked_, 0);
  }
  ~LockHolder() {
    if (rma::rank() == 0 && spawned_ == 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    rma::barrier();
  }
  /// The process started and holds its lock.
  bool holding() const { return spawned_ == 0 && locked_; }

 private:
  pid_t pid_ = -1;
  int spawned_ = 0;
  int locked_ = 0;
};

std::vector<std::string> flock_command(const std::string& path) {
  return {"flock", "--exclusive", "--no-fork", path, "sleep", "60"};
}

TEST_F(IoErrors, FileHeldByAnotherProcess) {
  {
    LockHolder holder(dir / "good.h5", flock_command(dir / "good.h5"));
    ASSERT_TRUE(holder.holding()) << "flock(1) did not take the lock";
    expect_error<SystemError>([&] { (void)load(dir / "good.h5", "A"); }, {"arrays::load", "good.h5", "held by another process"});
    fill_io(a, 5);
    expect_error<SystemError>([&] { save(dir / "good.h5", {a}); }, {"arrays::save", "good.h5", "held by another process"});
  }
  expect_good_file_intact();
}

// Another job saving the same file holds its temporary file: this save fails and leaves it alone.
TEST_F(IoErrors, TwoSavesOfOneFile) {
  const std::string held = dir / "new.h5.armada-tmp.Ab3xY7q2";
  LockHolder holder(held, flock_command(held));
  ASSERT_TRUE(holder.holding()) << "flock(1) did not take the lock";
  expect_error<SystemError>([&] { save(dir / "new.h5", {a}); },
                            {"arrays::save", "new.h5.armada-tmp.Ab3xY7q2", "another save of the same file is writing it"});
  rma::barrier();
  EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"good.h5", "new.h5.armada-tmp.Ab3xY7q2"}));
}

// The same with HDF5's own lock: h5py holds the file open for writing.
TEST_F(IoErrors, FileOpenInH5py) {
  const char* python = getenv("ARMADA_TEST_H5PY_PYTHON");
  if (!python || !*python) GTEST_SKIP() << "no python3 with h5py was found at configure time (Debian: python3-h5py)";
  {
    LockHolder holder(dir / "good.h5",
                      {python, "-c", "import h5py, sys, time; f = h5py.File(sys.argv[1], 'r+'); time.sleep(60)",
                       dir / "good.h5"});
    ASSERT_TRUE(holder.holding()) << "h5py did not open the file";
    expect_error<SystemError>([&] { (void)load(dir / "good.h5", "A"); }, {"arrays::load", "held by another process"});
    fill_io(a, 6);
    expect_error<SystemError>([&] { save(dir / "good.h5", {a}); }, {"arrays::save", "held by another process"});
  }
  expect_good_file_intact();
}

// ---- another user of the machine -------------------------------------------------------------------
// A second user (created when absent; the test runs as root, as CI does) and a sticky,
// world-writable directory that user owns: like /tmp or a group project directory, and owned
// by that user so that neither fs.protected_symlinks nor fs.protected_regular (which only spare
// files of the directory's owner) stops the job from following that user's links.
class OtherUser {
 public:
  OtherUser(const SharedDir& dir) : shared_(dir / "shared") {
    int ok = 0;
    if (rma::rank() == 0 && ::geteuid() == 0) {
      if (!::getpwnam(kName)) std::system("useradd --system --no-create-home armada-io-other >/dev/null 2>&1");
      if (const passwd* pw = ::getpwnam(kName)) {
        uid_ = pw->pw_uid;
        gid_ = pw->pw_gid;
        std::filesystem::create_directory(shared_);
        ok = ::chown(shared_.c_str(), uid_, gid_) == 0 && ::chmod(shared_.c_str(), 01777) == 0 &&
             ::chmod(dir.path().c_str(), 0755) == 0;
      }
    }
    rma::broadcast(&ok, sizeof ok, 0);
    rma::broadcast(&uid_, sizeof uid_, 0);
    ok_ = ok;
  }
  /// False when not root (or the user could not be created): the caller skips.
  bool ready() const { return ok_; }
  std::string operator/(const std::string& f) const { return shared_ + "/" + f; }
  /// Rank 0 gives `path` (a file or a symlink it made) to the other user, with `mode` for files.
  void own(const std::string& path, mode_t mode = 0) const {
    EXPECT_EQ(::lchown(path.c_str(), uid_, gid_), 0) << path;
    if (mode) {
      EXPECT_EQ(::chmod(path.c_str(), mode), 0) << path;
    }
  }
  uid_t uid() const { return uid_; }
  static constexpr const char* kName = "armada-io-other";

 private:
  std::string shared_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  bool ok_ = false;
};

/// Sets the umask of every rank for its lifetime.
struct Umask {
  explicit Umask(mode_t m) : old(::umask(m)) {}
  ~Umask() { ::umask(old); }
  mode_t old;
};

struct stat lstat_of(const std::string& path) {
  struct stat st{};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st;
}

// (a) Symbolic links planted at temporary names (the old fixed one and one of the new form)
// point at a file of the job outside the directory: the save writes neither through them.
TEST_F(IoErrors, LinkPlantedAtTheTemporaryNameIsNotFollowed) {
  OtherUser other(dir);
  if (!other.ready()) GTEST_SKIP() << "needs root, to create a second user and plant files as that user";
  const std::string victim = dir / "victim", file = other / "out.h5";
  on_root([&] {
    std::ofstream(victim) << "the job's own data";
    ::chmod(victim.c_str(), 0600);
    for (const char* name : {"out.h5.armada-tmp", "out.h5.armada-tmp.planted"}) {
      ASSERT_EQ(::symlink(victim.c_str(), (other / name).c_str()), 0);
      other.own(other / name);
    }
  });
  save(file, {a});
  rma::barrier();
  EXPECT_TRUE(contents(victim) == "the job's own data") << "the save wrote through a planted link into " << victim;
  const struct stat st = lstat_of(file);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_uid, ::geteuid());
  EXPECT_TRUE(S_ISLNK(lstat_of(other / "out.h5.armada-tmp.planted").st_mode)) << "another user's file was removed";
  auto b = load_as<double>(file, "A");
  expect_io_values(b, {12, 10}, {0, 0}, 1);
  b.destroy();
  rma::barrier();
}

// (b) Files another user created (mode 666) at the temporary name, and the destination itself
// (a file that suits a save in place): the saved file is the job's, with the job's umask.
TEST_F(IoErrors, FileOfAnotherUserIsNeverWritten) {
  OtherUser other(dir);
  if (!other.ready()) GTEST_SKIP() << "needs root, to create a second user and plant files as that user";
  Umask umask(077);
  const std::string file = other / "out.h5", theirs = other / "theirs.h5";
  on_root([&] {
    for (const char* name : {"out.h5.armada-tmp", "out.h5.armada-tmp.planted"}) {
      std::ofstream(other / name) << "planted";
      other.own(other / name, 0666);
    }
    std::filesystem::copy_file(dir / "good.h5", theirs);
    other.own(theirs, 0666);
  });
  fill_io(a, 2);
  save(file, {a});
  save(theirs, {a}, SaveMode::in_place);
  rma::barrier();
  for (const std::string& f : {file, theirs}) {
    const struct stat st = lstat_of(f);
    EXPECT_EQ(st.st_uid, ::geteuid()) << f << " belongs to the user who planted it";
    EXPECT_EQ(st.st_mode & 0777, 0600u) << f << " does not follow the job's umask 077";
    auto b = load_as<double>(f, "A");
    expect_io_values(b, {12, 10}, {0, 0}, 2);
    b.destroy();
  }
  EXPECT_EQ(lstat_of(other / "out.h5.armada-tmp.planted").st_uid, other.uid()) << "another user's file was changed";
  rma::barrier();
}

// A checkpoint of a newer step planted by another user is refused by restart, naming the file
// and its owner; the job's own checkpoints are not taken in its place either.
TEST_F(IoErrors, CheckpointOfAnotherUserIsNotTaken) {
  OtherUser other(dir);
  if (!other.ready()) GTEST_SKIP() << "needs root, to create a second user and plant files as that user";
  const std::string prefix = other / "run";
  checkpoint(prefix, 10, {a});
  on_root([&] {
    std::filesystem::copy_file(prefix + ".10.h5", prefix + ".20.h5");
    other.own(prefix + ".20.h5", 0644);
  });
  fill_io(a, 7);
  std::vector<Array> set{a};
  expect_error<SystemError>([&] { (void)restart(prefix, set); },
                            {"arrays::restart", "run.20.h5", "belongs to user 'armada-io-other'", "not taken"});
  expect_error<SystemError>([&] { (void)latest_checkpoint(prefix); }, {"arrays::latest_checkpoint", "run.20.h5"});
  expect_io_values(a, {12, 10}, {0, 0}, 7);  // nothing was loaded
  // Nor is a newer step that is a link (to the job's own older checkpoint).
  on_root([&] {
    std::filesystem::remove(prefix + ".20.h5");
    ASSERT_EQ(::symlink((prefix + ".10.h5").c_str(), (prefix + ".30.h5").c_str()), 0);
    other.own(prefix + ".30.h5");
  });
  expect_error<SystemError>([&] { (void)restart(prefix, set); }, {"arrays::restart", "run.30.h5", "symbolic link"});
  rma::barrier();
}

}  // namespace
}  // namespace armada::arrays::test

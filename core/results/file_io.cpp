// The file-system steps of writing a result file (file_io.hpp).
#include "core/results/file_io.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

namespace mpiarena::fileio {

std::string reason(int err) { return std::strerror(err); }

std::string parent_of(const std::string& p) {
  const std::size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string base_of(const std::string& p) {
  const std::size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a named pipe";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// write(2) until done; false with errno set on failure.
bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

mode_t creation_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// pwrite(2) until done; false with errno set on failure.
bool pwrite_all(int fd, const char* data, std::size_t size, off_t at) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, at);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    at += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// A new file `target.tmp.XXXXXX`, its name in `name`; -1 with errno set on
// failure (nothing left behind).
int make_temporary(const std::string& target, std::string& name) {
  name = target + ".tmp.XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return -1;
  // A file replaced keeps its mode (a replacement once made it 0644).
  struct stat existing;
  const mode_t mode = ::stat(target.c_str(), &existing) == 0
                          ? existing.st_mode & 07777
                          : creation_mode();
  if (::fchmod(fd, mode) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(name.c_str());
    errno = err;
    return -1;
  }
  return fd;
}

// Whether `fd` is still the file called `name` (nobody replaced it).
bool still_named(int fd, const std::string& name) {
  struct stat open_file, named;
  return ::fstat(fd, &open_file) == 0 && ::lstat(name.c_str(), &named) == 0 &&
         S_ISREG(named.st_mode) && open_file.st_ino == named.st_ino &&
         open_file.st_dev == named.st_dev;
}

void sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

namespace {

// The pieces in a new temporary file next to `target`, its name in `tmp`;
// empty, or what failed (and no temporary file left).
std::string write_temporary(const std::string& target,
                            const std::string* const* pieces, std::size_t count,
                            bool durable, std::string& tmp) {
  const int fd = make_temporary(target, tmp);
  if (fd < 0)
    return "cannot create a temporary file in '" + parent_of(target) +
           "': " + reason(errno);
  auto fail = [&](const std::string& what, bool open) {
    const int err = errno;
    if (open) ::close(fd);
    ::unlink(tmp.c_str());
    return what + ": " + reason(err);
  };
  off_t at = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (!pwrite_all(fd, pieces[i]->data(), pieces[i]->size(), at))
      return fail("cannot write '" + tmp + "'", true);
    at += static_cast<off_t>(pieces[i]->size());
  }
  if (durable && ::fsync(fd) != 0)
    return fail("cannot sync '" + tmp + "'", true);
  if (::close(fd) != 0) return fail("cannot write '" + tmp + "'", false);
  return {};
}

}  // namespace

// Writes `pieces` to a new temporary file next to `target`, then renames it
// onto `target`. Empty on success, else what failed and the system's reason;
// the temporary file never survives a failure.
std::string replace_with(const std::string& target,
                         const std::string* const* pieces, std::size_t count,
                         bool durable) {
  std::string tmp;
  std::string error = write_temporary(target, pieces, count, durable, tmp);
  if (!error.empty()) return error;
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return "cannot rename '" + tmp + "' to '" + target + "': " + reason(err);
  }
  if (durable) sync_directory(parent_of(target));
  return {};
}

std::string replace_together(
    const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> tmps;
  auto drop = [&tmps](std::size_t from) {
    for (std::size_t i = from; i < tmps.size(); ++i) ::unlink(tmps[i].c_str());
  };
  for (const auto& [target, text] : files) {
    const std::string* pieces[] = {&text};
    std::string tmp;
    const std::string error = write_temporary(target, pieces, 1, false, tmp);
    if (!error.empty()) {
      drop(0);
      return error + (files.size() > 1 ? " (nothing was replaced)" : "");
    }
    tmps.push_back(tmp);
  }
  for (std::size_t i = 0; i < files.size(); ++i)
    if (::rename(tmps[i].c_str(), files[i].first.c_str()) != 0) {
      const int err = errno;
      drop(i);
      return "cannot rename '" + tmps[i] + "' to '" + files[i].first +
             "': " + reason(err) +
             (i ? " (the files before it in the list were replaced)" : "");
    }
  return {};
}

namespace {

// Two fixed buffers a signal handler may read: `g_set` says whether a slot
// holds a whole path (cleared before a copy, set after).
char g_remembered[2][4096];
volatile sig_atomic_t g_set[2] = {0, 0};

}  // namespace

void remember_for_interrupt(int slot, const std::string& path) {
  if (slot < 0 || slot > 1) return;
  g_set[slot] = 0;
  if (path.empty() || path.size() >= sizeof g_remembered[slot]) return;
  std::memcpy(g_remembered[slot], path.c_str(), path.size() + 1);
  g_set[slot] = 1;
}

void remove_remembered() noexcept {
  for (int slot = 0; slot < 2; ++slot)
    if (g_set[slot]) ::unlink(g_remembered[slot]);
}

// Removes `BASE.tmp.XXXXXX` files in `dir`: left by a run killed while
// writing the same target (its lock is ours now).
void remove_stale_temporaries(const std::string& target) {
  const std::string dir = parent_of(target);
  const std::string prefix = base_of(target) + ".tmp.";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() == prefix.size() + 6 && name.rfind(prefix, 0) == 0)
      ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

// The lock file `lock_path` opened and locked (flock, exclusive) for this
// run: its descriptor, or -1 with `error` saying why (another run holds
// it: which one, as the holder wrote it there).
int lock_exclusively(const std::string& lock_path, const std::string& path,
                     const std::string& prefix, std::string& error) {
  for (int attempt = 0;; ++attempt) {
    const int fd =
        ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      error = prefix + "cannot create the lock file '" + lock_path +
              "': " + reason(errno);
      return -1;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      std::string holder;
      if (err == EWOULDBLOCK) {
        char buf[256] = {0};
        const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
        holder = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
        while (!holder.empty() &&
               (holder.back() == '\n' || holder.back() == ' '))
          holder.pop_back();
      }
      ::close(fd);
      if (err != EWOULDBLOCK)
        error = prefix + "cannot lock '" + lock_path + "': " + reason(err);
      else
        error = "the output file '" + path + "' is in use by another run (" +
                (holder.empty() ? std::string("see ") + lock_path : holder) +
                "); wait for it to end or choose another -o";
      return -1;
    }
    // Locked; but the holder before us may have unlinked this file just
    // before we locked it, and a third run may have created a new one.
    struct stat mine, current;
    if (::fstat(fd, &mine) == 0 && ::stat(lock_path.c_str(), &current) == 0 &&
        mine.st_ino == current.st_ino && mine.st_dev == current.st_dev) {
      return fd;
    }
    ::close(fd);
    if (attempt == 100) {
      error = prefix + "cannot take the lock '" + lock_path + "'";
      return -1;
    }
  }
}

// A probe: create, fill, sync and remove a temporary file next to
// `target`, so that a full disk or a read-only directory shows before
// anything is measured. Empty, or why not.
std::string probe_directory(const std::string& target,
                            const std::string& prefix) {
  std::string probe = target + ".tmp.XXXXXX";
  const int fd = ::mkostemp(probe.data(), O_CLOEXEC);
  if (fd < 0)
    return prefix + "cannot create a file in '" + parent_of(target) +
           "': " + reason(errno);
  const std::string block(4096, ' ');
  std::string why;
  if (!write_all(fd, block.data(), block.size()) || ::fsync(fd) != 0)
    why = reason(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  if (!why.empty())
    return prefix + "cannot write to '" + parent_of(target) + "': " + why;
  return {};
}

// The pieces, one after the other, written to `fd` from byte `from` on (the
// bytes before it are right already); `at`: where they end.
bool write_pieces(int fd, const std::string* const* pieces, std::size_t count,
                  std::size_t from, off_t& at) {
  at = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string& piece = *pieces[i];
    const off_t end = at + static_cast<off_t>(piece.size());
    if (end > static_cast<off_t>(from)) {
      const std::size_t skip = at >= static_cast<off_t>(from)
                                   ? 0
                                   : from - static_cast<std::size_t>(at);
      if (!pwrite_all(fd, piece.data() + skip, piece.size() - skip,
                      at + static_cast<off_t>(skip)))
        return false;
    }
    at = end;
  }
  return true;
}

}  // namespace mpiarena::fileio

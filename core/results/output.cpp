#include "core/results/output.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/results/file_io.hpp"
#include "core/results/schema.hpp"
#include "core/results/text_file.hpp"

namespace mpiarena {

namespace {

using namespace fileio;  // NOLINT: the file helpers of file_io.hpp

// The document without records or skips, pretty-printed as to_json(doc)
// would be, split around its two empty arrays: `head` ends with
// `"records": [`, `middle` with `"skipped": [`. Empty when valid, else the
// violations.
std::vector<std::string> split_skeleton(const Document& doc, std::string& head,
                                        std::string& middle,
                                        std::string& tail) {
  Document shell;
  shell.context = doc.context;
  shell.complete = doc.complete;
  shell.summary = doc.summary;
  const nlohmann::json j = to_json(shell);
  std::vector<std::string> errors = validate_results(j);
  if (!errors.empty()) return errors;
  const std::string text = j.dump(1);
  // A raw newline and a one-space indent begin a top-level key only: string
  // values have their newlines escaped.
  const std::string records = "\n \"records\": []";
  const std::string skipped = "\n \"skipped\": []";
  const std::size_t r = text.find(records), s = text.find(skipped);
  if (r == std::string::npos || s == std::string::npos || s < r)
    return {"<root>: unexpected layout of the document"};
  const std::size_t r_end = r + records.size(), s_end = s + skipped.size();
  head = text.substr(0, r_end - 1);
  middle = text.substr(r_end, s_end - 1 - r_end);
  tail = text.substr(s_end) + "\n";
  return {};
}

// Appends `item` as the next element of an array at depth 1 of a
// dump(1) document: its lines indented by two more spaces.
void append_element(std::string& joined, const nlohmann::json& item) {
  if (!joined.empty()) joined += ",";
  joined += "\n  ";
  const std::string text = item.dump(1);
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos;
       from = nl + 1, nl = text.find('\n', from)) {
    joined.append(text, from, nl + 1 - from);
    joined += "  ";
  }
  joined.append(text, from, std::string::npos);
}

// "0444".
std::string octal_mode(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

const std::string& closing(const std::string& joined) {
  static const std::string empty = "]", full = "\n ]";
  return joined.empty() ? empty : full;
}

std::string invalid(const std::string& path, const std::string& where,
                    const std::vector<std::string>& errors) {
  std::string text = "refusing to write '" + path +
                     "': the document does not match the results schema:";
  for (std::string e : errors) {
    if (e.rfind("<root>", 0) == 0) e = "<root>" + where + e.substr(6);
    text += " " + e + ";";
  }
  text.pop_back();
  return text;
}

}  // namespace

bool resolve_output(const std::string& path, std::string& target,
                    std::string& error) {
  auto fail = [&](const std::string& why) {
    error = "cannot write the output file '" + path + "': " + why;
    return false;
  };
  const std::string accepted =
      "; -o takes a regular file, a new file in an existing directory, or a "
      "symbolic link to either";
  std::string p = path;
  for (int hop = 0; hop <= 40; ++hop) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT)
        return fail(p == path ? reason(errno)
                              : "'" + p + "': " + reason(errno));
      const std::string dir = parent_of(p);
      struct stat ds;
      if (::stat(dir.c_str(), &ds) != 0)
        return errno == ENOENT
                   ? fail("directory '" + dir + "' does not exist")
                   : fail("directory '" + dir + "': " + reason(errno));
      if (!S_ISDIR(ds.st_mode)) return fail("'" + dir + "' is not a directory");
      target = p;
      return true;
    }
    if (S_ISREG(st.st_mode)) {
      // Read-only for everyone: whoever made it so did not want it
      // replaced (root could; mpiarena does not).
      if ((st.st_mode & 0222) == 0)
        return fail((p == path
                         ? std::string("it")
                         : "'" + p + "', where its symbolic link points,") +
                    " is read-only (mode " + octal_mode(st.st_mode) +
                    "): not replaced; make it writable or remove it first");
      target = p;
      return true;
    }
    if (!S_ISLNK(st.st_mode))
      return fail((p == path ? std::string("it")
                             : "'" + p + "', where its symbolic link points,") +
                  " is " + kind_of(st.st_mode) + accepted);
    std::vector<char> link(PATH_MAX + 1);
    const ssize_t n = ::readlink(p.c_str(), link.data(), PATH_MAX);
    if (n < 0) return fail("'" + p + "': " + reason(errno));
    const std::string to(link.data(), static_cast<std::size_t>(n));
    p = to.front() == '/' ? to : parent_of(p) + "/" + to;
  }
  return fail("too many levels of symbolic links");
}

std::string replace_file(const std::string& target, const std::string& text,
                         bool durable) {
  const std::string* pieces[] = {&text};
  return replace_with(target, pieces, 1, durable);
}

ResultFile::~ResultFile() { release(); }

void ResultFile::drop_spare() {
  if (spare_.fd < 0) return;
  if (still_named(spare_.fd, spare_name_)) ::unlink(spare_name_.c_str());
  ::close(spare_.fd);
  spare_ = Version{};
  spare_name_.clear();
  remember_for_interrupt(1, "");
}

void ResultFile::release() {
  drop_spare();
  if (current_.fd >= 0) ::close(current_.fd);
  current_ = Version{};
  if (lock_fd_ < 0) return;
  // Unlinked while still locked: a run that opened it meanwhile sees that
  // its file is gone and retries (open below).
  remember_for_interrupt(0, "");
  ::unlink(lock_path_.c_str());
  ::close(lock_fd_);
  lock_fd_ = -1;
}

std::string ResultFile::open(const std::string& path) {
  release();
  path_ = path;
  std::string error;
  if (!resolve_output(path, target_, error)) return error;
  // A file-size limit (ulimit -f) must fail a write with EFBIG, reported
  // like any other write error, rather than kill the run with SIGXFSZ.
  struct sigaction old;
  if (::sigaction(SIGXFSZ, nullptr, &old) == 0 && old.sa_handler == SIG_DFL)
    std::signal(SIGXFSZ, SIG_IGN);
  const std::string prefix = "cannot write the output file '" + path + "': ";
  lock_path_ = target_ + ".lock";
  lock_fd_ = lock_exclusively(lock_path_, path, prefix, error);
  if (lock_fd_ < 0) return error;
  remember_for_interrupt(0, lock_path_);
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  const std::string owner = "pid " + std::to_string(::getpid()) + " on host " +
                            host + ", lock file " + lock_path_ + "\n";
  if (::ftruncate(lock_fd_, 0) != 0 ||
      ::pwrite(lock_fd_, owner.data(), owner.size(), 0) !=
          static_cast<ssize_t>(owner.size())) {
    const std::string why = reason(errno);
    release();
    return prefix + "cannot write the lock file '" + lock_path_ + "': " + why;
  }
  remove_stale_temporaries(target_);
  if (std::string why = probe_directory(target_, prefix); !why.empty()) {
    release();
    return why;
  }
  records_text_.clear();
  skipped_text_.clear();
  gzip_ = gzip_name(path);
  gz_head_text_.clear();
  gz_records_.clear();
  gz_covered_ = 0;
  skeleton_known_ = false;
  records_ = skipped_ = written_records_ = whole_writes_ = writes_ = 0;
  seconds_ = 0;
  ++generation_;
  can_exchange_ = true;
  return {};
}

std::string ResultFile::write(const Document& doc, bool final) {
  const auto start = std::chrono::steady_clock::now();
  const std::string error = write_timed(doc, final);
  ++writes_;
  seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return error;
}

std::string ResultFile::write_timed(const Document& doc, bool final) {
  if (lock_fd_ < 0) return "the output file is not open";
  // The rest of the document, serialised and validated again only when it
  // changed.
  if (!skeleton_known_ || doc.complete != shell_.complete ||
      doc.context != shell_.context || doc.summary != shell_.summary) {
    skeleton_known_ = false;
    const std::vector<std::string> errors =
        split_skeleton(doc, head_, middle_, tail_);
    if (!errors.empty()) return invalid(path_, "", errors);
    shell_.context = doc.context;
    shell_.complete = doc.complete;
    shell_.summary = doc.summary;
    skeleton_known_ = true;
  }
  if (final || doc.records.size() < records_ || doc.skipped.size() < skipped_) {
    records_text_.clear();
    skipped_text_.clear();
    records_ = skipped_ = 0;
    ++generation_;
  }
  // Serialise and validate what is new; a bad item stays out of the cache
  // and fails every write until the end.
  for (; records_ < doc.records.size(); ++records_) {
    const nlohmann::json j = to_json(doc.records[records_]);
    const std::vector<std::string> bad = validate_definition(j, "record");
    if (!bad.empty())
      return invalid(path_, "[records][" + std::to_string(records_) + "]", bad);
    append_element(records_text_, j);
  }
  for (; skipped_ < doc.skipped.size(); ++skipped_) {
    const nlohmann::json j = to_json(doc.skipped[skipped_]);
    const std::vector<std::string> bad = validate_definition(j, "skip");
    if (!bad.empty())
      return invalid(path_, "[skipped][" + std::to_string(skipped_) + "]", bad);
    append_element(skipped_text_, j);
  }
  const std::string* pieces[] = {
      &head_,   &records_text_, &closing(records_text_),
      &middle_, &skipped_text_, &closing(skipped_text_),
      &tail_};
  std::string error;
  if (gzip_) {
    try {
      compress(pieces);
    } catch (const std::exception& e) {
      return "cannot write the output file '" + path_ + "': " + e.what();
    }
    const std::string* members[] = {&gz_head_, &gz_records_, &gz_rest_};
    error = publish(members, 3, final);
  } else {
    error = publish(pieces, 7, final);
  }
  if (!error.empty())
    return "cannot write the output file '" + path_ + "': " + error;
  written_records_ = doc.records.size();
  if (final) drop_spare();  // the previous version
  return {};
}

// A .gz target holds gzip members one after the other (every reader reads
// them all, as gzip -d does): the head; the records, one member per write
// that added some, so that a write still costs O(new data) and the spare
// is still updated in place; and the rest. A rebuilt records_text_ (the
// final write) is compressed again as one member.
void ResultFile::compress(const std::string* const* pieces) {
  if (gz_generation_ != generation_) {
    gz_records_.clear();
    gz_covered_ = 0;
    gz_generation_ = generation_;
  }
  if (gz_head_text_ != head_ || gz_head_.empty()) {
    gz_head_ = gzip(head_);
    gz_head_text_ = head_;
  }
  if (records_text_.size() > gz_covered_) {
    gz_records_ += gzip(std::string_view(records_text_).substr(gz_covered_));
    gz_covered_ = records_text_.size();
  }
  std::string rest;
  for (int i = 2; i < 7; ++i) rest += *pieces[i];
  gz_rest_ = gzip(rest);
}

// pieces[0] is the head, pieces[1] records_text_ (or their gzip members).
std::string ResultFile::publish(const std::string* const* pieces,
                                std::size_t count, bool durable) {
  // The spare, updated in place when it still is ours, under its name, and
  // nobody else has it open: the lease fails while another process does,
  // and makes a process that opens it meanwhile wait until it is released.
  std::size_t from = 0;  // bytes of the spare already right
  bool leased = false;
  if (spare_.fd >= 0 && !still_named(spare_.fd, spare_name_)) drop_spare();
  if (spare_.fd >= 0) {
    leased = ::fcntl(spare_.fd, F_SETLEASE, F_WRLCK) == 0;
    if (!leased) drop_spare();
  }
  if (leased && spare_.generation == generation_ && spare_.head == *pieces[0] &&
      spare_.records_size <= pieces[1]->size())
    from = pieces[0]->size() + spare_.records_size;
  if (spare_.fd < 0) {
    spare_.fd = make_temporary(target_, spare_name_);
    if (spare_.fd < 0)
      return "cannot create a temporary file in '" + parent_of(target_) +
             "': " + reason(errno);
    remember_for_interrupt(1, spare_name_);
    // Lease breaks (another process opening the spare) signal SIGURG,
    // ignored by default, rather than SIGIO, which would end the run.
    ::fcntl(spare_.fd, F_SETSIG, SIGURG);
  }
  if (from == 0) ++whole_writes_;
  off_t at = 0;
  bool ok = write_pieces(spare_.fd, pieces, count, from, at);
  ok = ok && ::ftruncate(spare_.fd, at) == 0;
  ok = ok && (!durable || ::fsync(spare_.fd) == 0);
  const int err = errno;
  if (leased) ::fcntl(spare_.fd, F_SETLEASE, F_UNLCK);
  if (!ok) {
    const std::string what =
        "cannot write '" + spare_name_ + "': " + reason(err);
    drop_spare();
    return what;
  }
  spare_.head = *pieces[0];
  spare_.records_size = pieces[1]->size();
  spare_.generation = generation_;
  // Publish: swap the spare and the target (the old version becomes the
  // spare), or rename the spare onto the target.
  if (can_exchange_ && current_.fd >= 0 && still_named(current_.fd, target_)) {
    if (::renameat2(AT_FDCWD, spare_name_.c_str(), AT_FDCWD, target_.c_str(),
                    RENAME_EXCHANGE) == 0) {
      std::swap(current_, spare_);
      if (durable) sync_directory(parent_of(target_));
      return {};
    }
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
      const std::string what = "cannot exchange '" + spare_name_ + "' and '" +
                               target_ + "': " + reason(errno);
      drop_spare();
      return what;
    }
    can_exchange_ = false;  // this file system cannot
  }
  if (::rename(spare_name_.c_str(), target_.c_str()) != 0) {
    const std::string what = "cannot rename '" + spare_name_ + "' to '" +
                             target_ + "': " + reason(errno);
    drop_spare();
    return what;
  }
  if (current_.fd >= 0) ::close(current_.fd);
  current_ = spare_;
  spare_ = Version{};
  spare_name_.clear();
  remember_for_interrupt(1, "");
  if (durable) sync_directory(parent_of(target_));
  return {};
}

}  // namespace mpiarena

// The -o result file (docs/output.md): where it really is, the lock that
// keeps two runs from sharing it, and its atomic, validated rewrites.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/results/records.hpp"

namespace mpiarena {

// Where a write to `path` must go: `path` itself, or the end of its chain of
// symbolic links, which must be a regular file or not exist yet in an
// existing directory. Returns false and sets `error` (one line, what is wrong
// and what is accepted) otherwise.
bool resolve_output(const std::string& path, std::string& target,
                    std::string& error);

// Replaces `target` (a resolved path) with `text` atomically: a unique
// temporary file in the same directory, then rename. `durable`: fsync the
// file and its directory too. On failure, returns what failed with the
// system's reason, and leaves `target` as it was and no temporary file;
// empty on success.
std::string replace_file(const std::string& target, const std::string& text,
                         bool durable);

// The result file of one run, owned by rank 0 for the whole run.
//
// A target whose name ends in .gz gets gzip data (several members, which
// every reader and gzip -d read one after the other).
//
// Every write publishes a complete, valid document under the target's name
// in one atomic rename, so a reader or a kill never sees a partial file.
// It costs O(new data), not O(document): the previous version is kept as a
// spare file (TARGET.tmp.XXXXXX) that the next write brings up to date in
// place, then swaps with the target (renameat2 RENAME_EXCHANGE). The spare
// is updated in place only while no other process has it open (a write
// lease, F_SETLEASE); otherwise, or where the file system cannot exchange,
// a fresh temporary file is written whole and renamed, as write_results
// does.
class ResultFile {
 public:
  ResultFile() = default;
  ~ResultFile();
  ResultFile(const ResultFile&) = delete;
  ResultFile& operator=(const ResultFile&) = delete;

  // Resolves `path` (resolve_output), takes the lock `TARGET.lock` (which
  // names the pid and host of its holder), removes the temporary files a
  // killed run left for the same target, and checks that a file can be
  // written and synced there. Empty on success, else why not (one line, no
  // final period).
  std::string open(const std::string& path);

  // Writes the whole document. Each record and skip is validated against
  // its definition in the schema and serialised once, the first time it is
  // written; the rest of the document at every write. `final` serialises
  // everything again, syncs the file to disk and removes the spare. Records
  // and skips may only be appended between writes. Never throws for an I/O
  // error or an invalid document: returns the reason (the file then keeps
  // its last good write); empty on success.
  std::string write(const Document& doc, bool final = false);

  const std::string& path() const { return path_; }
  const std::string& target() const { return target_; }
  // Records in the last good write.
  std::size_t records_written() const { return written_records_; }
  // Writes that rewrote the whole file rather than updated the spare.
  std::size_t whole_writes() const { return whole_writes_; }
  // Calls to write() and the wall-clock seconds they took, in all: what
  // -o adds to the run (the other ranks wait for rank 0 at the next point).
  std::size_t writes() const { return writes_; }
  double seconds_writing() const { return seconds_; }

 private:
  // A file of ours and which text it holds.
  struct Version {
    int fd = -1;
    std::string head;              // the text before the records
    std::size_t records_size = 0;  // bytes of records_text_ after it
    std::uint64_t generation = 0;  // of records_text_
  };
  std::string write_timed(const Document& doc, bool final);
  void compress(const std::string* const* pieces);
  std::string publish(const std::string* const* pieces, std::size_t count,
                      bool durable);
  void drop_spare();
  void release();

  std::string path_, target_, lock_path_, spare_name_;
  int lock_fd_ = -1;
  Version current_, spare_;  // at target_, at spare_name_
  bool can_exchange_ = true;
  // Serialised records and skips, as they appear in the file: the first
  // records_ and skipped_ of the document, each preceded by ",\n  ".
  std::string records_text_, skipped_text_;
  std::size_t records_ = 0, skipped_ = 0;
  std::uint64_t generation_ = 0;  // bumped when records_text_ is rebuilt
  // The document without records or skips (shell_), as text around them.
  Document shell_;
  bool skeleton_known_ = false;
  std::string head_, middle_, tail_;
  // A target named *.gz: the document as gzip members (compress()), the
  // records' member(s) covering the first gz_covered_ bytes of
  // records_text_ of generation gz_generation_.
  bool gzip_ = false;
  std::string gz_head_text_, gz_head_, gz_records_, gz_rest_;
  std::size_t gz_covered_ = 0;
  std::uint64_t gz_generation_ = 0;
  std::size_t written_records_ = 0, whole_writes_ = 0, writes_ = 0;
  double seconds_ = 0;
};

}  // namespace mpiarena

// Internal: the file-system steps of writing a result file (output.cpp):
// paths, modes, writes that finish, temporary files renamed into place.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena::fileio {

// The system's words for errno `err`.
std::string reason(int err);

// The directory of `p` ("." for a bare name, "/" at the root).
std::string parent_of(const std::string& p);

// The last component of `p`.
std::string base_of(const std::string& p);

// What a file of `mode` is when it is not a regular file ("a directory").
const char* kind_of(mode_t mode);

// write(2) until done; false with errno set on failure.
bool write_all(int fd, const char* data, std::size_t size);

// The mode a new file gets: 0666 less the umask (read once).
mode_t creation_mode();

// pwrite(2) until done; false with errno set on failure.
bool pwrite_all(int fd, const char* data, std::size_t size, off_t at);

// A new file `target.tmp.XXXXXX`, its name in `name`, with the mode of
// `target` when it exists (a replaced file keeps its mode), else 0666 less
// the umask; -1 with errno set on failure (nothing left behind).
int make_temporary(const std::string& target, std::string& name);

// Whether `fd` is still the file called `name` (nobody replaced it).
bool still_named(int fd, const std::string& name);

// fsync(2) of a directory, so that a rename in it is durable; best effort.
void sync_directory(const std::string& dir);

// Writes `pieces` to a new temporary file next to `target`, then renames it
// onto `target`. Empty on success, else what failed and the system's reason;
// the temporary file never survives a failure.
std::string replace_with(const std::string& target,
                         const std::string* const* pieces, std::size_t count,
                         bool durable);

// Several files replaced together (runner tune's FILE and FILE.md): every
// temporary file written first, then each renamed into place, so that a
// file that cannot be written (a full disk, a name too long for its
// temporary) leaves every target as it was. Empty, or what failed.
std::string replace_together(
    const std::vector<std::pair<std::string, std::string>>& files);

// The files an interrupted process removes (the -o file's lock and spare):
// `slot` 0 or 1 holds `path`, "" empties it. remove_remembered() unlinks
// them and is async-signal-safe: a SIGINT/SIGTERM handler calls it
// (core/engine/interrupt.cpp), so that a run stopped by mpirun's Ctrl-C
// leaves no TARGET.lock or TARGET.tmp.XXXXXX beside its results.
void remember_for_interrupt(int slot, const std::string& path);
void remove_remembered() noexcept;

// Removes `BASE.tmp.XXXXXX` files in `dir`: left by a run killed while
// writing the same target (its lock is ours now).
void remove_stale_temporaries(const std::string& target);

// The lock file `lock_path` (of the output `path`) opened and locked
// (flock, exclusive): its descriptor, or -1 with `error` saying why, after
// `prefix` (another run holds it: which one, as the holder wrote it there).
int lock_exclusively(const std::string& lock_path, const std::string& path,
                     const std::string& prefix, std::string& error);

// A probe: create, fill, sync and remove a temporary file next to
// `target`, so that a full disk or a read-only directory shows before
// anything is measured. Empty, or why not (after `prefix`).
std::string probe_directory(const std::string& target,
                            const std::string& prefix);

// The pieces, one after the other, written to `fd` from byte `from` on (the
// bytes before it are right already); `at`: where they end.
bool write_pieces(int fd, const std::string* const* pieces, std::size_t count,
                  std::size_t from, off_t& at);

}  // namespace mpiarena::fileio

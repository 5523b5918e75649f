// Page-aligned buffers for the data a method moves.
//
// Where a buffer starts matters to MPI: on this VM, MPI_Allreduce of 64 KiB
// (Open MPI 4.1, ring algorithm, 2 ranks) took 2.5x longer from two
// std::vector<int> (16-byte aligned, wherever the heap put them) than from
// page-aligned buffers, the only change (docs/results/reference.md,
// osu_allreduce). OSU aligns every buffer to the page; so does mpiarena,
// so that a figure never depends on where malloc happened to put the data.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace mpiarena {

inline constexpr std::size_t kPageAlign = 4096;

template <class T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) {}
  T* allocate(std::size_t n) {
    void* p = nullptr;
    const std::size_t bytes = n * sizeof(T);
    if (posix_memalign(&p, kPageAlign, bytes ? bytes : 1) != 0)
      throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) { std::free(p); }
  template <class U>
  bool operator==(const PageAllocator<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const PageAllocator<U>&) const {
    return false;
  }
};

// A std::vector whose data starts on a page boundary.
template <class T>
using PageVector = std::vector<T, PageAllocator<T>>;
// The ints the collective and overlap suites move.
using Ints = PageVector<int>;

}  // namespace mpiarena

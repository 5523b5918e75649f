// The rma suite's base (rma.hpp).
#include <cstdlib>
#include <cstring>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <mpiarena/rma.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/sdk/suite_info.hpp"

namespace mpiarena {

namespace {

constexpr std::size_t kSlotAlign = 64;

bool elementwise(RmaOp op) { return op != RmaOp::put && op != RmaOp::get; }
bool has_result(RmaOp op) {
  return op != RmaOp::put && op != RmaOp::accumulate;
}

// Element i of the origin's data for slot k, and of the target's start.
std::uint64_t data_value(int k, std::size_t i) {
  const std::size_t row = 11 + static_cast<std::size_t>(k);
  return (static_cast<std::uint64_t>(
              static_cast<std::uint32_t>(payload_value(row, i)))
          << 32) |
         static_cast<std::uint32_t>(payload_value(row + 1000003, i));
}
std::uint64_t start_value(int k, std::size_t i) {
  return ~data_value(k + 500009, i);
}

std::string where(int k, std::size_t i) {
  return "slot " + std::to_string(k) + ", element " + std::to_string(i);
}

}  // namespace

bool RmaStrategy::is_origin() const {
  return pair_member(ctx_) && (both_ways_ || pair_initiator(ctx_));
}
bool RmaStrategy::is_target() const {
  return pair_member(ctx_) && (both_ways_ || !pair_initiator(ctx_));
}

int RmaStrategy::count() const {
  return static_cast<int>(elementwise(op_) ? bytes() / 8 : bytes());
}

void RmaStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  if (rma_single_element(op_) && bytes() != 8)
    throw SkipPoint(std::string(rma_op_name(op_)) +
                    " moves one 8-byte element (MPI_UINT64_T), not " +
                    std::to_string(bytes()) + " bytes");
  if (elementwise(op_) && (bytes() == 0 || bytes() % 8 != 0))
    throw SkipPoint(std::string(rma_op_name(op_)) +
                    " adds 8-byte integers (MPI_UINT64_T, MPI_SUM): the size "
                    "must be a positive multiple of 8 bytes, got " +
                    std::to_string(bytes()));
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
  // Every rank alike (the environment is the launch's).
  if (op_ == RmaOp::compare_and_swap && ctx.payload == "allocate" &&
      !std::getenv("OMPI_MCA_osc"))
    throw SkipPoint(
        "Open MPI 4's default one-sided component (osc rdma) crashes the "
        "target in MPI_Compare_and_swap on MPI_Win_allocate windows over "
        "shared memory (open-mpi/ompi#11349 and #7967; osu_cas_latency "
        "crashes alike), so it is not run; to measure it, choose the "
        "component: mpirun --mca osc ucx,sm (or pt2pt,sm)");
#endif
  stride_ = (std::max<std::size_t>(bytes(), 1) + kSlotAlign - 1) / kSlotAlign *
            kSlotAlign;
  const std::size_t all = stride_ * static_cast<std::size_t>(ops());
  if (is_origin() && op_ != RmaOp::get) {
    origin_.allocate(all);
    for (int k = 0; k < ops(); ++k) {
      unsigned char* o = at(origin_, k);
      if (!elementwise(op_)) {
        fill_bytes(o, bytes(), static_cast<std::size_t>(k) * bytes());
      } else {
        for (std::size_t i = 0; i < bytes() / 8; ++i) {
          const std::uint64_t v = data_value(k, i);
          std::memcpy(o + 8 * i, &v, 8);
        }
      }
    }
  }
  if (is_origin() && has_result(op_)) {
    result_.allocate(all);
    std::memset(result_.data(), kPoisonByte, all);
  }
  if (is_origin()) {
    if (op_ == RmaOp::compare_and_swap) {
      compare_.allocate(all);
      for (int k = 0; k < ops(); ++k) {
        const std::uint64_t v = start_value(k, 0);
        std::memcpy(at(compare_, k), &v, 8);
      }
    }
  }
  create_window();
  if (sync_ == RmaSync::pscw) {
    MPI_Group all_group = MPI_GROUP_NULL;
    MPIARENA_CHECK(MPI_Comm_group(ctx_.comm, &all_group));
    const int peer = pair_peer(ctx_);
    if (pair_member(ctx_))
      MPIARENA_CHECK(MPI_Group_incl(all_group, 1, &peer, &peer_group_));
    MPIARENA_CHECK(MPI_Group_free(&all_group));
  }
  if (sync_ == RmaSync::flush || sync_ == RmaSync::flush_local) {
    // Shared locks only, never an exclusive one: MPI_MODE_NOCHECK is valid.
    MPIARENA_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_));
    lock_all_ = true;
  }
  target_start();
}

void RmaStrategy::create_window() {
  const std::size_t all =
      is_target() ? stride_ * static_cast<std::size_t>(ops()) : 0;
  const std::string& kind = ctx_.payload;
  if (kind == "allocate") {
    MPIARENA_CHECK(MPI_Win_allocate(static_cast<MPI_Aint>(all), 1,
                                    MPI_INFO_NULL, ctx_.comm, &mem_, &win_));
  } else if (kind == "create") {
    if (all) own_.allocate(all);
    mem_ = own_.data();
    MPIARENA_CHECK(MPI_Win_create(mem_, static_cast<MPI_Aint>(all), 1,
                                  MPI_INFO_NULL, ctx_.comm, &win_));
  } else if (kind == "dynamic") {
    MPIARENA_CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, ctx_.comm, &win_));
    MPI_Aint mine = 0;
    if (all) {
      own_.allocate(all);
      mem_ = own_.data();
      MPIARENA_CHECK(MPI_Win_attach(win_, mem_, static_cast<MPI_Aint>(all)));
      MPIARENA_CHECK(MPI_Get_address(mem_, &mine));
    }
    std::vector<MPI_Aint> addresses(static_cast<std::size_t>(ctx_.size));
    MPIARENA_CHECK(MPI_Allgather(&mine, 1, MPI_AINT, addresses.data(), 1,
                                 MPI_AINT, ctx_.comm));
    if (is_origin()) base_disp_ = addresses[static_cast<std::size_t>(target())];
  } else {
    throw std::invalid_argument("rma: unknown window kind '" + kind +
                                "' (allocate, create, dynamic)");
  }
}

// The target's start values, written under the synchronisation's rules
// for local stores to window memory; collective (every rank calls it).
void RmaStrategy::target_start() {
  auto store = [&] {
    if (!is_target()) return;
    for (int k = 0; k < ops(); ++k) {
      unsigned char* s = slot(k);
      if (op_ == RmaOp::get) {
        fill_bytes(s, bytes(), static_cast<std::size_t>(k) * bytes());
      } else if (op_ == RmaOp::put) {
        std::memset(s, kPoisonByte, bytes());
      } else {
        for (std::size_t i = 0; i < bytes() / 8; ++i) {
          const std::uint64_t v = start_value(k, i);
          std::memcpy(s + 8 * i, &v, 8);
        }
      }
    }
  };
  switch (sync_) {
    case RmaSync::fence:
      store();
      MPIARENA_CHECK(MPI_Win_fence(0, win_));
      return;
    case RmaSync::lock:
      if (is_target()) {
        MPIARENA_CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, ctx_.rank, 0, win_));
        store();
        MPIARENA_CHECK(MPI_Win_unlock(ctx_.rank, win_));
      }
      break;
    case RmaSync::flush:
    case RmaSync::flush_local:
      store();
      MPIARENA_CHECK(MPI_Win_sync(win_));
      break;
    case RmaSync::pscw:
      store();
      break;
  }
  MPIARENA_CHECK(MPI_Barrier(ctx_.comm));
}

void RmaStrategy::execute() {
  const bool origin = is_origin(), target = is_target();
  const bool pscw = sync_ == RmaSync::pscw;
  // A target posts before it starts its own epoch as an origin (OSU's
  // osu_put_bibw order), and waits after completing it.
  if (target && pscw) MPIARENA_CHECK(MPI_Win_post(peer_group_, 0, win_));
  if (origin) {
    const int t = pair_peer(ctx_);
    if (sync_ == RmaSync::lock)
      MPIARENA_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win_));
    else if (pscw)
      MPIARENA_CHECK(MPI_Win_start(peer_group_, 0, win_));
    for (int k = 0; k < ops(); ++k) issue(k);
    switch (sync_) {
      case RmaSync::lock:
        MPIARENA_CHECK(MPI_Win_unlock(t, win_));
        break;
      case RmaSync::flush:
        MPIARENA_CHECK(MPI_Win_flush(t, win_));
        break;
      case RmaSync::flush_local:
        MPIARENA_CHECK(MPI_Win_flush_local(t, win_));
        break;
      case RmaSync::pscw:
        MPIARENA_CHECK(MPI_Win_complete(win_));
        break;
      case RmaSync::fence:
        break;
    }
  }
  if (target && pscw) MPIARENA_CHECK(MPI_Win_wait(win_));
  if (sync_ == RmaSync::fence) MPIARENA_CHECK(MPI_Win_fence(0, win_));
}

void RmaStrategy::poison() {
  if (result_.size()) std::memset(result_.data(), kPoisonByte, result_.size());
  target_start();
}

// Collective. The target reads its window after the origin's operations
// are complete there: under flush_local an untimed MPI_Win_flush first.
void RmaStrategy::target_complete() {
  if (is_origin() && sync_ == RmaSync::flush_local)
    MPIARENA_CHECK(MPI_Win_flush(pair_peer(ctx_), win_));
  MPIARENA_CHECK(MPI_Barrier(ctx_.comm));
  if (is_target() && lock_all_) MPIARENA_CHECK(MPI_Win_sync(win_));
}

std::string RmaStrategy::check_target() {
  for (int k = 0; k < ops(); ++k) {
    const unsigned char* s = slot(k);
    if (!elementwise(op_)) {
      if (std::string e =
              check_bytes(s, bytes(), static_cast<std::size_t>(k) * bytes());
          !e.empty())
        return "the target's slot " + std::to_string(k) + ": " + e;
      continue;
    }
    for (std::size_t i = 0; i < bytes() / 8; ++i) {
      std::uint64_t got = 0;
      std::memcpy(&got, s + 8 * i, 8);
      const std::uint64_t want = op_ == RmaOp::compare_and_swap
                                     ? data_value(k, i)
                                     : start_value(k, i) + data_value(k, i);
      if (got != want)
        return "the target's " + where(k, i) + " holds " + std::to_string(got) +
               ", expected " + std::to_string(want) +
               (got == start_value(k, i) ? " (the operation never arrived)"
                                         : "");
    }
  }
  return {};
}

std::string RmaStrategy::check_result() {
  for (int k = 0; k < ops(); ++k) {
    const unsigned char* r = at(result_, k);
    if (op_ == RmaOp::get) {
      if (std::string e =
              check_bytes(r, bytes(), static_cast<std::size_t>(k) * bytes());
          !e.empty())
        return "the origin's result " + std::to_string(k) + ": " + e;
      continue;
    }
    for (std::size_t i = 0; i < bytes() / 8; ++i) {
      std::uint64_t got = 0;
      std::memcpy(&got, r + 8 * i, 8);
      if (got != start_value(k, i))
        return "the origin's fetched " + where(k, i) + " is " +
               std::to_string(got) +
               ", expected the target's value before "
               "the operation, " +
               std::to_string(start_value(k, i));
    }
  }
  return {};
}

Verdict RmaStrategy::verify() {
  target_complete();
  std::string e;
  if (is_target() && op_ != RmaOp::get) {
    if (sync_ == RmaSync::lock)
      MPIARENA_CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, ctx_.rank, 0, win_));
    e = check_target();
    if (sync_ == RmaSync::lock) MPIARENA_CHECK(MPI_Win_unlock(ctx_.rank, win_));
  }
  if (e.empty() && is_origin() && has_result(op_)) e = check_result();
  if (is_origin() && e.empty() && op_ == RmaOp::put)
    for (int k = 0; k < ops() && e.empty(); ++k)
      if (std::string s = check_bytes(at(origin_, k), bytes(),
                                      static_cast<std::size_t>(k) * bytes());
          !s.empty())
        e = "the origin's data " + std::to_string(k) + " changed: " + s;
  return {e.empty(), e};
}

void RmaStrategy::release() {
  if (win_ != MPI_WIN_NULL) {
    if (lock_all_) MPIARENA_CHECK(MPI_Win_unlock_all(win_));
    lock_all_ = false;
    if (ctx_.payload == "dynamic" && own_.size())
      MPIARENA_CHECK(MPI_Win_detach(win_, mem_));
    MPIARENA_CHECK(MPI_Win_free(&win_));
  }
  if (peer_group_ != MPI_GROUP_NULL)
    MPIARENA_CHECK(MPI_Group_free(&peer_group_));
  own_.reset();
  origin_.reset();
  result_.reset();
  compare_.reset();
  mem_ = nullptr;
}

}  // namespace mpiarena

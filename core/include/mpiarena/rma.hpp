// Base class of the rma suite: one-sided communication between the two
// ranks of a pair, for every operation, synchronisation and kind of window
// (OSU's one-sided benchmarks as one matrix; docs/methods.md#rma).
//
// Pairs as in the ping-pong suite (pingpong.hpp): (0, 1), or with
// RunContext::all_pairs every disjoint (2k, 2k+1); the even rank is the
// origin, the odd rank the target, the last rank of an odd count is idle
// (it still takes part in the collective calls: window creation, fences).
//
// The window (the point's payload, "allocate", "create" or "dynamic"): the
// target exposes `slots` slots of `bytes` bytes, 64-byte aligned, through
// MPI_Win_allocate, MPI_Win_create on memory it allocated, or
// MPI_Win_create_dynamic + MPI_Win_attach (the origin learns the address
// through MPI_Allgather in prepare()); the other ranks expose nothing.
// Displacement units are bytes (target_disp(k)).
//
// One execute() (RmaSync, each completes every operation it issued at the
// target before the next execute() starts it again):
//   fence        all ranks: the operations, MPI_Win_fence (one fence per
//                execute(); the first epoch is opened in prepare());
//   lock         origin: MPI_Win_lock(MPI_LOCK_SHARED, target), the
//                operations, MPI_Win_unlock;
//   flush        every rank holds MPI_Win_lock_all from prepare() on;
//                origin: the operations, MPI_Win_flush(target);
//   flush_local  as flush with MPI_Win_flush_local: the origin's buffers
//                are complete, the target's memory may not be yet;
//   pscw         origin: MPI_Win_start({target}), the operations,
//                MPI_Win_complete; target: MPI_Win_post({origin}),
//                MPI_Win_wait.
// Latency methods issue one operation per execute(); bandwidth methods
// (`windowed`, runner --window W) issue W operations to W consecutive
// slots, then synchronise once: records hold the time per operation.
// Bidirectional bandwidth methods (osu_put_bibw; fence and pscw, OSU's
// two) make both ranks of a pair origin and target at once: each issues W
// operations into the other's window in the same epoch (pscw: MPI_Win_post,
// MPI_Win_start, the operations, MPI_Win_complete, MPI_Win_wait, OSU's
// order), each checks its own window, and the engine halves the time
// (time_scale 0.5) so that the bandwidth counts both directions, OSU's
// 2 x size x window / t.
//
// Operations (RmaOp) and what verification checks after poison() and one
// execute() (plus, under flush_local, an untimed MPI_Win_flush so that the
// target's memory is complete): the origin's data for slot k is the byte
// payload at offset k x bytes (pingpong.hpp's fill_bytes), so data put in
// the wrong slot or at a wrong displacement is caught.
//   put             MPI_BYTE x bytes: the target's slot k holds the data;
//   get             MPI_BYTE: the origin's result k holds the target's
//                   slot k (filled with the data in prepare());
//   accumulate      MPI_UINT64_T x bytes / 8, MPI_SUM: the target's slot k
//                   holds start + data (poison() writes `start`, values
//                   distinct from the data);
//   get_accumulate  as accumulate, and the origin's result k holds start;
//   fetch_and_op    one MPI_UINT64_T, MPI_SUM: result start, target
//                   start + data (8 bytes, StrategyInfo::fixed_bytes);
//   compare_and_swap one MPI_UINT64_T, compare with start, swap in the
//                   data: result start, target the data (8 bytes).
// accumulate and get_accumulate need a multiple of 8 bytes (SkipPoint
// otherwise).
//
// A plugin writes issue(k): the MPI call of operation k on win(), from
// origin(k), into result(k), at target() / target_disp(k), with the
// counts and types of its op; the base does the windows, the
// synchronisation and the checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mpiarena/pingpong.hpp>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

enum class RmaOp {
  put,
  get,
  accumulate,
  get_accumulate,
  fetch_and_op,
  compare_and_swap
};
enum class RmaSync { fence, lock, flush, flush_local, pscw };

const char* rma_op_name(RmaOp op);     // "put", "get_accumulate"...
const char* rma_sync_name(RmaSync s);  // "fence", "flush_local"...
// Whether an op moves one element only (fetch_and_op, compare_and_swap):
// latency methods only, 8 bytes.
bool rma_single_element(RmaOp op);

// What a method measures: one operation's latency, the bandwidth of W
// operations per synchronisation one way, or both ways at once.
enum class RmaMode { latency, bandwidth, bidirectional };

// The StrategyInfo of an rma method: suite "rma", payloads allocate,
// create and dynamic, pairwise, params {op, sync, mode} with the matrix
// rows op and columns sync; bandwidth: windowed, name ending in "_bw";
// bidirectional: windowed, time_scale 0.5, name ending in "_bibw", fence
// and pscw only. Single-element ops: fixed_bytes 8, latency only (another
// mode, or bidirectional with another sync, throws std::invalid_argument:
// the combination is not offered).
StrategyInfo rma_info(RmaOp op, RmaSync sync, RmaMode mode,
                      std::string summary);
inline StrategyInfo rma_info(RmaOp op, RmaSync sync, bool bandwidth,
                             std::string summary) {
  return rma_info(op, sync, bandwidth ? RmaMode::bandwidth : RmaMode::latency,
                  std::move(summary));
}
// The name rma_info gives: op ("acc", "get_acc", "fop", "cas" short),
// sync, and "_bw" for bandwidth, "_bibw" for both ways, e.g.
// "get_acc_flush_local_bw", "put_pscw_bibw".
std::string rma_method_name(RmaOp op, RmaSync sync, RmaMode mode);
inline std::string rma_method_name(RmaOp op, RmaSync sync, bool bandwidth) {
  return rma_method_name(op, sync,
                         bandwidth ? RmaMode::bandwidth : RmaMode::latency);
}
// Whether a bidirectional method is offered for `sync` (OSU's fence and
// pscw).
bool rma_bidirectional_sync(RmaSync sync);

inline constexpr RmaSync kRmaSyncs[] = {RmaSync::fence, RmaSync::lock,
                                        RmaSync::flush, RmaSync::flush_local,
                                        RmaSync::pscw};

// Every method of `op` a plugin offers: latency over every
// synchronisation, and bandwidth too unless the op moves one element; each
// creates a T(op, sync, bandwidth). `call` names the MPI call for
// --list ("MPI_Put of MPI_BYTE").
//
// `row`, when given, adds a row of its own to the report's op x sync
// matrix: another way of doing `op` (MPI_Rput + MPI_Wait is a put), checked
// as `op` is, named row_SYNC[_bw] ("rput_fence", "rput_flush_bw") with
// params op = row. A name of [a-z0-9_], short enough for the method names
// (32 characters with the longest sync, "_flush_local_bw").
// `bidirectional`: the bidirectional methods too, for the syncs that offer
// them (rma_bidirectional_sync).
template <class T>
std::vector<StrategyEntry> rma_entries(RmaOp op, const std::string& call,
                                       const std::string& row = "",
                                       bool bidirectional = false) {
  std::vector<StrategyEntry> out;
  for (RmaSync sync : kRmaSyncs)
    for (RmaMode mode :
         {RmaMode::latency, RmaMode::bandwidth, RmaMode::bidirectional}) {
      if (mode != RmaMode::latency && rma_single_element(op)) continue;
      if (mode == RmaMode::bidirectional &&
          (!bidirectional || !rma_bidirectional_sync(sync)))
        continue;
      StrategyInfo info = rma_info(op, sync, mode, call);
      if (!row.empty()) {
        info.name =
            row + "_" + rma_sync_name(sync) +
            rma_method_name(op, sync, mode)
                .substr(rma_method_name(op, sync, RmaMode::latency).size());
        for (auto& kv : info.params)
          if (kv.first == "op") kv.second = row;
      }
      out.push_back({std::move(info), [op, sync, mode] {
                       return std::unique_ptr<Strategy>(new T(op, sync, mode));
                     }});
    }
  return out;
}

class RmaStrategy : public Strategy {
 public:
  RmaStrategy(RmaOp op, RmaSync sync, RmaMode mode)
      : op_(op),
        sync_(sync),
        bandwidth_(mode != RmaMode::latency),
        both_ways_(mode == RmaMode::bidirectional) {}
  void prepare(const RunContext& ctx) final;
  void execute() final;
  void poison() final;
  Verdict verify() final;
  void release() final;

 protected:
  // Operation k (0 <= k < ops()) of one execute(), on the origin only
  // (bidirectional: on both ranks of the pair, each to the other).
  virtual void issue(int k) = 0;

  MPI_Win win() const { return win_; }
  int target() const { return pair_peer(ctx_); }
  MPI_Aint target_disp(int k) const {
    return base_disp_ +
           static_cast<MPI_Aint>(k) * static_cast<MPI_Aint>(stride_);
  }
  // Bytes of one operation, and its count in elements of its type
  // (MPI_BYTE for put and get, MPI_UINT64_T for the others).
  std::size_t bytes() const { return ctx_.bytes; }
  int count() const;
  // Operations per execute(): 1, or the window for bandwidth methods.
  int ops() const { return bandwidth_ ? ctx_.window : 1; }
  // The origin's data for operation k and its result buffer (get,
  // get_accumulate, fetch_and_op, compare_and_swap); compare_and_swap's
  // compare value is compare(k).
  const void* origin(int k) const { return at(origin_, k); }
  void* result(int k) { return at(result_, k); }
  const void* compare(int k) const { return at(compare_, k); }
  const RunContext& ctx() const { return ctx_; }

 private:
  bool is_origin() const;
  bool is_target() const;
  const unsigned char* at(const AlignedBytes& b, int k) const {
    return b.size() ? b.data() + static_cast<std::size_t>(k) * stride_
                    : nullptr;
  }
  unsigned char* at(AlignedBytes& b, int k) {
    return b.size() ? b.data() + static_cast<std::size_t>(k) * stride_
                    : nullptr;
  }
  unsigned char* slot(int k) {
    return mem_ + static_cast<std::size_t>(k) * stride_;
  }
  void create_window();
  void target_start();     // write the target's start values
  void target_complete();  // what must precede reading them back
  std::string check_target();
  std::string check_result();

  RmaOp op_;
  RmaSync sync_;
  bool bandwidth_;
  bool both_ways_;  // bidirectional: both ranks origin and target
  RunContext ctx_;
  MPI_Win win_ = MPI_WIN_NULL;
  MPI_Group peer_group_ = MPI_GROUP_NULL;
  unsigned char* mem_ = nullptr;  // the target's window memory
  AlignedBytes own_;              // create / dynamic: memory the base holds
  AlignedBytes origin_, result_, compare_;
  std::size_t stride_ = 0;
  MPI_Aint base_disp_ = 0;
  bool lock_all_ = false;
};

}  // namespace mpiarena

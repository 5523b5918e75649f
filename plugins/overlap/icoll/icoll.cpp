// Non-blocking collectives as OSU measures them (osu_ibcast,
// osu_iallreduce, osu_ialltoall, osu_iallgather): count ints per rank,
// posted, overlapped with the computation, waited for; every rank checks
// its result (sums against their closed form, collective_suite.hpp).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <vector>

namespace {

using mpiarena::check_ints;
using mpiarena::OverlapStrategy;
using mpiarena::Verdict;

std::size_t ranks_of(int p) { return static_cast<std::size_t>(p); }

class Ibcast final : public OverlapStrategy {
  void build() override {
    buf_.resize(count());
    reset();
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Ibcast(buf_.data(), icount(), MPI_INT, 0, comm(),
                              &requests.back()));
  }
  void reset() override {
    for (std::size_t i = 0; i < buf_.size(); ++i)
      buf_[i] = rank() == 0 ? mpiarena::distribution_value(i) : -1;
  }
  Verdict check() override {
    return check_ints(
        buf_, [](std::size_t i) { return mpiarena::distribution_value(i); },
        "broadcast");
  }
  mpiarena::Ints buf_;
};

class Iallreduce final : public OverlapStrategy {
  void build() override {
    send_ = mpiarena::partials_of(rank(), ranks(), count());
    recv_.assign(count(), -1);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Iallreduce(send_.data(), recv_.data(), icount(), MPI_INT,
                                  MPI_SUM, comm(), &requests.back()));
  }
  void reset() override { recv_.assign(recv_.size(), -1); }
  Verdict check() override { return mpiarena::check_sums(recv_, ranks()); }
  mpiarena::Ints send_, recv_;
};

class Iallgather final : public OverlapStrategy {
  void build() override {
    send_ = mpiarena::partials_of(rank(), ranks(), count());
    recv_.assign(count() * ranks_of(ranks()), -1);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Iallgather(send_.data(), icount(), MPI_INT, recv_.data(),
                                  icount(), MPI_INT, comm(), &requests.back()));
  }
  void reset() override { recv_.assign(recv_.size(), -1); }
  Verdict check() override {
    return mpiarena::check_gathered(recv_, ranks(), count());
  }
  mpiarena::Ints send_, recv_;
};

class Ialltoall final : public OverlapStrategy {
  void build() override {
    send_ = mpiarena::alltoall_send(rank(), ranks(), count());
    recv_.assign(send_.size(), -1);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Ialltoall(send_.data(), icount(), MPI_INT, recv_.data(),
                                 icount(), MPI_INT, comm(), &requests.back()));
  }
  void reset() override { recv_.assign(recv_.size(), -1); }
  Verdict check() override {
    return mpiarena::check_alltoall(recv_, rank(), ranks(), count());
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Ibcast>(mpiarena::overlap_info(
        "ibcast",
        "MPI_Ibcast of count ints from rank 0 overlapped with computation "
        "(osu_ibcast); every rank checks")),
    mpiarena::make_entry<Iallreduce>(mpiarena::overlap_info(
        "iallreduce",
        "MPI_Iallreduce (MPI_SUM) of count ints per rank overlapped with "
        "computation (osu_iallreduce); every rank's sum checked")),
    mpiarena::make_entry<Ialltoall>(mpiarena::overlap_info(
        "ialltoall",
        "MPI_Ialltoall of count ints from every rank to every rank "
        "overlapped with computation (osu_ialltoall); each block checked",
        /*payload_copies=*/0, /*payload_copies_per_rank=*/2)),
    mpiarena::make_entry<Iallgather>(mpiarena::overlap_info(
        "iallgather",
        "MPI_Iallgather of count ints per rank overlapped with computation "
        "(osu_iallgather); every rank checks every block",
        /*payload_copies=*/1, /*payload_copies_per_rank=*/1)))

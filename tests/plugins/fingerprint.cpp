// fingerprint: MPI_Allreduce of count ints with a user-defined sum
// (commutative), whose calls the method counts, for the tests of runner
// --algorithms (tests/e2e/e2e_algorithms.py). How many times the library
// calls the operation, and on how many elements, on each rank, is a
// fingerprint of the algorithm that ran: a linear algorithm reduces at the
// root only, recursive doubling on every rank on whole buffers, a ring on
// slices. The verified operation's fingerprint is appended, one line per
// rank, to the file MPIARENA_FINGERPRINT_FILE names ("ALGORITHM RANK CALLS
// ELEMENTS"; ALGORITHM is the point's option, "-" without --algorithms).
// MPIARENA_FINGERPRINT_WRONG=1 makes the operation add one too many: every
// algorithm's result then fails verification; =rank=N does so on rank N
// only (the fault of one rank, which the point must report on every rank
// where that rank's operation ran). Built with
// MPIARENA_FINGERPRINT_RSB: fingerprint_rsb, the same with
// MPI_Reduce_scatter_block (MPICH refuses most of its allreduce algorithms
// a user-defined operation, not those of reduce_scatter_block).
#include <cstdio>
#include <cstdlib>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <string>

namespace {

int calls = 0;
long long elements = 0;
bool wrong = false;

void counted_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  ++calls;
  elements += *len;
  const int* a = static_cast<const int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] += a[i] + (wrong ? 1 : 0);
}

class Fingerprint final : public mpiarena::CollectiveStrategy {
  void setup() override {
    const char* w = std::getenv("MPIARENA_FINGERPRINT_WRONG");
    const std::string which = w ? w : "";
    wrong = which == "1" || which == "rank=" + std::to_string(rank());
    MPIARENA_CHECK(MPI_Op_create(counted_sum, 1, &op_));
  }
  void teardown() override { MPI_Op_free(&op_); }
#ifdef MPIARENA_FINGERPRINT_RSB
  // Every rank sends its partials to every rank: rank r gets their sums.
  void build() override {
    const mpiarena::Ints mine = own_partials();
    send_.clear();
    for (int r = 0; r < ranks(); ++r)
      send_.insert(send_.end(), mine.begin(), mine.end());
    recv_.assign(count(), -1);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Reduce_scatter_block(send_.data(), recv_.data(),
                                            icount(), MPI_INT, op_, comm()));
  }
#else
  void build() override {
    send_ = own_partials();
    recv_.assign(count(), -1);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Allreduce(send_.data(), recv_.data(), icount(), MPI_INT,
                                 op_, comm()));
  }
#endif
  void poison() override {
    recv_.assign(count(), -1);
    calls = 0;
    elements = 0;
  }
  mpiarena::Verdict verify() override {
    if (const char* file = std::getenv("MPIARENA_FINGERPRINT_FILE")) {
      std::string algorithm = "-";
      try {
        algorithm = ctx().option("algorithm");
      } catch (const std::out_of_range&) {
      }
      if (FILE* f = std::fopen(file, "a")) {
        std::fprintf(f, "%s %d %d %lld\n", algorithm.c_str(), rank(), calls,
                     elements);
        std::fclose(f);
      }
    }
    return mpiarena::check_sums(recv_, ranks());
  }
  MPI_Op op_ = MPI_OP_NULL;
  mpiarena::Ints send_, recv_;
};

}  // namespace

#ifdef MPIARENA_FINGERPRINT_RSB
MPIARENA_PLUGIN(mpiarena::make_entry<Fingerprint>(mpiarena::chosen_by_library(
    "reduce_scatter_block",
    mpiarena::collective_info(
        "collective", "fingerprint_rsb",
        "MPI_Reduce_scatter_block with a user-defined sum that counts its "
        "calls (the algorithm's fingerprint, for the tests of --algorithms)",
        /*payload_copies=*/9))))
#else
MPIARENA_PLUGIN(mpiarena::make_entry<Fingerprint>(mpiarena::chosen_by_library(
    "allreduce",
    mpiarena::collective_info(
        "collective", "fingerprint",
        "MPI_Allreduce with a user-defined sum that counts its calls (the "
        "algorithm's fingerprint, for the tests of --algorithms)"))))
#endif

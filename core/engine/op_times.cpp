// The figures of a sample of operations each timed alone (op_times.hpp).
#include "core/engine/op_times.hpp"

#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stats.hpp>

namespace mpiarena {

namespace {

double median_of(const std::vector<double>& v) {
  return median(v, EvenMedian::upper);
}

}  // namespace

void per_operation_figures(timing::Sample& out, std::vector<double>& mx,
                           std::int64_t ops, MPI_Comm harness, int nranks) {
  const std::size_t n = static_cast<std::size_t>(ops);
  std::vector<double> sum(n);
  for (std::size_t i = 0; i < n; ++i) {
    sum[i] = mx[i];
    mx[n + i] = -mx[i];
  }
  std::vector<double> rmx(mx.size()), rsum(n);
  MPIARENA_CHECK(MPI_Allreduce(mx.data(), rmx.data(),
                               static_cast<int>(mx.size()), MPI_DOUBLE, MPI_MAX,
                               harness));
  MPIARENA_CHECK(MPI_Allreduce(sum.data(), rsum.data(), static_cast<int>(n),
                               MPI_DOUBLE, MPI_SUM, harness));
  std::vector<double> hi, lo, avg, own;
  for (std::size_t i = 0; i < n; ++i) {
    if (rmx[2 * n + i] > 0) continue;  // a rank disqualified it
    hi.push_back(rmx[i]);
    lo.push_back(-rmx[n + i]);
    avg.push_back(rsum[i] / nranks);
    own.push_back(mx[i]);
  }
  const double w = static_cast<double>(ops);
  out.windows = ops;
  out.invalid = ops - static_cast<std::int64_t>(hi.size());
  out.max = w * median_of(hi);
  out.min = w * median_of(lo);
  out.avg = w * median_of(avg);
  const double mine = w * median_of(own);
  out.per_rank.resize(static_cast<std::size_t>(nranks));
  MPIARENA_CHECK(MPI_Allgather(&mine, 1, MPI_DOUBLE, out.per_rank.data(), 1,
                               MPI_DOUBLE, harness));
}

}  // namespace mpiarena

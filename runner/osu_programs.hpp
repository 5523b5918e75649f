// OSU Micro-Benchmarks 7.4's MPI programs as names of methods: each name
// resolves to the method that reproduces it and the settings that give
// OSU's definition (docs/methods.md, "Every OSU 7.4 MPI benchmark"), its
// size ladder, its iteration counts and the shape of its table (-f osu).
// A table of names, no MPI.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mpiarena {

// What an OSU program prints, which decides its table under -f osu.
enum class OsuTable {
  latency,      // # Size  Latency (us): osu_latency and its kin
  bandwidth,    // # Size  Bandwidth (MB/s): osu_bw, fan-in/out, put_bw
  bibw,         // # Size  Bandwidth (MB/s), both directions: osu_bibw
  message_rate, // # Size  MB/s  Messages/s: osu_mbw_mr
  collective,   // # Size  Avg Latency(us): the blocking collectives
  barrier,      // # Avg Latency(us), no size: osu_barrier, osu_ibarrier
  nonblocking,  // # Size  Overall(us) Compute(us) Pure Comm.(us) Overlap(%)
  startup       // osu_init, osu_hello: another program (mpiarena-startup)
};

struct OsuProgram {
  const char* name;     // "osu_allgatherv"
  const char* method;   // "allgatherv"; "" where another program runs it
  const char* payload;  // the one payload it uses; "": the method's own
  // The method's own options that give OSU's definition, as --set takes
  // them: "counts=uniform,types=int"; "": the defaults.
  const char* settings;
  OsuTable table;
  bool all_pairs;        // every pair at once (osu_mbw_mr, osu_multi_lat)
  const char* threads;   // the MPI thread level it needs; "": none
  const char* note;      // one line: what differs, or how to run it
};

// Every OSU 7.4 MPI program, in OSU's order (point-to-point, one-sided,
// collectives, non-blocking, persistent, neighbourhood, start-up).
const std::vector<OsuProgram>& osu_programs();

// The program of that name, or nullptr.
const OsuProgram* find_osu_program(const std::string& name);

// The program's method options as (option, value) pairs.
std::vector<std::pair<std::string, std::string>> osu_settings(
    const OsuProgram& p);

// OSU's default size ladder of the program, as --sizes takes it:
// "1:4194304" (point-to-point, one-sided), "1:1048576" (collectives),
// "1" (osu_barrier, osu_ibarrier: no size, one point).
std::string osu_ladder(const OsuProgram& p);

// What a sample is under OSU's definition at `bytes`: operations timed per
// sample (0: calibrated, mpiarena's own loop), samples and untimed
// warm-up operations. The collectives time one operation after its own
// barrier, 1000 times (100 above 8 KiB) after 100 (10) warm-ups, as OSU;
// the point-to-point programs keep mpiarena's calibrated loop, which
// gives osu_latency's and osu_bw's figures (docs/results/reference.md).
struct OsuSampling {
  long long iterations = 0;
  int repetitions = 0;  // 0: the run's --repetitions
  int warmup = -1;      // -1: the run's --warmup
};
OsuSampling osu_sampling(const OsuProgram& p, std::size_t bytes);

// The program that reproduces `method` with its default options, or
// nullptr (--profile osu names plain methods so).
const OsuProgram* osu_program_of(const std::string& method);

}  // namespace mpiarena

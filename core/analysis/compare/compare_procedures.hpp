// The three ways `runner compare` can be fed (docs/ci.md, "Which
// procedure"): two files, one launch each; one file of `runner ab` (both
// builds in the same rounds of one launch); or k launches per side, each
// launch's median one observation. Nothing here knows any method.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/compare/compare.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

// The builds of a `runner ab` document ("base", "new"), from its records'
// and skips' methods ("bcast@new"), in first-seen order; empty for a
// document of a plain run.
std::vector<std::string> document_builds(const Document& d);

// The records and skips of one build, their method without "@build": a
// plain document that compare_documents() takes as one side.
Document build_part(const Document& d, const std::string& build);

// One side of a comparison across launches: per point measured by every
// launch, a record whose samples are the launches' median times (one
// observation per launch) and whose median is their median; a failed
// verification in any launch fails it. Phases, parts and metrics are left
// out (the headline time is judged), and so is the noise record (the
// spread between launches holds the machine's changes). Points missing
// from some launch are left out with a warning naming `side` ("BASE").
Document launches_document(const std::vector<Document>& launches,
                           const std::string& side,
                           std::vector<std::string>& warnings);

// --correction holm: every test's p-value of `c` (the points' and their
// phases', parts' and metrics' own) adjusted by Holm's step-down method
// over all of them (c.tests), and each verdict judged again with the
// adjusted p: a change beyond the threshold whose adjusted p is not below
// alpha is "noisy". A failed verification stays a regression. Warns when
// the samples are too few for any point to pass the correction.
void correct_for_multiplicity(Comparison& c);

// What compare says of its procedure in the summary: what the files are,
// how the point is judged, and the false-alarm rate and the power measured
// for that procedure by bench/gate (docs/ci.md, "Which procedure").
std::string procedure_line(const Comparison& c);
// "two_files", "ab_run", "launches".
const char* procedure_name(Procedure p);

}  // namespace mpiarena

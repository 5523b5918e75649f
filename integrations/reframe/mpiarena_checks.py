"""mpiarena as a ReFrame test (reframe-hpc 4.x; docs/reframe.md).

mpiarena_check runs the runner at 2 ranks on a few methods and sizes,
writing result.json. Sanity: the runner exited 0 and the file holds at
least one record, every record's verification passed. Performance: one
variable per point, `<method>_<bytes>B` (the median time in us) and
`<method>_<bytes>B_bw` (the bandwidth in MB/s, 10^6 bytes per second),
read from the records, never from the printed tables.

What a site sets (reframe -S NAME=VALUE, or a subclass):

  runner          the program (default $MPIARENA_RUNNER, else `mpiarena`)
  methods, sizes  the runner's -m and --sizes
  options         further runner options (default: a short run)
  extra_options   more of them, e.g. --plugin-dir DIR
  reference_file  a JSON file of references (default
                  $MPIARENA_REFERENCE_FILE), merged over REFERENCES below

References are ReFrame's: {'<system>:<partition>' or '*': {'<variable>':
(value, lower, upper, unit)}}, the bounds relative (-0.1 = 10 % below);
a variable without one is reported and never fails. Empty by default, so
that a fresh site passes.
"""
import json
import os
import shlex

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import run_before, sanity_function, variable
from reframe.core.exceptions import SanityError

# A site's references, e.g. {'*': {'mpi_bytes_8B': (1.5, None, 0.2, 'us')}}
# (the time at most 20 % above 1.5 us on every system).
REFERENCES = {}


def load_records(path):
    """The records of the runner's result file at `path`."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise SanityError(f'no result file {path}: the runner wrote none')
    except ValueError as e:
        raise SanityError(f'{path} is not JSON: {e}')
    records = doc.get('records') if isinstance(doc, dict) else None
    if not isinstance(records, list):
        raise SanityError(f'{path} has no list of records')
    return records


def point_name(record, payloads):
    """A record's variable name: <method>_<bytes>B, with the payload
    (<method>_<payload>_<bytes>B) when the method ran more than one."""
    method = record['method']
    if len(payloads.get(method, ())) > 1:
        return f"{method}_{record['payload']}_{record['bytes']}B"
    return f"{method}_{record['bytes']}B"


def performance_values(records):
    """{variable: (value, unit)} of every record: the median time in us
    and, where the point moves data, the bandwidth in MB/s."""
    payloads = {}
    for r in records:
        payloads.setdefault(r['method'], set()).add(r['payload'])
    values = {}
    for r in records:
        name = point_name(r, payloads)
        values[name] = (r['time_s']['median'] * 1e6, 'us')
        if r.get('bandwidth_Bps'):  # none, or 0 for no payload (barrier)
            values[f'{name}_bw'] = (r['bandwidth_Bps'] / 1e6, 'MB/s')
    return values


def merged_references(path):
    """REFERENCES with the JSON file at `path` (when given) over it; the
    file's lists become ReFrame's tuples."""
    refs = {scope: dict(v) for scope, v in REFERENCES.items()}
    if path:
        with open(path) as f:
            for scope, variables in json.load(f).items():
                for name, ref in variables.items():
                    refs.setdefault(scope, {})[name] = tuple(ref)
    return refs


def _constant(value):
    return value


@rfm.simple_test
class mpiarena_check(rfm.RunOnlyRegressionTest):
    descr = 'mpiarena: verified points at 2 ranks, their times'
    valid_systems = ['*']
    valid_prog_environs = ['*']
    num_tasks = 2
    tags = {'mpiarena', 'mpi'}

    runner = variable(str, value=os.environ.get('MPIARENA_RUNNER', 'mpiarena'))
    methods = variable(str, value='mpi_bytes,allreduce')
    sizes = variable(str, value='8,1KiB')
    options = variable(str, value='--min-time 0.001 -r 5')
    extra_options = variable(str, value='')
    reference_file = variable(
        str, value=os.environ.get('MPIARENA_REFERENCE_FILE', ''))
    result_file = variable(str, value='result.json')

    @run_before('run')
    def set_command(self):
        self.executable = self.runner
        self.executable_opts = (
            ['-m', self.methods, '--sizes', self.sizes, '-o', self.result_file]
            + shlex.split(self.options) + shlex.split(self.extra_options))
        # Kept in the output directory, for mpiarena compare and history.
        self.keep_files = [self.result_file]

    @sanity_function
    def all_points_verified(self):
        path = os.path.join(self.stagedir, self.result_file)
        code = self.job.exitcode
        if not os.path.exists(path):
            raise SanityError(f'{self.runner} exited {code} and wrote no '
                              f'{self.result_file}')
        records = load_records(path)
        bad = [f"{r.get('method')} {r.get('payload')} {r.get('bytes')} B: "
               f"{r.get('verification')}" for r in records
               if (r.get('verification') or {}).get('status') != 'passed']
        if bad:
            raise SanityError('not verified: ' + '; '.join(bad))
        if code != 0:
            raise SanityError(f'{self.runner} exited {code}')
        if not records:
            raise SanityError(f'{self.result_file} holds no record')
        return True

    @run_before('performance')
    def set_performance(self):
        records = load_records(os.path.join(self.stagedir, self.result_file))
        self.perf_variables = {
            name: sn.make_performance_function(_constant, unit, value)
            for name, (value, unit) in performance_values(records).items()}
        # A subclass's own `reference` stays unless REFERENCES or the
        # file give some.
        refs = merged_references(self.reference_file)
        if refs:
            self.reference = refs

"""A ReFrame site configuration for one machine (docs/reframe.md): the
`local` scheduler, the `mpirun` launcher, one environment with the MPI
compiler wrappers. Copy it and adapt it: a cluster sets its scheduler
(slurm...), launcher (srun...), partitions and modules.

As root, Open MPI's mpirun refuses to start unless told: the variables are
set only when ReFrame runs as root. A machine with fewer cores than the
test's 2 ranks gets Open MPI's oversubscription (no --oversubscribe
otherwise).
"""
import os

RANKS = 2

env_vars = []
if os.geteuid() == 0:
    env_vars += [['OMPI_ALLOW_RUN_AS_ROOT', '1'],
                 ['OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1']]
if (os.cpu_count() or 1) < RANKS:
    env_vars += [['OMPI_MCA_rmaps_base_oversubscribe', '1']]

site_configuration = {
    'systems': [
        {
            'name': 'local',
            'descr': 'this machine, MPI jobs through mpirun',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'default',
                    'descr': 'the local machine',
                    'scheduler': 'local',
                    'launcher': 'mpirun',
                    'environs': ['mpi'],
                    'env_vars': env_vars,
                    'max_jobs': 1,
                },
            ],
        },
    ],
    'environments': [
        {
            'name': 'mpi',
            'cc': 'mpicc',
            'cxx': 'mpicxx',
            'ftn': '',
            'features': ['mpi'],
        },
    ],
    'logging': [
        {
            'handlers': [
                {
                    'type': 'stream',
                    'name': 'stdout',
                    'level': 'info',
                    'format': '%(message)s',
                },
            ],
            # One perflog per test under --perflogdir (default
            # ./perflogs): each line the time, the test and every
            # variable with its value, reference, bounds and unit.
            'handlers_perflog': [
                {
                    'type': 'filelog',
                    'prefix': '%(check_system)s/%(check_partition)s',
                    'level': 'info',
                    'format': ('%(check_job_completion_time)s|'
                               '%(check_name)s|%(check_result)s|'
                               '%(check_perfvalues)s'),
                    'format_perfvars': ('%(check_perf_value)s|'
                                        '%(check_perf_unit)s|'
                                        '%(check_perf_ref)s|'
                                        '%(check_perf_lower_thres)s|'
                                        '%(check_perf_upper_thres)s|'),
                    'append': True,
                },
            ],
        },
    ],
}

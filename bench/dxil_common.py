"""What the DXIL benchmarks (dxil.py, dxil_translate.py) share: timing one process, and the
command line with the build, the corpus and the containers in it."""
import argparse
import os
import time


def run_once(argv, quiet=False):
    """CPU seconds (user + system) and wall seconds of one run, its exit status. `quiet`: its
    standard output and error go to /dev/null."""
    actions = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
    start = time.perf_counter()
    # No fork: the child's time is its own.
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions if quiet else [])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    return usage.ru_utime + usage.ru_stime, wall, os.waitstatus_to_exitcode(status)


def parse_arguments(doc, extra=()):
    """--build, --corpus, --runs and the `extra` (flag, help) options, required; then the spire
    program, spire_bench and the sorted .dxil files of the corpus."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--build', required=True)
    parser.add_argument('--corpus', required=True, help='the folder of .dxil containers')
    for flag, help_text in extra:
        parser.add_argument(flag, required=True, help=help_text)
    parser.add_argument('--runs', type=int, default=int(os.environ.get('BENCH_RUNS', '3')))
    args = parser.parse_args()
    spire = os.path.join(args.build, 'tools', 'spire', 'spire')
    bench = os.path.join(args.build, 'bench', 'spire_bench')
    files = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus)
                   if f.endswith('.dxil'))
    return args, spire, bench, files

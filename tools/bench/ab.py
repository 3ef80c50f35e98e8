#!/usr/bin/env python3
"""ab.py - A/B timing of whole commands, alternating, in the same minutes.

    tools/bench/ab.py RUNS LABEL CMD [LABEL CMD ...]

Runs every command RUNS times, alternating their order from round to round
(first to last, then last to first), and prints per label the median wall
time (perf_counter around the child), the minimum, the median CPU time (user
+ system) and the median peak RSS, both from /usr/bin/time. Each CMD is one
shell command line, e.g.

    tools/bench/ab.py 15 old "./old decode m.mlirbc -o /dev/shm/a.mlir" \\
                         new "./new decode m.mlirbc -o /dev/shm/b.mlir"

Writing outputs to /dev/shm keeps the disk's write-back of one run's output
out of the next run's time. Compare labels of one invocation only: the host
drifts between invocations.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main(argv):
    if len(argv) < 4 or len(argv) % 2 != 0:
        sys.exit(__doc__)
    runs = int(argv[1])
    pairs = list(zip(argv[2::2], argv[3::2]))
    results = {label: [] for label, _ in pairs}
    for i in range(runs):
        for label, cmd in pairs if i % 2 == 0 else pairs[::-1]:
            fd, stats = tempfile.mkstemp()
            os.close(fd)
            start = time.perf_counter()
            subprocess.run(["/usr/bin/time", "-o", stats, "-f", "%U %S %M", "bash", "-c", cmd],
                           stdout=subprocess.DEVNULL, check=True)
            wall = time.perf_counter() - start
            user, system, rss_kib = open(stats).read().split()[-3:]
            os.unlink(stats)
            results[label].append((wall, float(user) + float(system), int(rss_kib) // 1024))
    for label, samples in results.items():
        walls = [s[0] for s in samples]
        print(f"{label:14s} n={len(samples)} wall med {statistics.median(walls) * 1000:6.1f} ms"
              f"  min {min(walls) * 1000:6.1f}"
              f"  cpu med {statistics.median(s[1] for s in samples):.3f} s"
              f"  rss med {statistics.median(s[2] for s in samples)} MiB")


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""What a running process costs over a window: wake-ups per second (voluntary + involuntary context
switches of all its threads, from /proc/PID/task/*/status), CPU %, RSS and threads.

    bench/proc_sample.py PID SECONDS [--threads]

Prints one line `wakeups_per_s cpu_percent rss_mib threads private_dirty_mib` (private dirty: the
memory only this process holds and could not drop — heap, stacks, written data — where RSS also
counts the clean code pages of shared libraries, which every Swift, C++ or GLib program maps); with --threads, a second line with the
wake-ups per second of each thread name (where they come from), and a third with where the RSS is:
anonymous memory (heap, stacks) and the mapped files whose pages are resident (code, mostly). A thread that starts within the
window counts from 0, one that ends counts what it did until it was last seen (sampled every
0.25 s; the sampler reads /proc and never wakes the process)."""
import os
import sys
import time


def threads(pid):
    seen = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as status:
                switches = sum(int(line.split()[1]) for line in status if "ctxt_switches" in line)
            with open(f"/proc/{pid}/task/{tid}/comm") as comm:
                seen[tid] = (switches, comm.read().strip())
        except OSError:
            pass  # ended between listing and reading
    return seen


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def resident(pid):
    """MiB resident per mapping name, anonymous memory as [anon], largest first."""
    sizes, name = {}, "[anon]"
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5:
                name = os.path.basename(fields[5]) if len(fields) > 5 and fields[5].startswith("/") else "[anon]"
            elif fields[0] == "Rss:":
                sizes[name] = sizes.get(name, 0) + int(fields[1]) / 1024
    return sorted(sizes.items(), key=lambda item: -item[1])


def main():
    pid, seconds = int(sys.argv[1]), float(sys.argv[2])
    first, ticks, start = threads(pid), cpu_ticks(pid), time.monotonic()
    last = dict(first)
    while time.monotonic() - start < seconds:
        time.sleep(0.25)
        last.update(threads(pid))
    elapsed = time.monotonic() - start
    ticks = cpu_ticks(pid) - ticks
    by_name = {}
    for tid, (switches, name) in last.items():
        by_name[name] = by_name.get(name, 0) + switches - first.get(tid, (0, ""))[0]
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        dirty = next(int(line.split()[1]) for line in rollup if line.startswith("Private_Dirty:"))
    count = len(os.listdir(f"/proc/{pid}/task"))
    print(f"{sum(by_name.values()) / elapsed:.1f} {ticks * 100 / os.sysconf('SC_CLK_TCK') / elapsed:.2f} {rss / 1024:.1f} {count} {dirty / 1024:.1f}")
    if "--threads" in sys.argv:
        busiest = sorted(by_name.items(), key=lambda item: -item[1])
        print(", ".join(f"{name}: {n / elapsed:.1f}/s" for name, n in busiest if n) or "no thread woke")
        print("RSS: " + ", ".join(f"{name} {mib:.1f}" for name, mib in resident(pid)[:12]) + " (MiB)")


main()

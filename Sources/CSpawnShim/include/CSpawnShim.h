#ifndef CSPAWNSHIM_H
#define CSPAWNSHIM_H

#include <spawn.h>

/// The two GNU calls spawning a child needs (Base's ChildCommand, the tests' ChildProcess);
/// Swift's Glibc module is built without _GNU_SOURCE and does not show them. And prctl, which
/// Swift cannot call, for the process that holds secrets.

/// Adds a file action that closes every descriptor from `lowest` up (posix_spawn_file_actions_addclosefrom_np).
int cspawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// A pipe whose two ends close on exec, made atomically (pipe2 with O_CLOEXEC): no child spawned
/// by another thread at the same moment can inherit it.
int cspawn_cloexec_pipe(int ends[2]);

/// prctl(PR_SET_DUMPABLE, 0): no core dump, no ptrace by the same user, /proc/PID owned by root —
/// a process that holds secrets (prctl is variadic: Swift cannot call it).
int cspawn_not_dumpable(void);

#endif

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "CSpawnShim.h"

int cspawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cspawn_cloexec_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

int cspawn_not_dumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

import CSpawnShim

/// What a process that holds passwords and tokens does first: it stops being dumpable — no core
/// file (which would carry the tokens in its memory to the disk, or to a crash reporter), no
/// ptrace by other processes of the same user, its /proc files owned by root. The daemon for its
/// whole life; `cloudplayerctl` for the commands that read secrets (`login`, `secret set`).
package enum ProcessGuard {
    package static func holdingSecrets() {
        _ = cspawn_not_dumpable()
    }
}

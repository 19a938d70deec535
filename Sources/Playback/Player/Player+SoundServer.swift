import Output

/// A sound server that goes away (restarted, crashed) holds playback instead of ending it.
extension Player {
    /// How often a lost sound server is tried again: once a second, so sound is back at most a
    /// second after the server.
    static let soundServerRetryEvery = Duration.seconds(1)

    /// Keeps the entry and the position, shows Paused, and tries to reach the server again once a
    /// second; playing goes on from here by itself when it is back if it was playing. What the
    /// server had buffered (up to `PulseOutput.bufferSeconds`) was lost with it and is played again.
    func holdForSoundServer(_ error: OutputError) async {
        resumeWhenBack = resumeWhenBack || state.status == .playing
        let seconds = state.position.seconds(at: .now)
        await teardown()
        await output.setPaused(true)
        state.position = anchor(at: seconds)
        set(.paused)
        guard soundServerWait == nil else { return }
        logger.warning("sound server lost; playback is held until it is back", metadata: ["reason": "\(error)"])
        publish(.outputLost(error))
        soundServerWait = Task { [output, mailbox] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.soundServerRetryEvery)
                if Task.isCancelled { return }
                if (try? await output.reconnect()) != nil {
                    mailbox.yield(.soundServerBack)
                    return
                }
            }
        }
    }

    func soundServerReturned() async {
        guard soundServerWait != nil else { return }
        soundServerWait = nil
        logger.notice("sound server is back")
        publish(.outputReturned)
        guard resumeWhenBack, state.status == .paused, state.current != nil else { return }
        resumeWhenBack = false
        await execute(.play)
    }

    func stopWaitingForSoundServer() {
        soundServerWait?.cancel()
        soundServerWait = nil
    }
}

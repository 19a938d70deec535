import Model
import Output

/// What a pipeline reports to whoever started it: what the output heard, and what the decoder
/// side met on the way.
package enum PipelineEvent: Sendable {
    /// A moment the listener hears (a track started or ended), or the output's end or failure.
    case output(OutputEvent)
    /// A track could not be played (or not to its end); the pipeline goes on with the next.
    case trackFailed(QueueEntry, any Error)
    /// The decoder of this track waits for the network (true), or has its bytes again (false).
    case buffering(QueueEntry, Bool)
}

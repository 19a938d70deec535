import NIOCore

/// The body of an answer as `CurlTransfer` hands it over: its bytes as the connection brings them,
/// in a sequence that tells the transfer what its consumer does. A few parts wait for the
/// consumer, enough to go on reading while it writes one away; past them the transfer pauses, so
/// TCP holds the server back rather than memory — and the read timeout does not run, for the
/// server is not being asked for anything.
package typealias PacedBody = NIOThrowingAsyncSequenceProducer<ByteBuffer, any Error,
                                                       NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark,
                                                       PacedBodyDemand>

/// A reader whose answer's body is a `PacedBody`: told when the consumer wants more (a read held
/// goes on) and when it is gone — done, cancelled, or the body dropped — so that it closes the
/// connection at once.
protocol PacedBodyReader: Sendable {
    func consumerWantsMore()
    func consumerLeft()
}

/// Passes the body's demand on to its reader, which it holds until the body ends or its
/// consumer leaves (the reader drops the body's source then, which ends the cycle).
package struct PacedBodyDemand: NIOAsyncSequenceProducerDelegate {
    let reader: any PacedBodyReader

    package func produceMore() {
        reader.consumerWantsMore()
    }

    package func didTerminate() {
        reader.consumerLeft()
    }
}

extension PacedBody {
    /// A body paced by `reader`'s consumer, and the source the reader yields the answer's parts into.
    static func make(for reader: any PacedBodyReader) -> (body: PacedBody, source: Source) {
        let made = makeSequence(backPressureStrategy: .init(lowWatermark: 1, highWatermark: 4), finishOnDeinit: true,
                                delegate: PacedBodyDemand(reader: reader))
        return (made.sequence, made.source)
    }
}

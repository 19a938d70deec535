import NIOCore

/// The body of an answer read by `ICYReader`: its bytes as the connection brings them, held back
/// by the consumer (its watermarks are a few reads).
typealias ICYBody = NIOThrowingAsyncSequenceProducer<ByteBuffer, any Error,
                                                     NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark,
                                                     ICYBodyDelegate>

/// Tells the connection what the body's consumer does: it wants more (the reads held back go
/// on), or it is gone — done, cancelled or dropped — and the connection closes at once.
struct ICYBodyDelegate: NIOAsyncSequenceProducerDelegate {
    let handler: NIOLoopBound<ICYAnswerHandler>

    func produceMore() {
        handler.eventLoop.execute { handler.value.produceMore() }
    }

    func didTerminate() {
        handler.eventLoop.execute { handler.value.consumerLeft() }
    }
}

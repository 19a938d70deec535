import Config
import FoundationEssentials
import Model
import NIOCore

/// Opens an HTTP proxy's `CONNECT` tunnel on a connection of `ICYReader` (a SHOUTcast 1 station
/// the HTTP client cannot read): asks for it once connected, holds the request written behind it
/// until the proxy said 2xx, then passes everything through. A refusal keeps its status, which
/// becomes the error (`ProxyTunnelRefusal`).
final class ProxyTunnelHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// A proxy's answer head is a few lines; more is not a proxy speaking HTTP.
    static let headLimit = 16 << 10

    private let connect: String
    private var open = false
    private var answer = ByteBuffer()
    private var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []

    /// `authorization`: the `Proxy-Authorization` value, if the proxy has credentials.
    init(host: String, port: Int, authorization: String?) {
        let target = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        var lines = ["CONNECT \(target) HTTP/1.1", "Host: \(target)"]
        if let authorization { lines.append("Proxy-Authorization: \(authorization)") }
        connect = lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: connect)), promise: nil)
        context.fireChannelActive()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard open else { return held.append((unwrapOutboundIn(data), promise)) }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !open else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        answer.writeBuffer(&bytes)
        let view = answer.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if answer.readableBytes > Self.headLimit { fail(context, LoaderError.badResponse("the proxy's answer to CONNECT is too long")) }
            return
        }
        let statusLine = String(decoding: view[view.startIndex..<(view.firstIndex(of: UInt8(ascii: "\r")) ?? end.lowerBound)], as: UTF8.self)
        let words = statusLine.split(separator: " ")
        guard words.count >= 2, words[0].hasPrefix("HTTP/"), let status = Int(words[1]) else {
            return fail(context, LoaderError.badResponse("the proxy did not answer CONNECT in HTTP"))
        }
        guard (200..<300).contains(status) else { return fail(context, ProxyTunnelRefusal(status: status)) }
        open = true
        let rest = answer.getSlice(at: end.upperBound, length: view.endIndex - end.upperBound)
        answer = ByteBuffer()
        for (bytes, promise) in held { context.write(wrapOutboundOut(bytes), promise: promise) }
        held = []
        context.flush()
        if let rest, rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
    }

    private func fail(_ context: ChannelHandlerContext, _ error: any Error) {
        for (_, promise) in held { promise?.fail(error) }
        held = []
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }
}

/// An HTTP proxy's answer to `CONNECT` that was not 2xx.
struct ProxyTunnelRefusal: Error, Equatable {
    let status: Int
}

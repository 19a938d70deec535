import Logging
import ServiceLifecycle

/// How the daemon and `cloudplayerd play` run their parts: one `ServiceGroup`, started in the
/// order given and stopped in the reverse. Any part that ends — a client's Quit, the queue played
/// out, the bus gone (which throws) — stops the whole group gracefully; signals are the
/// `SignalService`'s, and the `StopDeadline` bounds how long stopping may take.
package enum DaemonServices {
    package static func group(_ services: [any Service]) -> ServiceGroup {
        let configurations = services.map { service in
            ServiceGroupConfiguration.ServiceConfiguration(service: Watched(service), successTerminationBehavior: .gracefullyShutdownGroup,
                                                           failureTerminationBehavior: .gracefullyShutdownGroup)
        }
        return ServiceGroup(configuration: ServiceGroupConfiguration(services: configurations,
                                                                     logger: Logger(label: "cloudplayerd.services")))
    }
}

/// A part of the group whose `run()` is counted as unfinished while it runs, so that a stop
/// that misses its deadline names the parts that held it up (`StopDeadline`).
private struct Watched: Service, CustomStringConvertible {
    let service: any Service
    let description: String

    init(_ service: any Service) {
        self.service = service
        description = String(describing: type(of: service))
    }

    func run() async throws {
        StopDeadline.unfinished.withLock { $0.append(description) }
        defer { StopDeadline.unfinished.withLock { running in running.firstIndex(of: description).map { _ = running.remove(at: $0) } } }
        try await service.run()
    }
}

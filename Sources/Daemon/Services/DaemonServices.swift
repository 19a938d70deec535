import Logging
import ServiceLifecycle

/// How the daemon and `cloudplayerd play` run their parts: one `ServiceGroup`, started in the
/// order given and stopped in the reverse. Any part that ends — a client's Quit, the queue played
/// out, the bus gone (which throws) — stops the whole group gracefully; signals are the
/// `SignalService`'s, and the `StopDeadline` bounds how long stopping may take.
package enum DaemonServices {
    package static func group(_ services: [any Service]) -> ServiceGroup {
        let configurations = services.map { service in
            ServiceGroupConfiguration.ServiceConfiguration(service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                                                           failureTerminationBehavior: .gracefullyShutdownGroup)
        }
        return ServiceGroup(configuration: ServiceGroupConfiguration(services: configurations,
                                                                     logger: Logger(label: "cloudplayerd.services")))
    }
}

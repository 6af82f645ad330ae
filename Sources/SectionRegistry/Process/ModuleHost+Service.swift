#if ServiceLifecycle
import ServiceLifecycle

/// A host is a swift-service-lifecycle `Service`: in a `ServiceGroup`, the
/// group's graceful shutdown is the host's drain (its modules' runs are
/// asked to finish, in reverse start order) and the group's cancellation is
/// the host's cancellation. Give the host
/// ``HostConfiguration/servesSignals`` `false`: the group owns the signals.
/// See <doc:Servers>.
extension ModuleHost: Service {}
#endif

extension ModuleHost {
    /// The service a module registered for `type`, for code outside the
    /// modules: a second service beside the host in a `ServiceGroup`, a test
    /// (see <doc:Servers>). The same lookup as ``ModuleContext/service(_:)``;
    /// a service exists from its module's `setUp` until that module stops.
    ///
    /// ```swift
    /// let router = try host.service(Router<BasicRequestContext>.self)
    /// ```
    ///
    /// - Throws: ``ServiceError`` (``ServiceError/Code/missing``, its
    ///   ``ServiceError/module`` empty: no module asked) when no module
    ///   registered it, or the error of its factory.
    public nonisolated func service<Service: Sendable>(_ type: Service.Type) throws(ServiceError) -> Service {
        try shared.services.resolve(type, for: ServiceError.outsideModules)
    }
}

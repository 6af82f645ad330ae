import SectionRegistry

/// The event every fixture module answers with its name.
public struct Ping: ModuleEvent {
    public typealias Reply = String
    public init() {}
}

/// A module that says on standard output when it starts and stops (in
/// order with the app's own lines), and answers ``Ping``.
public struct AnsweringModule: AppModule {
    let name: String

    public init(_ name: String) {
        self.name = name
    }

    public func setUp(_ context: ModuleContext) async throws {
        let name = name
        context.on(Ping.self) { _ in name }
    }

    public func start(_ context: ModuleContext) async throws {
        print("  \(name): started")
    }

    public func stop(_ context: ModuleContext) async throws {
        print("  \(name): stopped")
    }
}

/// An ``AnsweringModule`` named after its type: for the fixture modules
/// registered from Swift (`@AppModule`), whose factory calls `init()`.
public protocol AnsweringByTypeName: AppModule {
    init()
}

extension AnsweringByTypeName {
    private var answering: AnsweringModule { AnsweringModule("\(Self.self)") }

    public nonisolated(nonsending) func setUp(_ context: ModuleContext) async throws {
        try await answering.setUp(context)
    }

    public nonisolated(nonsending) func start(_ context: ModuleContext) async throws {
        try await answering.start(context)
    }

    public nonisolated(nonsending) func stop(_ context: ModuleContext) async throws {
        try await answering.stop(context)
    }
}

import Testing
@testable import SectionRegistry

/// The host calls only the hooks a module writes (``AppModule/_hasSetUpHook``
/// and the others): every hook a module writes, however it writes it, is
/// called, and none it does not write.
@Suite struct WrittenHookTests {
    let journal = Journal()

    /// Launches `module` as "M", reloads it, stops it, and returns the
    /// hooks that ran, in order.
    func hooksCalled(_ module: @escaping @Sendable () -> any AppModule) async throws -> [String] {
        let host = ModuleHost(registry: try declare([ModuleDescriptor(name: "M", make: module)]), configuration: testConfiguration())
        try await host.launch()
        await host.reload()
        await host.terminate()
        return journal.entries
    }

    @Test func aModuleThatWritesEveryHookHasEachCalled() async throws {
        let module = EveryHook(journal: journal)
        #expect(module._hasSetUpHook && module._hasStartHook && module._hasReadyHook && module._hasReloadHook && module._hasStopHook)
        #expect(try await hooksCalled { module } == ["setUp", "start", "ready", "reload", "stop"])
    }

    @Test func aModuleThatWritesNoHookHasNoneCalled() async throws {
        let module = NoHook()
        #expect(!module._hasSetUpHook && !module._hasStartHook && !module._hasReadyHook && !module._hasReloadHook && !module._hasStopHook)
        #expect(try await hooksCalled { module } == [])
    }

    @Test func aHookWrittenNonThrowingOrSynchronousIsCalled() async throws {
        let module = PlainHooks(journal: journal)
        #expect(module._hasStartHook && module._hasStopHook && !module._hasSetUpHook)
        #expect(try await hooksCalled { module } == ["start", "stop"])
    }

    @Test func aHookWrittenInAProtocolsExtensionIsCalled() async throws {
        // The refined protocol's hook is the witness, and so it is written.
        let module = Migrated(journal: journal)
        #expect(module._hasSetUpHook && !module._hasStartHook)
        #expect(try await hooksCalled { module } == ["setUp migrates"])
    }

    @Test func aHookWrittenInASuperclassIsCalledForItsSubclass() async throws {
        let module = SubclassModule(journal: journal)
        #expect(module._hasStopHook)
        #expect(try await hooksCalled { module } == ["stop (overridden)"])
    }

    @Test func aWrapperThatForwardsEveryHookIsCalledAndCallsTheInnersOwn() async throws {
        // The wrapper writes every hook; the hooks the inner module does not
        // write are its empty defaults, called by the wrapper.
        let module = Forwarding(inner: PlainHooks(journal: journal))
        #expect(module._hasSetUpHook && module._hasReloadHook)
        #expect(try await hooksCalled { module } == ["start", "stop"])
    }
}

private struct EveryHook: AppModule {
    let journal: Journal
    func setUp(_ context: ModuleContext) async throws { journal.add("setUp") }
    func start(_ context: ModuleContext) async throws { journal.add("start") }
    func ready(_ context: ModuleContext) async throws { journal.add("ready") }
    func reload(_ context: ModuleContext) async throws { journal.add("reload") }
    func stop(_ context: ModuleContext) async throws { journal.add("stop") }
}

private struct NoHook: AppModule {}

private struct PlainHooks: AppModule {
    let journal: Journal
    func start(_ context: ModuleContext) async { journal.add("start") }
    func stop(_ context: ModuleContext) { journal.add("stop") }
}

private protocol MigratingModule: AppModule {
    var journal: Journal { get }
}

extension MigratingModule {
    func setUp(_ context: ModuleContext) async throws { journal.add("setUp migrates") }
}

private struct Migrated: MigratingModule {
    let journal: Journal
}

private class BaseModule: AppModule, @unchecked Sendable {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
    func stop(_ context: ModuleContext) async throws { journal.add("stop") }
}

private final class SubclassModule: BaseModule, @unchecked Sendable {
    override func stop(_ context: ModuleContext) async throws { journal.add("stop (overridden)") }
}

private struct Forwarding: AppModule {
    let inner: any AppModule
    func setUp(_ context: ModuleContext) async throws { try await inner.setUp(context) }
    func start(_ context: ModuleContext) async throws { try await inner.start(context) }
    func ready(_ context: ModuleContext) async throws { try await inner.ready(context) }
    func reload(_ context: ModuleContext) async throws { try await inner.reload(context) }
    func stop(_ context: ModuleContext) async throws { try await inner.stop(context) }
}

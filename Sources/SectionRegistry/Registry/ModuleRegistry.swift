import CSectionRegistry
import Synchronization

/// The modules linked into this program, found through their records in the
/// ELF section `app_modules`, and the name-to-factory map built from them.
///
/// ```swift
/// let registry = try ModuleRegistry.linked()
/// print(registry.modules.map(\.name))       // in declared order
/// try await ModuleHost(registry: registry).run()
/// ```
///
/// A registry is an immutable value: share it freely between tasks.
public struct ModuleRegistry: Sendable {
    /// Every module, in declared order: by level, then priority (higher
    /// first), then name. Never in link or section order.
    public let modules: [ModuleDescriptor]

    /// The name-to-factory map: positions in ``modules`` by name.
    private let positions: [String: Int]

    /// The registry of the modules linked into the image that holds this
    /// library, typically the executable.
    ///
    /// The section is read and checked on the first call, from whichever
    /// thread makes it, and never again: later calls return the same registry
    /// or throw the same error. Nothing runs before `main`.
    ///
    /// - Throws: ``DiscoveryError`` listing every problem with the section:
    ///   malformed records, duplicate names, no modules at all (the linker
    ///   dropped them), bounds that do not enclose the section.
    public static func linked() throws(DiscoveryError) -> ModuleRegistry {
        try linkedDiscovery.get()
    }

    private static let linkedDiscovery = Result { () throws(DiscoveryError) in
        linkedDiscoveryCount.add(1, ordering: .relaxed)
        let section = try LinkedSection.bytes()
        _ = RegisteredSections.claim(section)
        return try ModuleRegistry(SectionScan(section))
    }

    /// Reads and checks the section anew on every call: what ``linked()``
    /// does once. For the benchmarks, which time it.
    package static func readLinkedSection() throws(DiscoveryError) -> ModuleRegistry {
        try ModuleRegistry(SectionScan(LinkedSection.bytes()))
    }

    /// How many times ``linked()`` has read the section in this process:
    /// once, however many threads ask first.
    static let linkedDiscoveryCount = Atomic<Int>(0)

    /// A registry of modules declared in Swift instead of linked records:
    /// for tests, and for hosts that assemble modules by hand.
    ///
    /// - Throws: ``DiscoveryError`` when two modules share a name or there
    ///   is none.
    public init(declaring modules: [ModuleDescriptor]) throws(DiscoveryError) {
        try self.init(modules, problems: [])
    }

    /// Builds the registry from one scan of a section, or fails with every
    /// problem the scan found, duplicate names included.
    init(_ scan: SectionScan) throws(DiscoveryError) {
        let modules = scan.modules.map { module in
            let factory = unsafeBitCast(UnsafeRawPointer(bitPattern: UInt(module.factory))!, to: app_module_factory.self)
            return ModuleDescriptor(module.declaration, factory: .record(factory))
        }
        try self.init(modules, problems: scan.problems)
    }

    private init(_ candidates: [ModuleDescriptor], problems: [DiscoveryProblem]) throws(DiscoveryError) {
        let checked = RegistryRules.check(candidates.map(\.declaration), problems: problems)
        guard checked.problems.isEmpty else { throw DiscoveryError(problems: checked.problems) }
        modules = checked.declaredOrder.map { candidates[$0] }
        var sortedPosition = [Int](repeating: 0, count: candidates.count)
        for (position, index) in checked.declaredOrder.enumerated() { sortedPosition[index] = position }
        positions = checked.positionByName.mapValues { sortedPosition[$0] }
    }

    /// The module registered under `name`, or `nil`.
    public subscript(name: String) -> ModuleDescriptor? {
        positions[name].map { modules[$0] }
    }

    /// Creates a new instance of the module registered under `name`.
    ///
    /// - Throws: ``UnknownModuleError`` naming the module and listing the
    ///   linked ones; ``FactoryError`` when its factory is not one.
    public func makeModule(named name: String) throws -> any AppModule {
        guard let module = self[name] else {
            throw UnknownModuleError(name: name, knownNames: modules.map(\.name))
        }
        return try module.makeModule()
    }
}

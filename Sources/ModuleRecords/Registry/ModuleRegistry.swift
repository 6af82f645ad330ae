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
    private let names: NameTable

    /// The registry of the modules linked into this process: those of the
    /// program and of every shared object loaded with it, whether linked at
    /// build time or mapped before the first call (with `LD_PRELOAD`, or a
    /// `dlopen` of the program's own). Each descriptor names its image
    /// (``ModuleDescriptor/image``). Plugins loaded later join a host through
    /// ``ModuleHost/load(plugin:)``.
    ///
    /// Every image is found through the note its `CSectionRegistry` code
    /// carries, with `dl_iterate_phdr`, on the first call, from whichever
    /// thread makes it, and never again: later calls return the same
    /// registry or throw the same error. Nothing runs before `main`.
    ///
    /// - Throws: ``RegistryError`` (``RegistryError/Code/discovery``) listing every problem: malformed records
    ///   or notes, one name in two records (of one image or two), an image
    ///   built against its own copy of SectionRegistry, no modules at all
    ///   (the linker dropped them), bounds that do not enclose the section.
    public static func linked() throws(RegistryError) -> ModuleRegistry {
        try linkedDiscovery.get()
    }

    private static let linkedDiscovery = Result { () throws(RegistryError) in
        linkedDiscoveryCount.add(1, ordering: .relaxed)
        return try ModuleRegistry(images: LoadedImage.all().filter(RegisteredSections.claim))
    }

    /// Reads and checks the sections of every loaded image anew on every
    /// call: what ``linked()`` does once. For the benchmarks, which time it
    /// from their own package, hence SPI rather than `package`.
    @_spi(Benchmarks) public static func readLoadedImages() throws(RegistryError) -> ModuleRegistry {
        try ModuleRegistry(images: LoadedImage.all())
    }

    /// How many times ``linked()`` has read the sections in this process:
    /// once, however many threads ask first.
    static let linkedDiscoveryCount = Atomic<Int>(0)

    /// A registry of modules declared in Swift instead of linked records:
    /// for tests, and for hosts that assemble modules by hand.
    ///
    /// - Throws: ``RegistryError`` (``RegistryError/Code/discovery``) when two modules share a name or there
    ///   is none.
    public init(declaring modules: [ModuleDescriptor]) throws(RegistryError) {
        try self.init(modules, problems: [])
    }

    /// Builds the registry from one scan of a section, or fails with every
    /// problem the scan found, duplicate names included.
    init(_ scan: SectionScan) throws(RegistryError) {
        try self.init(Self.descriptors(scan), problems: scan.problems)
    }

    /// Builds the registry from the sections of `images`, checked together:
    /// a name in two images is a duplicate like a name in one.
    ///
    /// Records are checked where they lie, and only a section with a
    /// defective record is decoded again to say what is wrong.
    package init(images: [LoadedImage]) throws(RegistryError) {
        var modules: [ModuleDescriptor] = []
        var problems: [DiscoveryProblem] = []
        for image in images {
            if let problem = image.problem {
                problems.append(problem)
                continue
            }
            let first = modules.count
            let isWhole = LinkedSection.appendModules(of: image, to: &modules)
            // Only an image with modules is asked which copy it reaches: a
            // copy's own anchor-only image (libSectionRegistryDynamic.so)
            // registers nothing.
            if modules.count > first, let copy = image.otherRegistryCopy() {
                modules.removeSubrange(first...)
                problems.append(.ownRegistryCopy(image: image.path, copyIn: copy))
                continue
            }
            if !isWhole {
                problems += SectionScan(image).problems
            }
        }
        // Images whose note failed are reported above and asked nothing
        // more.
        let copies = Self.registryCopies(besides: images.filter { $0.problem == nil })
        if copies.count > 1 && !modules.isEmpty {
            problems.append(.severalRegistryCopies(copies))
        }
        try self.init(modules, problems: problems)
    }

    /// The files that hold a copy of SectionRegistry: the one running this
    /// code, and any of `images` with its own.
    private static func registryCopies(besides images: [LoadedImage]) -> [String] {
        let ours = LoadedImage.image(holding: #dsohandle).file ?? "this program"
        let others = images.filter { !$0.holdsThisRegistry && $0.holdsARegistryCopy() }.map(\.path)
        return [images.first(where: \.holdsThisRegistry)?.path ?? ours] + others
    }

    private static func descriptors(_ scan: SectionScan) -> [ModuleDescriptor] {
        scan.modules.map { module in
            let factory = unsafeBitCast(UnsafeRawPointer(bitPattern: UInt(module.factory))!, to: app_module_factory.self)
            return ModuleDescriptor(.declared(.init(module.declaration, .record(factory))))
        }
    }

    private init(_ candidates: [ModuleDescriptor], problems: [DiscoveryProblem]) throws(RegistryError) {
        let checked = RegistryRules.check(candidates, problems: problems)
        guard checked.problems.isEmpty else { throw .discovery(checked.problems) }
        var modules = candidates
        modules.rearrange(into: checked.declaredOrder)
        self.modules = modules
        names = checked.names
    }

    /// The module registered under `name`, or `nil`.
    public subscript(name: String) -> ModuleDescriptor? {
        var name = name
        return name.withUTF8 { name in
            names.position(of: UnsafeRawBufferPointer(name)) { modules[$0].hasName($1) }.map { modules[$0] }
        }
    }

}

extension Array {
    /// Puts the element at `order[i]` at `i`, moving elements along the
    /// permutation's cycles instead of copying them all into a new array.
    fileprivate mutating func rearrange(into order: [Int]) {
        var placed = [Bool](repeating: false, count: count)
        for start in indices where !placed[start] {
            var current = start
            placed[current] = true
            while order[current] != start {
                swapAt(current, order[current])
                current = order[current]
                placed[current] = true
            }
        }
    }
}

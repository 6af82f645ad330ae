import CSectionRegistry

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
    /// a name in two images is a duplicate like a name in one. `copyMarker`
    /// is the symbol every copy of SectionRegistry defines and every image
    /// with modules refers to (see ``LoadedImage/otherRegistryCopy(marker:)``):
    /// the host's to name, not the core's.
    ///
    /// Records are checked where they lie, and only a section with a
    /// defective record is decoded again to say what is wrong.
    package init(images: [LoadedImage], copyMarker: String) throws(RegistryError) {
        var modules: [ModuleDescriptor] = []
        var problems: [DiscoveryProblem] = []
        for image in images {
            // A pattern, not `if let`, for the reason `isReadable` gives.
            if case .some(let problem) = image.problem {
                problems.append(problem)
                continue
            }
            let first = modules.count
            let isWhole = LinkedSection.appendModules(of: image, to: &modules)
            // Only an image with modules is asked which copy it reaches: a
            // copy's own anchor-only image (libSectionRegistryDynamic.so)
            // registers nothing.
            if modules.count > first, let copy = image.otherRegistryCopy(marker: copyMarker) {
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
        let copies = Self.registryCopies(besides: images.filter(\.isReadable), copyMarker: copyMarker)
        if copies.count > 1 && !modules.isEmpty {
            problems.append(.severalRegistryCopies(copies))
        }
        try self.init(modules, problems: problems)
    }

    /// The files that hold a copy of SectionRegistry: the one running this
    /// code, and any of `images` with its own.
    private static func registryCopies(besides images: [LoadedImage], copyMarker: String) -> [String] {
        let ours = LoadedImage.image(holding: #dsohandle).file ?? "this program"
        let others = images.filter { !$0.holdsThisRegistry && $0.holdsARegistryCopy(marker: copyMarker) }.map(\.path)
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
        // Linked records usually lie in declared order already: then the
        // list is kept as it is. Otherwise one copy of each descriptor, in
        // order (rearranging a copy in place copied the list first, since
        // the caller still holds it, then swapped every element).
        modules = checked.isInDeclaredOrder ? candidates : checked.declaredOrder.map { candidates[$0] }
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

import Synchronization

extension ModuleRegistry {
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
    /// - Throws: ``RegistryError`` (``RegistryError/Code/discovery``) listing
    ///   every problem: malformed records or notes, one name in two records
    ///   (of one image or two), an image built against its own copy of
    ///   SectionRegistry, no modules at all (the linker dropped them), bounds
    ///   that do not enclose the section.
    public static func linked() throws(RegistryError) -> ModuleRegistry {
        try linkedDiscovery.get()
    }

    private static let linkedDiscovery = Result { () throws(RegistryError) in
        linkedDiscoveryCount.add(1, ordering: .relaxed)
        return try ModuleRegistry(images: LoadedImage.all().filter(RegisteredSections.claim), copyMarker: copyMarker)
    }

    /// Reads and checks the sections of every loaded image anew on every
    /// call: what ``linked()`` does once. For the benchmarks, which time it.
    @_spi(Benchmarks)
    public static func readLoadedImages() throws(RegistryError) -> ModuleRegistry {
        try ModuleRegistry(images: LoadedImage.all(), copyMarker: copyMarker)
    }

    /// How many times ``linked()`` has read the sections in this process:
    /// once, however many threads ask first.
    static let linkedDiscoveryCount = Atomic<Int>(0)

    /// The symbol that tells this copy of SectionRegistry from another: the
    /// protocol descriptor of ``AppModule``, which every copy defines and
    /// every module's conformance refers to. Written out: mangling it from
    /// the type (`_mangledTypeName`) cost a quarter of discovery's first
    /// call; LinkedSectionTests checks that it is the type's mangling.
    static let copyMarker = "$s15SectionRegistry9AppModuleMp"
}

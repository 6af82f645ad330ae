import CSectionRegistry

/// A valid module record of a loaded image, read where it lies: discovery
/// checks each record in place and keeps its address, and a descriptor
/// builds its name, dependencies and location from it only when asked.
///
/// Records are constant data of an image that stays mapped for the life of
/// the process (plugins are opened with `RTLD_NODELETE`), so the address
/// never dangles and the type is safely `Sendable`.
package struct LinkedRecord: @unchecked Sendable {
    let address: UnsafeRawPointer
    /// The name's length, found when the record was checked: names are
    /// read on every comparison while a registry is built.
    private let nameLength: UInt8
    /// Interned, never freed: see ``SectionImage/interned(_:)``.
    unowned(unsafe) let image: SectionImage

    init(address: UnsafeRawPointer, nameLength: Int, image: SectionImage) {
        self.address = address
        self.nameLength = UInt8(nameLength)
        self.image = image
    }

    var name: String { withNameBytes { String(decoding: $0, as: UTF8.self) } }

    var level: ModuleLevel {
        ModuleLevel(rawValue: address.load(fromByteOffset: MemoryLayout<app_module_record>.offset(of: \.level)!, as: UInt8.self))!
    }

    var priority: Int {
        Int(address.loadUnaligned(fromByteOffset: MemoryLayout<app_module_record>.offset(of: \.priority)!, as: Int16.self))
    }

    /// Whether it names modules it comes after, found without decoding
    /// the list.
    var hasDependencies: Bool { ModuleRecord.hasDependencies(at: address) }

    var startsConcurrently: Bool {
        address.load(fromByteOffset: MemoryLayout<app_module_record>.offset(of: \.flags)!, as: UInt32.self) & APP_MODULE_CONCURRENT_START != 0
    }

    var factory: app_module_factory {
        address.load(fromByteOffset: MemoryLayout<app_module_record>.offset(of: \.factory)!, as: app_module_factory.self)
    }

    /// The bytes of the name, which a checked record terminates.
    func withNameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: address + ModuleRecord.nameOffset, count: Int(nameLength)))
    }

    var location: RecordLocation {
        let byteOffset = Int(UInt(bitPattern: address) - image.sectionStart)
        let sourceFile = ModuleRecord.sourceFile(at: address, memory: image.memory)
        return RecordLocation(index: byteOffset / ModuleRecord.size, byteOffset: byteOffset, sourceFile: sourceFile, image: image.path)
    }

    var declaration: ModuleDeclaration {
        ModuleRecord.declaration(at: address, location: location, memory: image.memory)
    }
}

/// The image whose section holds linked records: what their locations name.
///
/// One object per section for the life of the process, shared by every
/// record of the section: records refer to it without reference counting,
/// which keeps a descriptor a plain value that copies for free.
package final class SectionImage: Sendable {
    let path: String
    /// The address of the section's first byte: record indices count from
    /// here.
    let sectionStart: UInt
    /// Where the records' pointers may lead: the image's readable segments.
    let memory: ImageMemory

    private init(path: String, sectionStart: UInt, memory: ImageMemory) {
        self.path = path
        self.sectionStart = sectionStart
        self.memory = memory
    }

    private static let lock = PthreadMutex()
    // Under `lock`. An array, searched from the end: a process has a few
    // dozen images, and a dictionary's first use would look up its key's
    // Hashable conformance, which scans every image's conformance records:
    // most of a first discovery's time.
    nonisolated(unsafe) private static var all: [SectionImage] = []

    /// The one object for the section of `image`, made on first use and
    /// kept: a descriptor may outlive every registry.
    static func interned(_ image: LoadedImage) -> SectionImage {
        lock.withLock {
            if let known = all.last(where: { $0.sectionStart == image.sectionIdentity && $0.path == image.path }) {
                return known
            }
            let made = SectionImage(path: image.path, sectionStart: image.sectionIdentity, memory: image.memory)
            all.append(made)
            return made
        }
    }
}

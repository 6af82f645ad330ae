/// One pass over the bytes of an `app_modules` section: the modules its
/// records declare and every problem with them, in section order.
package struct SectionScan {
    /// Each valid module record's declaration and factory address.
    package private(set) var modules: [(declaration: ModuleDeclaration, factory: UInt64)] = []
    package private(set) var problems: [DiscoveryProblem] = []

    /// Reads every whole record in `section`, following pointers through
    /// `memory`; a tail shorter than a record is reported, not read. Record
    /// locations name `image`, when given.
    package init(_ section: UnsafeRawBufferPointer, memory: some RecordMemory, image: String? = nil) {
        if !section.count.isMultiple(of: ModuleRecord.size) {
            problems.append(.sectionNotWholeRecords(byteCount: section.count))
        }
        let slots = section.count / ModuleRecord.size
        modules.reserveCapacity(slots)
        var sourceFiles = SourceFileNames()
        for index in 0..<slots {
            let byteOffset = index * ModuleRecord.size
            switch ModuleRecord.decode(section, index: index, byteOffset: byteOffset, memory: memory, image: image, sourceFiles: &sourceFiles) {
            case .skipped:
                continue
            case .module(let declaration, let factory):
                modules.append((declaration, factory))
            case .defective(let location, let name, let defects):
                problems.append(.invalidRecord(location, name: name, defects))
            }
        }
    }

    /// Reads a section of this process.
    init(_ section: UnsafeRawBufferPointer) {
        self.init(section, memory: ProcessMemory())
    }

    /// Reads the section of a loaded image.
    init(_ image: LoadedImage) {
        self.init(image.section, memory: image.memory, image: image.path)
    }
}

/// One pass over the bytes of an `app_modules` section: the modules its
/// records declare and every problem with them, in section order.
struct SectionScan {
    private(set) var modules: [ModuleDescriptor] = []
    private(set) var problems: [DiscoveryProblem] = []

    /// Reads every whole record in `section`; a tail shorter than a record is
    /// reported, not read.
    init(_ section: UnsafeRawBufferPointer) {
        if !section.count.isMultiple(of: ModuleRecord.size) {
            problems.append(.sectionNotWholeRecords(byteCount: section.count))
        }
        let slots = section.count / ModuleRecord.size
        modules.reserveCapacity(slots)
        var sourceFiles = SourceFileNames()
        for index in 0..<slots {
            let byteOffset = index * ModuleRecord.size
            switch ModuleRecord.decode(section, index: index, byteOffset: byteOffset, sourceFiles: &sourceFiles) {
            case .skipped:
                continue
            case .module(let module):
                modules.append(module)
            case .defective(let location, let name, let defects):
                problems.append(.invalidRecord(location, name: name, defects))
            }
        }
    }
}

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
        for index in 0..<(section.count / ModuleRecord.size) {
            let byteOffset = index * ModuleRecord.size
            switch ModuleRecord.decode(section, index: index, byteOffset: byteOffset) {
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

/// The records of a loaded image's section, checked where they lie.
enum LinkedSection {
    /// Appends a descriptor for each valid module record of `image` to
    /// `modules`, building nothing but the descriptor; returns `false` if a
    /// record is defective or the section is not whole records, which
    /// ``SectionScan`` then describes.
    static func appendModules(of image: LoadedImage, to modules: inout [ModuleDescriptor]) -> Bool {
        let section = image.section
        let slots = section.count / ModuleRecord.size
        var isWhole = section.count.isMultiple(of: ModuleRecord.size)
        guard slots > 0 else { return isWhole }
        let origin = SectionImage.interned(image)
        modules.reserveCapacity(modules.count + slots)
        origin.memory.segments.withMemory { memory in
            for slot in 0..<slots {
                let byteOffset = slot * ModuleRecord.size
                switch ModuleRecord.check(section, byteOffset: byteOffset, memory: memory) {
                case .valid(let nameLength):
                    let record = LinkedRecord(address: section.baseAddress! + byteOffset, nameLength: nameLength, image: origin)
                    modules.append(ModuleDescriptor(.linked(record)))
                case .defective:
                    isWhole = false
                case .skipped:
                    continue
                }
            }
        }
        return isWhole
    }
}

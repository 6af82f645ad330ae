import CSectionRegistry
#if canImport(Glibc)
import Glibc
#endif

/// One image of this process (the program or a shared object) that carries
/// the SectionRegistry note, and the `app_modules` section the note leads
/// to.
///
/// Found with `dl_iterate_phdr`, which lists every loaded image with its
/// program headers: the note is in a `PT_NOTE` segment, so no section header
/// and no symbol of the image is needed, and nothing runs before `main`.
/// See "The image note" in `CSectionRegistry/include/RecordABI.md`.
package struct LoadedImage: Sendable {
    /// The file: as the dynamic linker names it, or the program's own path.
    package let path: String
    /// Whether this is the program rather than a shared object.
    package let isProgram: Bool
    /// How far above its file's addresses the image is mapped.
    package let loadBias: UInt
    /// Whether the image holds the copy of SectionRegistry running this code.
    package let holdsThisRegistry: Bool
    /// The section's bounds and anchor, as addresses.
    private let start: UInt, stop: UInt, anchor: UInt
    /// What is wrong with the image's notes, if anything.
    private let noteDefect: String?

    /// The section's bytes, between the image's `__start_app_modules` and
    /// `__stop_app_modules`.
    package var section: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: start), count: Int(stop - start))
    }

    /// What identifies the image's section process-wide: its start.
    package var sectionIdentity: UInt { start }

    /// Why the section cannot be read, or `nil`: a note of another layout,
    /// notes that disagree, or bounds that do not enclose the anchor.
    package var problem: DiscoveryProblem? {
        if let noteDefect { return .malformedNote(image: path, noteDefect) }
        guard start <= anchor, anchor < stop else { return .anchorOutsideSection(image: path) }
        return nil
    }

    /// Every loaded image that carries the note, the program first, each
    /// once.
    package static func all() -> [LoadedImage] {
        var images: [LoadedImage] = []
        withUnsafeMutablePointer(to: &images) { images in
            _ = app_modules_visit_loaded_images(#dsohandle, { image, context in
                context!.assumingMemoryBound(to: [LoadedImage].self).pointee.append(LoadedImage(image.pointee))
            }, images)
        }
        return images
    }

    private init(_ image: app_modules_image) {
        let name = String(cString: image.name)
        isProgram = name.isEmpty
        path = isProgram ? Self.programPath : name
        loadBias = image.load_bias
        holdsThisRegistry = image.holds_probe
        start = UInt(bitPattern: image.section.start)
        stop = UInt(bitPattern: image.section.stop)
        anchor = UInt(bitPattern: image.section.anchor)
        if image.unknown_descriptor_size != 0 {
            noteDefect = "its note has a \(image.unknown_descriptor_size)-byte descriptor, not \(APP_MODULE_NOTE_DESCRIPTOR_SIZE): "
                + "it was built against another version of SectionRegistry; rebuild it against this one"
        } else if image.conflicting_notes != 0 {
            noteDefect = "its notes lead to \(image.conflicting_notes + 1) different sections: "
                + "a linker script split the app_modules section; keep every input app_modules section in one output section"
        } else {
            noteDefect = nil
        }
    }

    /// Who registers `module`, for messages: "the program", or the shared
    /// object its record is in.
    package static func owner(of module: ModuleDescriptor) -> String {
        guard let image = module.image, image != programPath else { return "the program" }
        return "library \(image)"
    }

    /// The program's file, for messages: `dl_iterate_phdr` names it "".
    private static let programPath: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "the program"
    }()
}

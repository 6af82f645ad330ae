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

    /// The image's readable loaded segments: what its note and records may
    /// point into.
    package let segments: ImageSegments
    /// Why the section cannot be read, or `nil`: a note of another layout,
    /// notes that disagree, bounds outside the image's readable memory or
    /// backwards, or bounds that do not enclose the anchor. Decided once,
    /// when the image is listed, so that no later question reads through
    /// a note that failed.
    package let problem: DiscoveryProblem?

    /// Whether the image has no ``problem``: its section can be read.
    package var isReadable: Bool {
        // A pattern, not `problem == nil`: the comparison copies the
        // optional, which makes the runtime build its type's metadata on
        // first use, in every launch (tens of thousands of instructions).
        if case .some = problem { return false }
        return true
    }

    /// The section's bytes, between the image's `__start_app_modules` and
    /// `__stop_app_modules`; empty for an image with a ``problem``.
    package var section: UnsafeRawBufferPointer {
        guard isReadable else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: start), count: Int(stop - start))
    }

    /// What identifies the image's section process-wide: its start.
    package var sectionIdentity: UInt { start }

    /// Where the image's records may point: its readable segments.
    package var memory: ImageMemory { ImageMemory(segments) }

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
        segments = Self.readableSegments(of: image)
        problem = Self.problem(of: image, path: path, segments: segments, start: start, stop: stop, anchor: anchor)
    }

    private static func readableSegments(of image: app_modules_image) -> ImageSegments {
        withUnsafePointer(to: image) { image in
            // The C function writes its pairs of addresses straight into
            // the bounds: no array of the C struct, whose metadata the
            // runtime would make on first use.
            let count = app_modules_readable_segments(image, nil, 0)
            let bounds = [UInt](unsafeUninitializedCapacity: 2 * count) { buffer, initialized in
                let pairs = UnsafeMutableRawPointer(buffer.baseAddress)?.bindMemory(to: app_modules_segment.self, capacity: count)
                initialized = 2 * min(count, app_modules_readable_segments(image, pairs, count))
            }
            return ImageSegments(bounds: bounds)
        }
    }

    private static func problem(
        of image: app_modules_image, path: String, segments: ImageSegments, start: UInt, stop: UInt, anchor: UInt
    ) -> DiscoveryProblem? {
        if image.unknown_descriptor_size != 0 {
            return .malformedNote(
                image: path,
                "its note has a \(image.unknown_descriptor_size)-byte descriptor, not \(APP_MODULE_NOTE_DESCRIPTOR_SIZE): "
                    + "it was built against another version of SectionRegistry; rebuild it against this one")
        }
        if image.conflicting_notes != 0 {
            return .malformedNote(
                image: path,
                "its notes lead to \(image.conflicting_notes + 1) different sections: "
                    + "a linker script split the app_modules section; keep every input app_modules section in one output section")
        }
        return segments.boundsProblem(start: start, stop: stop, anchor: anchor, image: path)
    }

    /// Who registers `module`, for messages: "the program", or the shared
    /// object its record is in.
    package static func owner(of module: ModuleDescriptor) -> String {
        guard let image = module.image, image != programPath else { return "the program" }
        return "library \(image)"
    }

    /// The program's file, for messages: `dl_iterate_phdr` names it "".
    private static let programPath: String = {
        withUnsafeTemporaryAllocation(byteCount: Int(PATH_MAX), alignment: 1) { buffer in
            let count = readlink("/proc/self/exe", buffer.baseAddress!.assumingMemoryBound(to: CChar.self), buffer.count)
            return count > 0 ? String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<count]), as: UTF8.self) : "the program"
        }
    }()
}

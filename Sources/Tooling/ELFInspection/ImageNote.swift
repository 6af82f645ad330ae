import CSectionRegistry

/// The SectionRegistry note of an image, read from its allocated note
/// sections as the runtime reads it from the `PT_NOTE` segments: owner
/// `SectionRegistry`, type `0x53520001`, and a descriptor of three 32-bit
/// offsets, each from its own field, to `__start_app_modules`,
/// `__stop_app_modules` and the anchor (`RecordABI.md`, "The image note").
package struct ImageNote: Sendable, Equatable {
    /// Where the note says the section starts and stops, and where the
    /// anchor is, as run-time addresses before any load bias.
    package let start: UInt64, stop: UInt64, anchor: UInt64
    /// How many notes the image has: one per object file that registers a
    /// module, plus the anchor's; all lead to one section.
    package let count: Int

    /// The image's note, or why it cannot lead the runtime to `section`.
    static func read(from file: ELFFile, for section: ELFFile.Section) throws(ELFError) -> Result<ImageNote, NoteProblem> {
        var found: [ImageNote] = []
        for notes in file.sections where notes.type == ELFFile.Section.note && notes.isAllocated {
            let bytes = Array(try file.contents(of: notes))
            let reader = ByteReader(bytes)
            let padding = notes.alignment == 8 ? 8 : 4
            var entry = 0
            while entry + 12 <= bytes.count {
                let what = "a note in \(notes.name)"
                let nameSize = Int(try reader.u32(entry, what))
                let descriptorSize = Int(try reader.u32(entry + 4, what))
                let type = try reader.u32(entry + 8, what)
                let name = entry + 12
                // Padding aligns offsets in the section, whose start is
                // aligned: the name and the descriptor each end padded.
                let descriptor = (name + nameSize).roundedUp(to: padding)
                guard nameSize <= bytes.count, descriptorSize <= bytes.count, descriptor + descriptorSize <= bytes.count else {
                    throw .truncated(what)
                }
                entry = (descriptor + descriptorSize).roundedUp(to: padding)
                guard type == UInt32(APP_MODULE_NOTE_TYPE), nameSize == Int(APP_MODULE_NOTE_OWNER_SIZE),
                      bytes[name..<(name + nameSize)].elementsEqual(Array(APP_MODULE_NOTE_OWNER.utf8) + [0]) else { continue }
                guard descriptorSize == Int(APP_MODULE_NOTE_DESCRIPTOR_SIZE) else {
                    return .failure(.unknownLayout(descriptorSize: descriptorSize))
                }
                func target(_ field: Int) throws(ELFError) -> UInt64 {
                    let offset = Int32(bitPattern: try reader.u32(descriptor + 4 * field, what))
                    return notes.address &+ UInt64(descriptor + 4 * field) &+ UInt64(bitPattern: Int64(offset))
                }
                found.append(ImageNote(start: try target(0), stop: try target(1), anchor: try target(2), count: 0))
            }
        }
        guard let first = found.first else { return .failure(.missing) }
        guard found.allSatisfy({ $0.start == first.start && $0.stop == first.stop && $0.anchor == first.anchor }) else {
            return .failure(.disagree(count: found.count))
        }
        let note = ImageNote(start: first.start, stop: first.stop, anchor: first.anchor, count: found.count)
        let (end, overflow) = section.address.addingReportingOverflow(section.size)
        guard note.start == section.address, note.stop == end, !overflow else {
            // Ranges as far as they are ranges: a corrupt file may give any
            // values.
            return .failure(.boundsDiffer(note: note.start..<max(note.start, note.stop),
                                          section: section.address..<(overflow ? .max : end)))
        }
        guard note.start <= note.anchor, note.anchor < note.stop else { return .failure(.anchorOutside) }
        return .success(note)
    }
}

/// Why an image's note would not lead the runtime to its records.
package enum NoteProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// No SectionRegistry note: the runtime would never find this image.
    case missing
    /// A note of another descriptor size: another version of the ABI.
    case unknownLayout(descriptorSize: Int)
    /// The notes lead to different sections.
    case disagree(count: Int)
    /// The note's bounds are not the `app_modules` section's.
    case boundsDiffer(note: Range<UInt64>, section: Range<UInt64>)
    /// The anchor the note names is outside the bounds it names.
    case anchorOutside

    package var description: String {
        switch self {
        case .missing:
            "no SectionRegistry note (.note.app_modules): at run time nothing finds this image's modules; "
                + "link CSectionRegistry (its app_modules_section.c) into the image and rebuild its registration targets against this app_module.h"
        case .unknownLayout(let size):
            "the SectionRegistry note has a \(size)-byte descriptor, not \(APP_MODULE_NOTE_DESCRIPTOR_SIZE): "
                + "it was built against another version of SectionRegistry; rebuild it against this one"
        case .disagree(let count):
            "the \(count) SectionRegistry notes lead to different sections: a linker script split app_modules; keep it one output section"
        case .boundsDiffer(let note, let section):
            "the SectionRegistry note leads to \(hex(note)), but app_modules is \(hex(section)): "
                + "a linker script moved or split the section; keep every input app_modules section in one output section"
        case .anchorOutside:
            "the anchor record the SectionRegistry note names lies outside app_modules: the section was split; keep it one output section"
        }
    }
}

private func hex(_ range: Range<UInt64>) -> String {
    "0x" + String(range.lowerBound, radix: 16) + "..0x" + String(range.upperBound, radix: 16)
}

extension Int {
    fileprivate func roundedUp(to alignment: Int) -> Int {
        (self + alignment - 1) / alignment * alignment
    }
}

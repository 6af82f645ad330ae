import CSectionRegistry

/// Something wrong with one module record, said so that the fix is clear.
package enum RecordDefect: Sendable, Hashable, CustomStringConvertible {
    /// The record's ABI version is not the one this reader implements.
    case unsupportedVersion(UInt16)
    /// The record's size field is not the size of a version-2 record.
    case wrongSize(UInt16)
    /// The record sets flags that version 2 does not define (these bits).
    case unknownFlags(UInt32)
    /// The record's level is none of the ``ModuleLevel`` tiers.
    case unknownLevel(UInt8)
    /// A reserved field is not zero.
    case nonzeroReserved
    /// The name fills its whole field without a terminating NUL.
    case unterminatedName
    /// The name is empty.
    case emptyName
    /// The name is not valid UTF-8.
    case nameNotUTF8
    /// The name holds a comma, white space or a control character, which
    /// would make it impossible to name in an `.after` list.
    case invalidNameCharacter(String)
    /// The factory pointer is null.
    case missingFactory
    /// The `.after` list is not valid UTF-8.
    case dependenciesNotUTF8
    /// The `.after` pointer leads outside the image's readable data, or to
    /// bytes with no NUL before that data ends.
    case unreadableDependencies
    /// The `source_file` pointer leads outside the image's readable data,
    /// or to bytes with no NUL before that data ends.
    case unreadableSourceFile
    /// The `.after` list has an empty entry.
    case emptyDependency(list: String)
    /// The record's size counts text slots that run past the section's end.
    case textSlotsPastSectionEnd(UInt16)
    /// The slot this many slots after the record, which its size counts as
    /// a text slot, is of another kind.
    case notATextSlot(Int)
    /// A text slot names a field version 2 does not define.
    case unknownTextField(UInt8)
    /// Two text slots of the record hold the same field.
    case duplicateTextField(UInt8)
    /// A text slot's text fills its field without a terminating NUL.
    case unterminatedText(UInt8)
    /// A record with text slots also has an `.after` or `source_file`
    /// pointer.
    case pointerBesideTextSlots
    /// A record with text slots lacks its anchor reference.
    case missingAnchorReference

    public var description: String {
        let rebuild = "rebuild its registration target against this SectionRegistry's app_module.h"
        let corrupt = "the record is corrupt; write records with APP_MODULE or @AppModule and rebuild"
        switch self {
        case .unsupportedVersion(let version):
            return "has record ABI version \(version), this reader implements version \(APP_MODULE_ABI_VERSION): \(rebuild)"
        case .wrongSize(let size):
            return "says it is \(size) bytes, a version-\(APP_MODULE_ABI_VERSION) record is \(ModuleRecord.size), or \(ModuleRecord.size) more for each text slot after it (at most \(ModuleRecord.maximumSize)): \(rebuild)"
        case .unknownFlags(let flags):
            return "sets flags 0x\(String(flags, radix: 16)), which version \(APP_MODULE_ABI_VERSION) does not define: \(rebuild)"
        case .unknownLevel(let level):
            return "has level \(level); use APP_MODULE_LEVEL_CORE, _SERVICE, _FEATURE or _LATE"
        case .nonzeroReserved:
            return "has non-zero reserved fields: write records with APP_MODULE, not by hand"
        case .unterminatedName:
            return "has a name that fills all \(ModuleRecord.nameCapacity) bytes with no NUL: names are at most \(ModuleRecord.nameCapacity - 1) bytes"
        case .emptyName:
            return "has an empty name"
        case .nameNotUTF8:
            return "has a name that is not valid UTF-8"
        case .invalidNameCharacter(let name):
            return "has the name \"\(name)\", which holds a comma, white space or a control character: module names are C identifiers"
        case .missingFactory:
            return "has no factory: define it in Swift with @c(app_module_NAME)"
        case .dependenciesNotUTF8:
            return "has an .after list that is not valid UTF-8"
        case .unreadableDependencies:
            return "has an .after pointer that leads outside the image's readable data, or to a string with no NUL inside it: \(corrupt)"
        case .unreadableSourceFile:
            return "has a source_file pointer that leads outside the image's readable data, or to a string with no NUL inside it: \(corrupt)"
        case .emptyDependency(let list):
            return "has an empty name in its .after list \"\(list)\": separate module names with single commas"
        case .textSlotsPastSectionEnd(let size):
            return "says it is \(size) bytes, which runs past the end of the section: \(corrupt)"
        case .notATextSlot(let distance):
            return "is followed by a slot that is not a text slot \(distance) slot\(distance == 1 ? "" : "s") after it, where its size says its texts are: \(corrupt)"
        case .unknownTextField(let field):
            return "has a text slot for field \(field), which version \(APP_MODULE_ABI_VERSION) does not define (1 is .after, 2 the source file): \(rebuild)"
        case .duplicateTextField(let field):
            return "has two text slots for field \(field): \(corrupt)"
        case .unterminatedText(let field):
            return "has a text slot for field \(field) whose text fills all \(ModuleRecord.textCapacity) bytes with no NUL: \(corrupt)"
        case .pointerBesideTextSlots:
            return "has text slots and an .after or source_file pointer as well: \(corrupt)"
        case .missingAnchorReference:
            return "has text slots but no anchor reference in reserved1[0]: \(corrupt)"
        }
    }
}

/// One reason discovery cannot produce a registry, specific enough to act on.
package enum DiscoveryProblem: Sendable, Hashable, CustomStringConvertible {
    /// The section is not a whole number of records: records of another
    /// size or alignment were linked in.
    case sectionNotWholeRecords(byteCount: Int)
    /// The anchor record of the image at `image` is not between its
    /// `__start_app_modules` and `__stop_app_modules`: the bounds do not
    /// describe the section.
    case anchorOutsideSection(image: String)
    /// The SectionRegistry note of the image at `image` cannot be used; the
    /// text says why and what to do.
    case malformedNote(image: String, String)
    /// The image at `image` registers modules built against the copy of
    /// SectionRegistry in `copyIn` (its own, or a shared one the program
    /// does not use), not the one running: its modules would not be this
    /// program's `AppModule`s.
    case ownRegistryCopy(image: String, copyIn: String)
    /// More than one copy of SectionRegistry is loaded, in the files named:
    /// which one each image's modules use then depends on the load order.
    case severalRegistryCopies([String])
    /// The section holds no module record at all.
    case noModules
    /// A module record fails the checks of the record ABI.
    case invalidRecord(RecordLocation, name: String?, [RecordDefect])
    /// Two modules have one name; a `nil` location is a module declared in
    /// Swift.
    case duplicateName(String, RecordLocation?, RecordLocation?)

    /// The fix for every problem of two copies of SectionRegistry, in one
    /// wording wherever it is given.
    package static let oneCopyAdvice =
        "link SectionRegistry dynamically in the program and in every library with modules: depend on the SectionRegistryDynamic product"

    public var description: String {
        switch self {
        case .sectionNotWholeRecords(let byteCount):
            return "the app_modules section is \(byteCount) bytes, not a whole number of \(ModuleRecord.size)-byte records: "
                + "some record was compiled with another layout or alignment; rebuild every registration target against one app_module.h"
        case .anchorOutsideSection(let image):
            return "\(image): the anchor record lies outside __start_app_modules..__stop_app_modules: "
                + "a linker script or section rename split the app_modules section; keep every input app_modules section in one output section"
        case .malformedNote(let image, let reason):
            return "\(image): \(reason)"
        case .ownRegistryCopy(let image, let copyIn):
            let copy = copyIn == image ? "carries its own copy of SectionRegistry" : "uses the copy of SectionRegistry in \(copyIn)"
            return "\(image) \(copy), not the one this program runs: its modules would not be this program's AppModule type. "
                + Self.oneCopyAdvice
        case .severalRegistryCopies(let files):
            return "\(files.count) copies of SectionRegistry are loaded, in \(files.joined(separator: ", ")): which one each image's modules "
                + "use depends on the load order. A program or library that links the SectionRegistry product statically carries a copy; "
                + Self.oneCopyAdvice
        case .noModules:
            return "the app_modules section holds no module records. If modules are linked, the linker dropped their records: "
                + "check the binary with scripts/verify-sections.sh; records in a static archive that nothing references are not linked "
                + "(link their object files directly, as SwiftPM does, or the whole archive: -Wl,--whole-archive LIB.a -Wl,--no-whole-archive "
                + "with clang or gcc, -Xlinker --whole-archive -Xlinker LIB.a -Xlinker --no-whole-archive with swiftc)"
        case .invalidRecord(let location, let name, let defects):
            let subject = name.map { "module '\($0)', \(location)," } ?? "\(location)"
            return defects.map { "\(subject) \($0)" }.joined(separator: "\n")
        case .duplicateName(let name, let first, let second):
            let places = [first, second].map { $0.map(String.init(describing:)) ?? "a Swift declaration" }
            return "module '\(name)' is registered twice, by \(places[0]) and by \(places[1]): remove one registration (APP_MODULE(\(name)) or @AppModule on a type \(name)) or rename a module"
        }
    }
}

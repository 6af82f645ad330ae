#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ModuleRecords

/// A program, or a plugin, and the shared objects it needs, found as the
/// dynamic linker finds them, each with its module records: what
/// ``ModuleRegistry/linked()`` reads at run time in a process of that
/// program, or what ``ModuleHost/load(plugin:)`` adds to it.
///
/// Libraries are looked up as glibc's dynamic linker does, less its cache:
/// a name with a slash as it is; else in `LD_LIBRARY_PATH`, the needing
/// image's `DT_RUNPATH` (or `DT_RPATH`) with `$ORIGIN` expanded, and the
/// default folders.
package struct LinkedImages: Sendable {
    /// One image: its file and, if it has an `app_modules` section, its
    /// records.
    package struct Image: Sendable {
        package let path: String
        package let file: ELFFile
        /// `nil` for an image without an `app_modules` section: it registers
        /// nothing, as the runtime finds no note in it.
        package let inspection: ModuleInspection?
    }

    /// The images in the dynamic linker's load order: the root first, then
    /// what it needs, breadth first, each once; for a plugin, only those
    /// that the program had not loaded.
    package let images: [Image]
    /// Names of needed libraries not found (system libraries the cache
    /// would find, usually): they are not read.
    package let notFound: [String]

    /// The image at `path` and the libraries it needs. For a plugin, `host`
    /// is the program's set: libraries the program loads are not loaded
    /// again.
    package init(_ path: String, host: LinkedImages? = nil, environment: [String: String] = [:]) throws(LinkedImagesError) {
        var loaded = Set(host?.images.map { URL(fileURLWithPath: $0.path).lastPathComponent } ?? [])
        var images: [Image] = []
        var notFound: [String] = []
        var queue = [(path: path, name: URL(fileURLWithPath: path).lastPathComponent)]
        let libraryPath = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
        while !queue.isEmpty {
            let next = queue.removeFirst()
            let image = try Self.read(next.path, isRoot: images.isEmpty)
            images.append(image)
            loaded.insert(next.name)
            let dependencies: (needed: [String], searchPaths: [String])
            do {
                dependencies = try image.file.dynamicDependencies()
            } catch {
                throw LinkedImagesError(path: next.path, reason: "\(error)")
            }
            let origin = URL(fileURLWithPath: next.path).deletingLastPathComponent().path
            let folders = libraryPath + dependencies.searchPaths.map { $0.hasPrefix("$ORIGIN") ? origin + $0.dropFirst(7) : $0 }
                + Self.defaultFolders
            for name in dependencies.needed where !loaded.contains(name) && !queue.contains(where: { $0.name == name }) {
                let candidates = name.contains("/") ? [name] : folders.map { $0 + "/" + name }
                if let found = candidates.first(where: FileManager.default.fileExists(atPath:)) {
                    queue.append((found, name))
                } else {
                    notFound.append(name)
                }
            }
        }
        self.images = images
        self.notFound = notFound
    }

    private static let defaultFolders = ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                                         "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib"]

    private static func read(_ path: String, isRoot: Bool) throws(LinkedImagesError) -> Image {
        guard let data = FileManager.default.contents(atPath: path) else { throw LinkedImagesError(path: path, reason: "cannot read the file") }
        let file: ELFFile
        do {
            file = try ELFFile(bytes: Array(data))
        } catch {
            throw LinkedImagesError(path: path, reason: "\(error)")
        }
        switch Result(catching: { () throws(InspectionError) in try ModuleInspection(file, image: isRoot ? nil : path) }) {
        case .success(let inspection):
            return Image(path: path, file: file, inspection: inspection)
        case .failure(.noSection) where !isRoot:
            return Image(path: path, file: file, inspection: nil)
        case .failure(let error):
            throw LinkedImagesError(path: path, reason: "\(error)")
        }
    }

    /// The images that register modules.
    package var withModules: [Image] {
        images.filter { $0.inspection?.records.isEmpty == false }
    }
}

/// An image of the set cannot be read or inspected.
package struct LinkedImagesError: Error, Sendable, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String { "\(path): \(reason)" }
}

extension LinkedImages {
    /// Every reason for which ``ModuleRegistry/linked()`` in a process of
    /// this program would throw; with `host`, for which
    /// ``ModuleHost/load(plugin:)`` of this plugin into a process of `host`
    /// would refuse it. The runtime's rules, applied to the files: each
    /// image's records and note, a copy of SectionRegistry other than the
    /// program's, one name in two modules, and the start order of all the
    /// modules together.
    package func problems(asPluginOf host: LinkedImages? = nil) -> [String] {
        var problems = imageProblems
        let program = host ?? self
        let ours = program.registryCopy(ofProgram: ())
        for image in withModules {
            let theirs = registryCopy(of: image, host: host)
            if let theirs, theirs != ours {
                problems.append(DiscoveryProblem.ownRegistryCopy(image: image.path, copyIn: theirs).description)
            }
        }
        let loaded = (host?.images ?? []) + images
        let copies = loaded.filter { Self.definesAppModule($0, inSymbolTable: $0.path == loaded.first?.path) }.map(\.path)
        if copies.count > 1 && !withModules.isEmpty {
            problems.append(DiscoveryProblem.severalRegistryCopies(copies).description)
        }
        let hostRecords = host?.withModules.flatMap { image in image.inspection!.records.map { ($0, image.path) } } ?? []
        let hostNames = Dictionary(hostRecords.map { ($0.0.declaration.name, $0.1) }, uniquingKeysWith: { first, _ in first })
        let records = withModules.flatMap { $0.inspection!.records }
        if records.isEmpty {
            problems.append(DiscoveryProblem.noModules.description)
        }
        for record in records {
            if let owner = hostNames[record.declaration.name] {
                problems.append("module '\(record.declaration.name)' is registered by \(owner) already: rename one of them")
            }
        }
        if withModules.count > 1 {
            // Within one image, the image's own inspection reported them.
            let checked = RegistryRules.check(records.map(\.declaration), problems: [])
            problems += checked.problems.compactMap { problem in
                if case .duplicateName = problem { problem.description } else { nil }
            }
        }
        // A factory whose registration is in no image of the set.
        let registered = Set(records.map(\.declaration.name) + hostRecords.map(\.0.declaration.name))
        let orphans = images.compactMap(\.inspection).flatMap(\.orphanFactories).filter { !registered.contains($0) }
        problems += orphans.map(RegistryRules.orphanFactoryProblem)
        do {
            _ = try StartOrder.resolve(hostRecords.map(\.0.declaration) + records.map(\.declaration), disabled: [])
        } catch {
            problems += error.orderingProblems.map(\.description)
        }
        return problems
    }

    /// What is wrong with each image on its own, its records and its note,
    /// one line each; a library's lines start with its path.
    package var imageProblems: [String] {
        images.flatMap { image -> [String] in
            guard let inspection = image.inspection else { return [] }
            let prefix = image.path == images.first?.path ? "" : "\(image.path): "
            // An image without modules is fine (a shared copy of
            // SectionRegistry has only its anchor); the set needs one.
            let ownProblems = inspection.problems.filter { $0 != .noModules }
            var lines = ownProblems.flatMap { $0.description.split(separator: "\n").map { prefix + $0 } }
            if case .failure(let note) = inspection.note { lines.append(prefix + note.description) }
            return lines
        }
    }

    /// Every module of the set in declared order (as the runtime lists
    /// the modules of a process), each with the image that registers it:
    /// `nil` for the root.
    package var modules: [(record: ModuleInspection.Record, image: String?)] {
        let all = withModules.flatMap { image in
            image.inspection!.records.map { ($0, image.path == images.first?.path ? nil : image.path) }
        }
        return RegistryRules.check(all.map(\.0.declaration), problems: []).declaredOrder.map { all[$0] }
    }

    private static let appModuleDescriptor = "$s15SectionRegistry9AppModuleMp"

    private static func definesAppModule(_ image: Image, inSymbolTable: Bool = false) -> Bool {
        (try? image.file.defines(appModuleDescriptor, in: ".dynsym")) == true
            || (inSymbolTable && (try? image.file.defines(appModuleDescriptor, in: ".symtab")) == true)
    }

    /// The file of the copy of SectionRegistry the program's own code uses:
    /// its own (linked statically), or the first exported one it loads.
    func registryCopy(ofProgram: Void) -> String? {
        guard let program = images.first else { return nil }
        if Self.definesAppModule(program, inSymbolTable: true) { return program.path }
        return images.first(where: { Self.definesAppModule($0) })?.path
    }

    /// The file of the copy of SectionRegistry `image`'s references bind
    /// to: its own definition (Swift's public symbols are protected), else
    /// the first in the global scope (the program's set), else, for a
    /// plugin opened `RTLD_LOCAL`, the first among its own.
    func registryCopy(of image: Image, host: LinkedImages?) -> String? {
        if Self.definesAppModule(image) { return image.path }
        let globalScope = (host ?? self).images
        let localScope = host == nil ? [] : images
        return (globalScope + localScope).first(where: { Self.definesAppModule($0) })?.path
    }
}

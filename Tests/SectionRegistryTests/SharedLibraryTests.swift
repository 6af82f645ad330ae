import Foundation
import Testing

/// Features in shared objects linked at build time, and a plugin that brings
/// a library of its own (Tests/Fixtures/SharedLibraries), built by SwiftPM
/// with each linker and run: every image that registers modules is found
/// through its note, with no extra call, each once.
@Suite(.serialized) struct SharedLibraryTests {
    let appPackage = packageRoot.appendingPathComponent("Tests/Fixtures/SharedLibraries/App")

    /// A build of the fixture app: `shared-app`, `static-copy-app`,
    /// `own-copy-app` and libReportsPlugin.so, in one bin folder.
    struct Build {
        let bin: String
        var app: String { bin + "/shared-app" }
        var plugin: String { bin + "/libReportsPlugin.so" }
        /// Every image that registers modules, or carries a note.
        var images: [String] {
            [app, plugin] + ["Inventory", "Pricing", "Stock", "Charts", "SectionRegistryDynamic"].map { bin + "/lib\($0).so" }
        }
    }

    /// The fixture's products in `configuration` (debug, release), linked
    /// by `linker`; `variant` and `linkArguments` name and add link flags.
    func build(_ configuration: String, linker: String = "gold", variant: String = "", linkArguments: [String] = []) async throws -> Build {
        let build = try await LinkedBuilds.shared.build(
            ["shared-app", "static-copy-app", "own-copy-app", "ReportsPlugin"], of: appPackage,
            scratch: "shared-libraries-\(configuration)", arguments: ["-c", configuration],
            linker: linker, variant: variant, linkArguments: linkArguments)
        return Build(bin: build.bin)
    }

    /// Ledger, Stock and Exports are registered from Swift, the others in C.
    static let expectedRun = [
        "linked: Gateway (shared-app), Stock (libStock.so), Inventory (libInventory.so), Ledger (shared-app), Pricing (libPricing.so)",
        "  Gateway: started",
        "  Inventory: started",
        "  Stock: started",
        "  Ledger: started",
        "  Pricing: started",
        "  Charts: started",
        "  Reports: started",
        "  Exports: started",
        "loaded libReportsPlugin.so: Charts, Reports, Exports",
        "running: Gateway, Inventory, Stock, Ledger, Pricing, Charts, Reports, Exports",
        "ping: Gateway, Inventory, Stock, Ledger, Pricing, Charts, Reports, Exports",
        "  Exports: stopped",
        "  Reports: stopped",
        "  Charts: stopped",
        "  Pricing: stopped",
        "  Ledger: stopped",
        "  Stock: stopped",
        "  Inventory: stopped",
        "  Gateway: stopped",
        "stopped: Exports, Reports, Charts, Pricing, Ledger, Stock, Inventory, Gateway",
    ]

    /// Each linker, in debug and in release (which links with
    /// --gc-sections), and lld with -z start-stop-gc on top.
    static let configurations = ["gold", "lld", "bfd"].flatMap { linker in ["debug", "release"].map { "\(linker)-\($0)" } }
        + ["lld-release-start-stop-gc"]

    @Test(arguments: configurations)
    func buildTimeLibrariesAndAPluginsLibraryAreRegisteredEachOnce(configuration label: String) async throws {
        let parts = label.split(separator: "-", maxSplits: 2).map(String.init)
        let startStopGC = parts.count == 3
        let built = try await build(parts[1], linker: parts[0], variant: startStopGC ? "-start-stop-gc" : "",
                                    linkArguments: startStopGC ? ["-Xlinker", "-z", "-Xlinker", "start-stop-gc"] : [])
        // The libraries are linked at build time: nothing but the program's
        // own reading of its registry finds them.
        let needed = try await runCommand(["readelf", "-dW", built.app]).output
        #expect(needed.contains("[libInventory.so]") && needed.contains("[libPricing.so]") && needed.contains("[libStock.so]"))
        #expect(!needed.contains("[libCharts.so]"), "Charts comes with the plugin only")

        let run = try await runCommand([built.app, built.plugin])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.split(separator: "\n").map(String.init) == Self.expectedRun, "\(run.output)")
    }

    @Test func everyImageCarriesTheNoteWithoutADynamicRelocation() async throws {
        let built = try await build("debug")
        for image in built.images {
            let notes = try await runCommand(["readelf", "-nW", image]).output
            #expect(notes.contains("SectionRegistry") && notes.contains("0x53520001"), "\(image): \(notes)")
            let note = try await #require(try noteSection(of: image), "\(image) has no .note.app_modules")
            let relocations = try await runCommand(["readelf", "-rW", image]).output
            let offsets = relocations.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first.flatMap { UInt64($0, radix: 16) }
            }
            #expect(!offsets.isEmpty, "\(image): readelf -r lists the image's other relocations")
            #expect(!offsets.contains { note.contains($0) }, "\(image): a dynamic relocation in the note")
        }
    }

    @Test func aLibraryBuiltAgainstAnotherCopyOfSectionRegistryIsRefusedByName() async throws {
        // static-copy-app links SectionRegistry statically; libRogue.so
        // links a copy of its own; libInventory.so uses the program's (the
        // linker exports it, since the library refers to it), but brings
        // libSectionRegistryDynamic.so, a third copy.
        let built = try await build("debug")
        let run = try await runCommand([built.bin + "/static-copy-app"])
        #expect(run.status == 1)
        #expect(run.output.contains("SectionRegistry: 2 problems"), "\(run.output)")
        #expect(run.output.contains("\(built.bin)/libRogue.so carries its own copy of SectionRegistry, not the one this program runs"), "\(run.output)")
        #expect(run.output.contains("depend on the SectionRegistryDynamic product"))
        #expect(!run.output.contains("libInventory.so carries"))
        #expect(run.output.contains("3 copies of SectionRegistry are loaded"), "\(run.output)")
    }

    @Test func aLibraryWhoseCopyTheProgramBindsToIsRefusedToo() async throws {
        // own-copy-app links SectionRegistryDynamic, but libRogue.so comes
        // first in its load order: the program binds to libRogue's copy, and
        // whether the modules work would hang on that order.
        let built = try await build("debug")
        let needed = try await runCommand(["readelf", "-dW", built.bin + "/own-copy-app"]).output
        #expect(needed.contains("[libRogue.so]") && needed.contains("[libSectionRegistryDynamic.so]"))
        let run = try await runCommand([built.bin + "/own-copy-app"])
        #expect(run.status == 1)
        #expect(run.output.contains("2 copies of SectionRegistry are loaded"), "\(run.output)")
        #expect(run.output.contains("\(built.bin)/libRogue.so") && run.output.contains("\(built.bin)/libSectionRegistryDynamic.so"))
        #expect(!run.output.contains("linked:"))
    }

    @Test func theInspectorChecksAProgramWithTheLibrariesItNeeds() async throws {
        let built = try await build("debug")
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")

        let program = try await runCommand([inspector.binary, "check", built.app, "--expect", "Inventory", "--expect", "Pricing"])
        #expect(program.status == 0, "\(program.output)")
        #expect(program.output.contains("5 modules, all checks passed"))
        #expect(program.output.contains("\(built.bin)/libInventory.so: Inventory"), "\(program.output)")
        // Registered from Swift, in the program and in a library.
        #expect(program.output.contains("\(built.app): Gateway, Ledger"), "\(program.output)")
        #expect(program.output.contains("\(built.bin)/libStock.so: Stock"), "\(program.output)")

        let plugin = try await runCommand([inspector.binary, "check", built.plugin, "--host", built.app])
        #expect(plugin.status == 0, "\(plugin.output)")
        #expect(plugin.output.contains("\(built.bin)/libCharts.so: Charts"), "\(plugin.output)")
        #expect(plugin.output.contains("\(built.plugin): Reports, Exports"), "\(plugin.output)")

        // What linked() refuses at run time, the inspector refuses offline.
        let copies = try await runCommand([inspector.binary, "check", built.bin + "/static-copy-app"])
        #expect(copies.status == 1)
        #expect(copies.output.contains("\(built.bin)/libRogue.so carries its own copy of SectionRegistry"), "\(copies.output)")
        #expect(!copies.output.contains("libInventory.so carries"))
        #expect(copies.output.contains("3 copies of SectionRegistry are loaded"))
        let ownCopy = try await runCommand([inspector.binary, "check", built.bin + "/own-copy-app"])
        #expect(ownCopy.status == 1)
        #expect(ownCopy.output.contains("2 copies of SectionRegistry are loaded"), "\(ownCopy.output)")
    }

    /// `graph` and `inspect` read the program and the libraries it needs,
    /// as `check` does: a library's modules are drawn, marked with their
    /// file, and `--disable` knows them. verify-sections.sh reads one file
    /// and says which.
    @Test func graphAndInspectShowTheModulesOfTheLibrariesAProgramNeedsAndTheScriptSaysItReadsOneFile() async throws {
        let built = try await build("debug")
        let inspector = try await swiftBuild("section-registry", scratch: "debug")
        try #require(inspector.result.status == 0, "\(inspector.result.output)")

        let graph = try await runCommand([inspector.binary, "graph", built.app])
        #expect(graph.status == 0, "\(graph.output)")
        #expect(graph.output.contains("\"Inventory\" [label=\"2. Inventory\\npriority 0\\nin libInventory.so\"];"), "\(graph.output)")
        #expect(graph.output.contains("\"Pricing\" [label=\"5. Pricing\\npriority 0\\nin libPricing.so\"];"), "\(graph.output)")
        #expect(graph.output.contains("\"Gateway\" [label=\"1. Gateway\\npriority 0\"];"), "\(graph.output)")

        let disabled = try await runCommand([inspector.binary, "graph", built.app, "--format", "mermaid", "--disable", "Pricing"])
        #expect(disabled.status == 0, "\(disabled.output)")
        #expect(disabled.output.contains("Pricing[\"Pricing<br/>priority 0<br/>in libPricing.so<br/>disabled\"]"), "\(disabled.output)")

        let inspect = try await runCommand([inspector.binary, "inspect", built.app])
        #expect(inspect.status == 0, "\(inspect.output)")
        #expect(inspect.output.contains("Pricing    feature  0         Inventory  -                 app_module_Pricing    pricing.c            libPricing.so"),
                "\(inspect.output)")
        // A record written from Swift: its factory is a closure, its texts inline.
        #expect(inspect.output.contains("Ledger     feature  0         Gateway    concurrent-start  @AppModule Ledger()   Ledger/Ledger.swift  -"),
                "\(inspect.output)")
        #expect(inspect.output.contains("\(built.bin)/libInventory.so: note: SectionRegistry 0x53520001"), "\(inspect.output)")

        // The readelf script reads the one file, and says so.
        let script = try await runCommand([verifySectionsScript, built.app, "Pricing"])
        #expect(script.status == 1)
        #expect(script.output.contains("read \(built.app) only, not the shared objects it needs (libStock.so libPricing.so libInventory.so"), "\(script.output)")
    }

    @Test(arguments: [["-Xswiftc", "-static-executable"], ["--static-swift-stdlib"]])
    func aStaticBuildFindsItsOwnModules(flags: [String]) async throws {
        let build = try await swiftBuild("registry-example", scratch: "static\(flags.joined())",
                                   extraArguments: ["-c", "release"] + flags)
        try #require(build.result.status == 0, "\(build.result.output)")
        let needed = try await runCommand(["readelf", "-dW", build.binary]).output
        #expect(!needed.contains("libswiftCore.so"), "\(needed)")
        #expect(try await runCommand(["readelf", "-nW", build.binary]).output.contains("SectionRegistry"))
        let run = try await runCommand([build.binary])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("Running: Accounts, Search, Billing, Audit"), "\(run.output)")
    }

    /// The address range of `.note.app_modules` in `image`.
    func noteSection(of image: String) async throws -> Range<UInt64>? {
        let sections = try await runCommand(["readelf", "-SW", image]).output
        guard let line = sections.split(separator: "\n").first(where: { $0.contains(" .note.app_modules ") }) else { return nil }
        // [Nr] Name Type Address Off Size ...
        let fields = line.split(separator: "]").last!.split(separator: " ")
        guard fields.count > 4, let address = UInt64(fields[2], radix: 16), let size = UInt64(fields[4], radix: 16) else { return nil }
        return address..<(address + size)
    }
}

// A feature registered from Swift: one target, no C registration target,
// no @c factory. It needs the Macros trait, so the example links it only
// then (Package.swift):
//
//   swift run --traits Macros registry-example
#if Macros
import ExampleContracts
import SectionRegistry

/// The books: balanced after billing has run.
@AppModule(after: ["Billing"])
struct Ledger: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        context.on(DailyReport.self) { report in "Ledger: books balanced on \(report.day)" }
    }

    func start(_ context: ModuleContext) async throws {
        context.log("    Ledger: opened the books (registered with @AppModule, no C target)")
    }
}
#endif

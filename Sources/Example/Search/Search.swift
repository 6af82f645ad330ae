import SectionRegistry

@c(app_module_Search) func makeSearch() -> AppModuleHandle { AppModuleHandle(Search()) }

/// A feature with a higher priority than Billing, so it comes first in its level.
struct Search: AppModule {
    func setUp() async throws {
        print("    Search: indexed 128 documents")
    }
}

import SectionRegistry

@c(app_module_Phrasebook) func makePhrasebook() -> AppModuleHandle { AppModuleHandle(Phrasebook()) }

/// Registers the `Translations` service and offers `translate`, the
/// command that uses it.
struct Phrasebook: AppModule {
    func setUp(_ context: ModuleContext) async throws {
        try context.register(Translations.self) { Translations.builtIn }
        context.offerCommand(TranslateCommand.self)
    }
}

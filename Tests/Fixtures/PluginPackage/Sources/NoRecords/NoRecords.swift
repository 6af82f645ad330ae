import SectionRegistry

/// A module with a factory, but no APP_MODULE line registers it.
public struct Unregistered: AppModule {}

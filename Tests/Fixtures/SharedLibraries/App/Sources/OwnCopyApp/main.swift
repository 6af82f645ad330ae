#if canImport(Glibc)
import Glibc
#endif
import SectionRegistry

// own-copy-app: SectionRegistryDynamic, and libRogue.so with a copy of its own.
do {
    print("linked: \(try ModuleRegistry.linked().modules.map(\.name).joined(separator: ", "))")
} catch {
    print("error: \(error)")
    exit(1)
}

#if canImport(Glibc)
import Glibc
#endif
import SectionRegistry

// static-copy-app: its own SectionRegistry, and libraries that use others.
do {
    print("linked: \(try ModuleRegistry.linked().modules.map(\.name).joined(separator: ", "))")
} catch {
    print("error: \(error)")
    exit(1)
}

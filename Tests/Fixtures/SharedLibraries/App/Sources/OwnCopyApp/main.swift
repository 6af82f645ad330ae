#if canImport(Glibc)
import Glibc
#endif
import SectionRegistry

// own-copy-app: SectionRegistryDynamic, and libRogue.so with a copy of its own.
switch Result(catching: { () throws(RegistryError) in try ModuleRegistry.linked() }) {
case .success(let registry): print("linked: \(registry.modules.map(\.name).joined(separator: ", "))")
case .failure(let error): print("error: \(error)"); exit(1)
}

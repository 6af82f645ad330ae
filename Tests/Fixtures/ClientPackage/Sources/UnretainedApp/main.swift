import Glibc
import SectionRegistry

do {
    print(try ModuleRegistry.linked().modules.map(\.name))
} catch {
    print(error)
    exit(1)
}

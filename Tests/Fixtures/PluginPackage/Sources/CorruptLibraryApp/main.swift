#if canImport(Glibc)
import Glibc
#endif
import SectionRegistry

// Linked at build time with the three corrupt plugins (as libraries, see
// Package.swift): discovery must refuse them by name, not crash.
do {
    print("linked: \(try ModuleRegistry.linked().modules.map(\.name))")
} catch {
    print("error: \(error)")
    exit(1)
}

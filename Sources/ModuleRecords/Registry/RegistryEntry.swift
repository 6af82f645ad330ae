/// What the registry rules read of a module: a declaration read by the
/// inspector, or a descriptor of this process, whose name may be the bytes
/// of a record where it lies.
package protocol RegistryEntry {
    var name: String { get }
    var level: ModuleLevel { get }
    var priority: Int { get }
    var location: RecordLocation? { get }
    /// Calls `body` with the UTF-8 bytes of the name. Names are compared by
    /// these bytes, as C compares identifiers.
    func withNameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result
}

extension ModuleDeclaration: RegistryEntry {}
extension ModuleDescriptor: RegistryEntry {}

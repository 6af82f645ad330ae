/// The full name of `type`, as `fullName(of: type)` spells it
/// (`Payments.Gateway`, `Swift.Array<Swift.Int>`).
///
/// Not `String(reflecting:)`: that asks whether the metatype conforms to
/// `CustomDebugStringConvertible` and three other protocols before it falls
/// back to this name, and each first question about a type searches every
/// loaded image's conformance records: four searches for each service type
/// a module registers.
@usableFromInline
func fullName(of type: Any.Type) -> String {
    _typeName(type, qualified: true)
}

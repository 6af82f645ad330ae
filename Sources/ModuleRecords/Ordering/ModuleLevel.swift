/// The launch tier of a module, in the spirit of the kernel's initcall levels:
/// every module of a lower level comes before any module of a higher one.
///
/// Set in C with `.level = APP_MODULE_LEVEL_CORE` (or `_SERVICE`, `_FEATURE`,
/// `_LATE`); a module without one is a ``feature`` module.
public enum ModuleLevel: UInt8, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Infrastructure everything else may use: logging, configuration.
    case core = 1
    /// Shared services: storage, accounts, messaging.
    case service = 2
    /// The app's features. The default.
    case feature = 3
    /// What must come after every feature: audit, diagnostics, readiness.
    case late = 4

    public static func < (lhs: ModuleLevel, rhs: ModuleLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        switch self {
        case .core: "core"
        case .service: "service"
        case .feature: "feature"
        case .late: "late"
        }
    }
}

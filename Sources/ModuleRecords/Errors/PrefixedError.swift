/// An error of this package. Every one reads the same way: "SectionRegistry: "
/// and then what happened, which module or image, and the fix. One error
/// carried inside another is embedded by its ``message``, so that the prefix
/// appears once, at the start of the line.
package protocol PrefixedError: Error, CustomStringConvertible {
    /// The description without the prefix.
    var message: String { get }
}

extension PrefixedError {
    /// The prefix every description of this package's errors starts with.
    package static var prefix: String { "SectionRegistry: " }

    /// The public `description`: the prefix and the ``message``.
    package var prefixedMessage: String { Self.prefix + message }
}

/// How `error` reads inside another message: one of this package's errors
/// without its prefix, any other error as it describes itself.
package func embedded(_ error: any Error) -> String {
    (error as? any PrefixedError)?.message ?? "\(error)"
}

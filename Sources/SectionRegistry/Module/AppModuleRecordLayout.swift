import CSectionRegistry

/// The shape of a record that the `@AppModule` macro (the `Macros` trait)
/// writes from Swift: for its expansion, not for code.
///
/// `@section` constants may hold only literals and function references, so
/// a record is a tuple of integers and closures laid out as
/// `app_module_record` and `app_module_text_slot` are, each slot 128 bytes:
/// `CSectionRegistry/include/RecordABI.md`, "Texts inline". The macro's
/// tests compare its expansions with fixtures that build against these.
public enum _AppModuleRecordLayout {
    /// An `app_module_record` with its texts in the slots after it: kind,
    /// version, size, flags, level, reserved0, priority, factory, the null
    /// `after` and `source_file` pointers, `reserved1` (the anchor
    /// reference first), and the name as eight little-endian words.
    public typealias Record = (
        UInt32, UInt16, UInt16, UInt32, UInt8, UInt8, Int16,
        @convention(c) () -> AppModuleHandle,
        UInt64, UInt64,
        (@convention(c) () -> Void, UInt64, UInt64),
        (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    )

    /// An `app_module_text_slot`: kind, field, three reserved bytes, and
    /// the text as fifteen little-endian words.
    public typealias Text = (
        UInt32, UInt8, UInt8, UInt8, UInt8,
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        )
    )

    /// The anchor reference of a record: emitted into the module's own
    /// image, where it calls a function that only `CSectionRegistry`'s
    /// anchor file defines, hidden. An image whose Swift records come
    /// without a `CSectionRegistry` of its own (no note, no anchor: its
    /// records would never be found) fails the link, and the linker's
    /// "undefined reference to `attribute_modules_depend_on_SectionRegistryRecords`"
    /// names the fix. Never called.
    @_alwaysEmitIntoClient
    public static func anchorReference() {
        attribute_modules_depend_on_SectionRegistryRecords()
    }
}
